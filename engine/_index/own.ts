// Field names are data: reading and writing plain objects by user-supplied keys without ever
// touching JavaScript members (`constructor`, `toString`, ...) or the prototype (`__proto__`).
// Internal to the engine.

/** The value stored under `key` itself, never an inherited member. */
export function own<T>(
  obj: Readonly<Record<string, T>> | null | undefined,
  key: string,
): T | undefined {
  return obj !== null && obj !== undefined && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Stores `value` under `key` as an own data property, even for `__proto__`. */
export function setOwn(obj: object, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The value under `key`, created by `make` and stored when absent. */
export function ownOrSet<T>(obj: Record<string, T>, key: string, make: () => T): T {
  if (Object.hasOwn(obj, key)) return obj[key]!;
  const value = make();
  setOwn(obj, key, value);
  return value;
}
