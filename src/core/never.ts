/** The exhaustive-switch guard: a value the types say cannot occur. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}
