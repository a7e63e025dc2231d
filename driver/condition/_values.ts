// The values side of the test language: reading a member by own properties only, sizes,
// equality and order without coercion, membership. Shared by evaluation and by the callers'
// variable lookups (so that a variable is read the same way as a member).

/** The kind of a value, for messages (never the value itself: it may be a secret). */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a date";
  if (value instanceof Map) return "a Map";
  if (value instanceof Set) return "a Set";
  const t = typeof value;
  return t === "object" ? "an object" : `a ${t}`;
}

/** Reads an own property (or a Map entry, or a string's index/length); `undefined` when absent. */
export function member(object: unknown, key: string): unknown {
  if (object === null || object === undefined) return undefined;
  if (key === "__proto__" || key === "constructor" || key === "prototype") return undefined;
  if (object instanceof Map) return object.get(key);
  if (typeof object === "string") {
    return key === "length" ? object.length : /^\d+$/.test(key) ? object[Number(key)] : undefined;
  }
  if (typeof object !== "object") return undefined;
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** The size of a string, array, Map, Set or object; null for null/missing, else undefined. */
export function sizeOf(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  if (typeof value === "object" && !(value instanceof Date)) return Object.keys(value).length;
  return undefined;
}

function numeric(value: unknown): value is number | bigint {
  return typeof value === "number" || typeof value === "bigint";
}

/** Equality without coercion: same type (numbers and bigints compare by value), dates by time. */
export function equal(a: unknown, b: unknown): boolean {
  const x = a ?? null;
  const y = b ?? null;
  if (x === y) return true;
  if (numeric(x) && numeric(y)) return x == y;
  if (x instanceof Date && y instanceof Date) return x.getTime() === y.getTime();
  return false;
}

/** The order of two numbers, strings or dates; undefined for any other pair. */
export function compareOrder(a: unknown, b: unknown): number | undefined {
  if ((numeric(a) && numeric(b)) || (typeof a === "string" && typeof b === "string")) {
    return a < b ? -1 : a > b ? 1 : a === b || a == b ? 0 : NaN;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return undefined;
}

/** Membership: true/false, null for a null/missing container, undefined for a wrong type. */
export function contains(container: unknown, value: unknown): boolean | null | undefined {
  if (container === null || container === undefined) return null;
  if (Array.isArray(container) || container instanceof Set) {
    for (const item of container) if (equal(item, value)) return true;
    return false;
  }
  if (container instanceof Map) return container.has(value);
  if (typeof container === "object" && !(container instanceof Date)) {
    return typeof value === "string" && value !== "__proto__" && Object.hasOwn(container, value);
  }
  return undefined;
}
