// Time values as Elasticsearch writes them (`500ms`, `30s`, `1m`, `2h`, `10d`): one reading for
// settings (`index.refresh_interval`, `index.gc_deletes`), keep-alives and decay functions, each
// of which refuses a bad one in its own words.

const UNITS: ReadonlyMap<string, number> = new Map([
  ["nanos", 1e-6],
  ["micros", 1e-3],
  ["ms", 1],
  ["s", 1000],
  ["m", 60_000],
  ["h", 3_600_000],
  ["d", 86_400_000],
]);

/** How a time value may be written. */
export interface TimeValueOptions {
  /** A number without a unit: refused (the default, as settings and keep-alives are), or millis. */
  readonly bare?: "refused" | "millis";
}

/**
 * The millis a time value's text stands for (spaces around the number and unit allowed, a sign
 * kept); NaN when the text is not a time value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { timeValueMs } from "./time_value.ts";
 * assert.equal(timeValueMs("1m"), 60_000);
 * assert.equal(timeValueMs("1.5s"), 1500);
 * assert.equal(timeValueMs("-1"), NaN);
 * assert.equal(timeValueMs("250", { bare: "millis" }), 250);
 * assert.equal(timeValueMs("10 parsecs"), NaN);
 * ```
 */
export function timeValueMs(text: string, options: TimeValueOptions = {}): number {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*([a-z]+)?\s*$/.exec(text);
  if (!m) return NaN;
  if (m[2] === undefined) return options.bare === "millis" ? Number(m[1]) : NaN;
  const unit = UNITS.get(m[2]);
  return unit === undefined ? NaN : Number(m[1]) * unit;
}
