/** Guards every reader of untyped input shares. A plain object: not null, not an array. */
export type UnknownRecord = { readonly [key: string]: unknown };

export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A finite number (`Number.isFinite` refuses every other type). */
export function isFiniteNumber(value: unknown): value is number {
  return Number.isFinite(value);
}
