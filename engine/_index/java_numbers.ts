// Numbers as Java writes them in text (`Float.toString`, `Double.toString`), which the real
// engines' messages and explanations quote.

/**
 * A 32-bit float (`value` rounded to one first) as Java's `Float.toString` writes it: the shortest
 * digits that read back as the same float, `.0` after whole numbers, and `1.5E-7` style outside
 * [10^-3, 10^7).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { javaFloat } from "./java_numbers.ts";
 * assert.equal(javaFloat(2), "2.0");
 * assert.equal(javaFloat(0.3), "0.3");
 * assert.equal(javaFloat(3.4028234663852886e38), "3.4028235E38");
 * assert.equal(javaFloat(-0), "-0.0");
 * ```
 */
export function javaFloat(value: number): string {
  const f = Math.fround(value);
  if (!Number.isFinite(f)) return Number.isNaN(f) ? "NaN" : f > 0 ? "Infinity" : "-Infinity";
  if (f === 0) return Object.is(f, -0) ? "-0.0" : "0.0";
  let digits = f.toPrecision(9);
  for (let p = 1; p < 9; p++) {
    const t = f.toPrecision(p);
    if (Math.fround(Number(t)) === f) {
      digits = t;
      break;
    }
  }
  return javaText(Number(digits));
}

/**
 * A double as Java's `Double.toString` writes it (`2.0`, `52.37`, `1.0E-4`), as the real engines
 * print coordinates and bounds in text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { javaDouble } from "./java_numbers.ts";
 * assert.equal(javaDouble(2), "2.0");
 * assert.equal(javaDouble(0.0001), "1.0E-4");
 * assert.equal(javaDouble(-74.00000003166497), "-74.00000003166497");
 * assert.equal(javaDouble(Number.MIN_VALUE), "4.9E-324");
 * ```
 */
export function javaDouble(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  // Java prints the smallest subnormal with two digits.
  if (Math.abs(n) === Number.MIN_VALUE) return n > 0 ? "4.9E-324" : "-4.9E-324";
  return javaText(n);
}

/** A finite non-zero number's shortest digits in Java's layout: plain in [10^-3, 10^7), else `E`. */
function javaText(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e-3 && a < 1e7) {
    const s = String(n);
    return s.includes(".") ? s : `${s}.0`;
  }
  const [m, e] = n.toExponential().split("e");
  return `${m!.includes(".") ? m : `${m}.0`}E${Number(e)}`;
}
