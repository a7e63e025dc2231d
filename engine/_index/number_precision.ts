// Rounds numbers to the precision a numeric field type stores (float, half_float, scaled_float).

/** Rounds to the nearest IEEE half-precision value (ties to even). */
export function halfFloat(x: number): number {
  const native = (Math as { f16round?: (v: number) => number }).f16round;
  if (native) return native(x);
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return x > 0 ? Infinity : -Infinity;
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  const ulp = 2 ** (e - 10);
  const q = a / ulp;
  let r = Math.round(q);
  if (r - q === 0.5 && r % 2 === 1) r -= 1; // ties to even
  return Math.sign(x) * r * ulp;
}

/** The rounding applied when indexing a value of this mapping type, or null when exact. */
export function precisionOf(type: string, scalingFactor: unknown): ((n: number) => number) | null {
  switch (type) {
    case "float":
      return Math.fround;
    case "half_float":
      return halfFloat;
    case "scaled_float": {
      const f = Number(scalingFactor ?? 1) || 1;
      return (n) => Math.round(n * f) / f;
    }
    default:
      return null;
  }
}
