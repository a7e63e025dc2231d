// `percentile_ranks`: the percentage of values at or below each given value, read off the same
// unit-weight t-digest the `percentiles` metric interpolates (each distinct value a centroid
// spanning half the distance to its neighbours).

import { illegalArgument } from "../_errors.ts";
import {
  type AggInput,
  eachValueOrMissing,
  fieldOf,
  numericOnly,
  valueFormat,
} from "./agg_values.ts";
import { withValueStrings } from "./value_strings.ts";
import type { JsonObject } from "../_json.ts";

/** The fraction (0..1) of `sorted` at or below `x`, as a t-digest's cdf estimates it. */
export function rankOf(sorted: number[], x: number): number | null {
  if (sorted.length === 0) return null;
  const means: number[] = [];
  const counts: number[] = [];
  for (const v of sorted) {
    if (means[means.length - 1] === v) counts[counts.length - 1]!++;
    else {
      means.push(v);
      counts.push(1);
    }
  }
  if (means.length === 1) return x < means[0]! ? 0 : 1;
  let below = 0;
  for (let i = 0; i < means.length; i++) {
    const m = means[i]!;
    const right = (i + 1 < means.length ? means[i + 1]! - m : m - means[i - 1]!) / 2;
    const left = (i > 0 ? m - means[i - 1]! : means[i + 1]! - m) / 2;
    if (x < m + right) {
      const share = (x - (m - left)) / (left + right);
      return Math.max(0, (below + counts[i]! * share) / sorted.length);
    }
    below += counts[i]!;
  }
  return 1;
}

/** The `percentile_ranks` aggregation. */
export function percentileRanksAgg(body: JsonObject, inputs: AggInput[], name: string): JsonObject {
  const raw = body.values;
  if (raw === undefined || raw === null) {
    throw illegalArgument(`[values] must not be null: [${name}]`);
  }
  if (!Array.isArray(raw) || raw.length === 0) {
    throw illegalArgument(`[values] must not be an empty array: [${name}]`);
  }
  const values = raw.map((v) => {
    if (typeof v !== "number") {
      throw illegalArgument(`[values] must be numbers in [${name}], found [${JSON.stringify(v)}]`);
    }
    return v;
  }).sort((a, b) => a - b);
  const field = fieldOf(body, name, "percentile_ranks");
  numericOnly(inputs, field, "percentile_ranks");
  const vs: number[] = [];
  const info = eachValueOrMissing(inputs, body, field, (v) => vs.push(Number(v)));
  vs.sort((a, b) => a - b);
  const entries = values.map((v) => {
    const rank = rankOf(vs, v);
    return [Number.isInteger(v) ? `${v}.0` : String(v), rank === null ? null : rank * 100] as const;
  });
  const text = valueFormat(body, info);
  if (body.keyed === false) {
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
