// Sibling pipeline aggregations: they read the buckets of another aggregation at their level
// (avg/max/min/sum/stats/extended_stats/percentiles_bucket) once that level is done.

import { illegalArgument } from "../_errors.ts";
import {
  bucketsOf,
  bucketValue,
  gapPolicyOf,
  keyText,
  parseBucketsPath,
  type PathElement,
  singlePath,
} from "./buckets_path.ts";
import { extendedStats } from "./metric_aggs.ts";
import { withValueStrings } from "./value_strings.ts";
import type { JsonObject } from "../_json.ts";

import { pipelineFormat } from "./value_strings.ts";

/** A sibling pipeline: the bucket values read through `buckets_path` to its result. */
export type Sibling = (values: { key: string; value: number }[], body: JsonObject) => JsonObject;

const nullable = (n: number): number | null => (Number.isFinite(n) ? n : null);

function extreme(sign: 1 | -1): Sibling {
  return (values) => {
    let best = -Infinity;
    let keys: string[] = [];
    for (const { key, value } of values) {
      const v = value * sign;
      if (v > best) [best, keys] = [v, [key]];
      else if (v === best) keys.push(key);
    }
    return { value: nullable(best * sign), keys };
  };
}

/** Nearest-rank percentile of sorted values, as `percentiles_bucket` computes it. */
function nearestRank(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.round((p / 100) * (sorted.length - 1))] ?? null;
}

/** The sibling pipelines, by type: each computes its result from the bucket values it read. */
export const SIBLINGS: Record<string, Sibling> = {
  avg_bucket: (vs) => ({
    value: vs.length ? vs.reduce((a, v) => a + v.value, 0) / vs.length : null,
  }),
  sum_bucket: (vs) => ({ value: vs.reduce((a, v) => a + v.value, 0) }),
  max_bucket: extreme(1),
  min_bucket: extreme(-1),
  stats_bucket: (vs) => {
    const n = vs.length;
    const sum = vs.reduce((a, v) => a + v.value, 0);
    const nums = vs.map((v) => v.value);
    return {
      count: n,
      min: n ? Math.min(...nums) : null,
      max: n ? Math.max(...nums) : null,
      avg: n ? sum / n : null,
      sum,
    };
  },
  extended_stats_bucket: (vs, body) =>
    extendedStats(vs.map((v) => v.value), body.sigma, "extended_stats_bucket"),
  percentiles_bucket: (vs, body) => {
    const sorted = vs.map((v) => v.value).sort((a, b) => a - b);
    const percents = Array.isArray(body.percents)
      ? body.percents.map(Number)
      : [1, 5, 25, 50, 75, 95, 99];
    for (const p of percents) {
      if (!(p >= 0 && p <= 100)) {
        throw illegalArgument(`percent must be in [0,100], got [${p}]`);
      }
    }
    const entries = percents.map((p) =>
      [Number.isInteger(p) ? `${p}.0` : String(p), nearestRank(sorted, p)] as const
    );
    if (body.keyed === false) {
      return { values: entries.map(([key, value]) => ({ key: Number(key), value })) };
    }
    return { values: Object.fromEntries(entries) };
  },
};

/** Computes a sibling pipeline from the results already rendered at its level. */
export function siblingPipeline(
  type: string,
  name: string,
  body: JsonObject,
  results: JsonObject,
): JsonObject {
  const text = singlePath(type, name, body);
  const path = parseBucketsPath(text);
  const gap = gapPolicyOf(body.gap_policy);
  // Walk down through single-bucket aggregations to the first multi-bucket one.
  let at: JsonObject = results;
  let i = 0;
  let buckets: JsonObject[] | null = null;
  for (; i < path.length; i++) {
    const el = path[i]!;
    if (!Object.hasOwn(at, el.name)) {
      throw illegalArgument(`No aggregation found for path [${text}]`);
    }
    const agg = at[el.name] as JsonObject;
    buckets = el.key === undefined ? bucketsOf(agg) : null;
    if (buckets) break;
    at = agg;
  }
  if (!buckets) {
    throw illegalArgument(
      `Unable to find unqualified multi-bucket aggregation in buckets_path. Path must include a multi-bucket aggregation for aggregation [${name}] found for buckets path: ${text}`,
    );
  }
  const rest: PathElement[] = path.slice(i + 1);
  const first = path[i]!;
  const inner = rest.length
    ? rest
    : [{ name: "_count", ...(first.metric ? { name: first.metric } : {}) }];
  const values: { key: string; value: number }[] = [];
  for (const b of buckets) {
    const v = bucketValue(b, inner, text, gap);
    if (!Number.isNaN(v)) values.push({ key: keyText(b), value: v });
  }
  return withValueStrings(SIBLINGS[type]!(values, body), pipelineFormat(body));
}
