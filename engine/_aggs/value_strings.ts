// The `*_as_string` companions Elasticsearch writes beside a metric's numbers when the result
// has a format (a `format` parameter, or a date field): `value_as_string` right after `value`,
// the stats' strings after their numbers, `<percent>_as_string` after each percentile.

import { setOwn } from "../_index/own.ts";
import type { JsonObject } from "../_json.ts";
import { decimalFormat } from "../_index/decimal_format.ts";

const STATS = ["min", "max", "avg", "sum"];
const EXTENDED = [
  "sum_of_squares",
  "variance",
  "variance_population",
  "variance_sampling",
  "std_deviation",
  "std_deviation_population",
  "std_deviation_sampling",
];

/** The text forms of the finite numbers among `keys` of `o`, named `<key>_as_string` or not. */
function strings(
  o: JsonObject,
  keys: string[],
  text: (n: number) => string,
  suffix = "_as_string",
): JsonObject {
  const out: JsonObject = {};
  for (const k of keys) {
    const v = o[k];
    if (typeof v === "number" && Number.isFinite(v)) setOwn(out, `${k}${suffix}`, text(v));
  }
  return out;
}

/**
 * Adds the text forms of a metric result's numbers, in Elasticsearch's order; the result is
 * returned unchanged when `text` is null.
 */
export function withValueStrings(
  result: JsonObject,
  text: ((n: number) => string) | null,
): JsonObject {
  if (!text) return result;
  const out: JsonObject = {};
  const stats = typeof result.count === "number" && Object.hasOwn(result, "min");
  const extended = stats && Object.hasOwn(result, "sum_of_squares");
  const counted = result.count !== 0;
  for (const [k, v] of Object.entries(result)) {
    if (extended && counted && k === "sum_of_squares") {
      Object.assign(out, strings(result, STATS, text));
    }
    setOwn(out, k, v);
    if ((k === "value" || k === "normalized_value") && typeof v === "number") {
      if (Number.isFinite(v)) setOwn(out, `${k}_as_string`, text(v));
    }
    if (k === "values" && v !== null && typeof v === "object" && !Array.isArray(v)) {
      const values: JsonObject = {};
      for (const [p, n] of Object.entries(v as JsonObject)) {
        setOwn(values, p, n);
        if (typeof n === "number" && Number.isFinite(n)) setOwn(values, `${p}_as_string`, text(n));
      }
      out.values = values;
    }
  }
  if (stats && !extended && counted) Object.assign(out, strings(result, STATS, text));
  if (extended && counted) {
    Object.assign(out, strings(result, EXTENDED, text));
    const bounds = result.std_deviation_bounds as JsonObject | undefined;
    if (bounds) {
      out.std_deviation_bounds_as_string = strings(bounds, Object.keys(bounds), text, "");
    }
  }
  return out;
}

/**
 * The `values` of a percentiles-like result from `[key, value]` entries: an object by key, or with
 * `keyed: false` a list of `{key, value}`; text forms added when `text` is given.
 */
export function percentileValues(
  entries: readonly (readonly [string, number | null])[],
  keyed: unknown,
  text: ((n: number) => string) | null,
): JsonObject {
  if (keyed === false) {
    return {
      values: entries.map(([key, value]) => ({
        key: Number(key),
        value,
        ...(text && value !== null ? { value_as_string: text(value) } : {}),
      })),
    };
  }
  return withValueStrings({ values: Object.fromEntries(entries) }, text);
}

/** A pipeline's `format` (a `DecimalFormat` pattern) as a function, or null without one. */
export function pipelineFormat(body: JsonObject): ((n: number) => string) | null {
  const format = body.format;
  return typeof format === "string" ? (n) => decimalFormat(n, format) : null;
}
