// Whole numbers kept exact: a `long` or `unsigned_long` value is a `number` while it is a safe
// integer (the common case, as fast as ever) and a `bigint` beyond ±2^53 − 1, where a double
// would round it. JavaScript compares `number` and `bigint` exactly with `<`, `>` and `==`, so
// mixed values order correctly without conversion.

/** A numeric value as the engine keeps it: a bigint only for an integer outside the safe range. */
export type Exact = number | bigint;

const DIGITS = /^\s*[+-]?\d+\s*$/;

/** The exact form of a bigint: a number when it is safe, else the bigint. */
export function fromBigInt(b: bigint): Exact {
  const n = Number(b);
  return Number.isSafeInteger(n) ? n : b;
}

/**
 * The exact integer a value stands for in a whole-number field: a number (truncated, as
 * Elasticsearch coerces `1.9` to `1`) or a bigint when outside the safe range; NaN when the
 * value is not numeric.
 */
export function exactInteger(v: unknown): Exact {
  if (typeof v === "bigint") return fromBigInt(v);
  if (typeof v === "string") {
    if (DIGITS.test(v)) return fromBigInt(BigInt(v.trim()));
    if (v.trim() === "") return NaN;
  } else if (typeof v !== "number") return NaN;
  const n = Math.trunc(Number(v));
  return !Number.isFinite(n) || Number.isSafeInteger(n) ? n : BigInt(n);
}

/** Orders two values exactly (numbers and bigints mixed). */
export function compareExact(a: Exact, b: Exact): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The double nearest to a value (for storage beside the exact form, and for metrics). */
export function toDouble(v: Exact): number {
  return typeof v === "bigint" ? Number(v) : v;
}
