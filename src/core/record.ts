/** A guard every reader of untyped input shares: a plain object, not null, not an array. */
export type UnknownRecord = { readonly [key: string]: unknown };

export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
