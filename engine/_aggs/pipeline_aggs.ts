// Pipeline aggregations: siblings read the buckets of another aggregation at their level
// (avg/max/min/sum/stats/extended_stats/percentiles_bucket); parents rewrite the buckets of the
// aggregation they sit in (cumulative_sum, derivative, bucket_script, bucket_selector, bucket_sort).

import { illegalArgument, parsingError, validationFailed } from "../_errors.ts";
import { setOwn } from "../_index/own.ts";
import {
  bucketsOf,
  bucketValue,
  gapPolicyOf,
  keyText,
  type ParentFn,
  parseBucketsPath,
  type PathElement,
  singlePath,
} from "./buckets_path.ts";
import { extendedStats } from "./metric_aggs.ts";
import { MOVING_FNS } from "./moving_aggs.ts";
import { withValueStrings } from "./value_strings.ts";
import { decimalFormat } from "../_index/decimal_format.ts";
import { readScript, runExpression } from "../_query/script.ts";
import type { JsonObject } from "../_json.ts";

type Sibling = (values: { key: string; value: number }[], body: JsonObject) => JsonObject;

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

const SIBLINGS: Record<string, Sibling> = {
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

const PARENTS = new Set([
  "cumulative_sum",
  "derivative",
  "bucket_script",
  "bucket_selector",
  "bucket_sort",
  "moving_fn",
  "serial_diff",
]);
const HISTOGRAMS = new Set(["histogram", "date_histogram", "auto_date_histogram"]);
// Parent pipelines that read buckets in key order: only under a histogram.
const HISTOGRAM_PARENTS = new Set(["derivative", "cumulative_sum", "moving_fn", "serial_diff"]);
const MULTI_BUCKET = new Set([
  ...HISTOGRAMS,
  "terms",
  "composite",
  "multi_terms",
  "rare_terms",
  "significant_terms",
  "range",
  "date_range",
  "ip_range",
  "filters",
]);

/** Every pipeline aggregation type. */
export const PIPELINE_TYPES: readonly string[] = [...Object.keys(SIBLINGS), ...PARENTS];

/** Whether `type` is a sibling pipeline aggregation. */
export function isSiblingPipeline(type: string): boolean {
  return Object.hasOwn(SIBLINGS, type);
}

/** Whether `type` is a parent pipeline aggregation (it rewrites its parent's buckets). */
export function isParentPipeline(type: string): boolean {
  return PARENTS.has(type);
}

/**
 * Checks where the pipelines of an `aggs` tree sit, before anything runs: a parent pipeline
 * needs a multi-bucket parent (a histogram for `derivative` and `cumulative_sum`).
 */
export function validatePipelines(aggs: JsonObject, parent: string | null): void {
  for (const [name, def] of Object.entries(aggs)) {
    if (def === null || typeof def !== "object") continue;
    let sub: JsonObject | undefined;
    let type: string | undefined;
    for (const [k, v] of Object.entries(def as JsonObject)) {
      if (k === "aggs" || k === "aggregations") sub = v as JsonObject;
      else if (k !== "meta") type = k;
    }
    if (type && PARENTS.has(type)) {
      const histogramOnly = HISTOGRAM_PARENTS.has(type);
      if (parent === null) {
        throw validationFailed(
          histogramOnly
            ? `${type} aggregation [${name}] must have a histogram, date_histogram or auto_date_histogram as parent but doesn't have a parent`
            : `${type} aggregation [${name}] must be declared inside of another aggregation`,
        );
      }
      if (histogramOnly && !HISTOGRAMS.has(parent)) {
        throw validationFailed(
          `${type} aggregation [${name}] must have a histogram, date_histogram or auto_date_histogram as parent`,
        );
      }
      if (!histogramOnly && !MULTI_BUCKET.has(parent)) {
        throw validationFailed(
          `${type} aggregation [${name}] must be declared inside of another multi-bucket aggregation`,
        );
      }
    }
    if (type && (PARENTS.has(type) || Object.hasOwn(SIBLINGS, type)) && sub) {
      throw illegalArgument(
        `Aggregator [${name}] of type [${type}] cannot accept sub-aggregations`,
      );
    }
    if (sub && typeof sub === "object") validatePipelines(sub, type ?? null);
  }
}

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

/** A pipeline's `format` (a `DecimalFormat` pattern) as a function, or null without one. */
function pipelineFormat(body: JsonObject): ((n: number) => string) | null {
  const format = body.format;
  return typeof format === "string" ? (n) => decimalFormat(n, format) : null;
}

/** Applies the parent pipelines declared in `sub` to the buckets of `result`, in order. */
export function applyParentPipelines(result: JsonObject, sub: JsonObject): JsonObject {
  for (const [name, def] of Object.entries(sub)) {
    const entry = Object.entries(def as JsonObject).find(([k]) => PARENTS.has(k));
    if (!entry) continue;
    const [type, body] = entry as [string, JsonObject];
    const buckets = bucketsOf(result);
    if (!buckets) continue;
    const kept = PARENT_FNS[type]!(buckets, body ?? {}, name, type);
    const text = pipelineFormat(body ?? {});
    if (text) {
      for (const b of kept) {
        const value = b[name];
        if (value !== null && typeof value === "object") {
          setOwn(b, name, withValueStrings(value as JsonObject, text));
        }
      }
    }
    if (kept !== buckets) {
      const raw = result.buckets;
      if (Array.isArray(raw)) result = { ...result, buckets: kept };
      else {
        // Keyed buckets keep their keys, in the order the pipeline left them.
        const keyOf = new Map<unknown, string>();
        for (const [k, b] of Object.entries(raw as JsonObject)) keyOf.set(b, k);
        const keyed: JsonObject = {};
        for (const b of kept) setOwn(keyed, keyOf.get(b)!, b);
        result = { ...result, buckets: keyed };
      }
    }
  }
  return result;
}

function scriptVars(
  type: string,
  name: string,
  body: JsonObject,
): [string, PathElement[], string][] {
  const p = body.buckets_path;
  if (p === undefined) {
    throw parsingError(`Missing required field [buckets_path] for ${type} aggregation [${name}]`);
  }
  const named: [string, unknown][] = typeof p === "string"
    ? [["_value0", p]]
    : Array.isArray(p)
    ? p.map((v, i) => [`_value${i}`, v])
    : Object.entries(p as JsonObject);
  return named.map(([k, v]) => [k, parseBucketsPath(String(v)), String(v)]);
}

function runScript(type: string, name: string, body: JsonObject, params: JsonObject): unknown {
  if (body.script === undefined) {
    throw parsingError(`Missing required field [script] for ${type} aggregation [${name}]`);
  }
  const script = readScript(body.script);
  return runExpression(script, { params: { ...script.params, ...params } });
}

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  second: 1000,
  m: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
};

function unitMs(unit: unknown): number | null {
  if (unit === undefined || unit === null) return null;
  const m = /^(\d*)([a-z]+)$/.exec(String(unit));
  const base = m ? UNIT_MS[m[2]!] : undefined;
  if (!m || base === undefined) throw illegalArgument(`Unsupported derivative unit [${unit}]`);
  return (m[1] ? Number(m[1]) : 1) * base;
}

const PARENT_FNS: Record<string, ParentFn> = {
  cumulative_sum: (buckets, body, name, type) => {
    const text = singlePath(type, name, body);
    const path = parseBucketsPath(text);
    let sum = 0;
    for (const b of buckets) {
      const v = bucketValue(b, path, text, "insert_zeros");
      if (Number.isFinite(v)) sum += v;
      setOwn(b, name, { value: sum });
    }
    return buckets;
  },
  derivative: (buckets, body, name, type) => {
    const text = singlePath(type, name, body);
    const path = parseBucketsPath(text);
    const gap = gapPolicyOf(body.gap_policy);
    const unit = unitMs(body.unit);
    let last: { value: number; key: number } | null = null;
    for (const b of buckets) {
      const v = bucketValue(b, path, text, gap);
      if (Number.isNaN(v)) continue;
      const key = Number(b.key);
      if (last) {
        const value = v - last.value;
        const out: JsonObject = { value };
        if (unit !== null) out.normalized_value = value / ((key - last.key) / unit);
        setOwn(b, name, out);
      }
      last = { value: v, key };
    }
    return buckets;
  },
  bucket_script: (buckets, body, name, type) => {
    const vars = scriptVars(type, name, body);
    const gap = gapPolicyOf(body.gap_policy);
    for (const b of buckets) {
      const params: JsonObject = {};
      let skip = false;
      for (const [k, path, text] of vars) {
        const v = bucketValue(b, path, text, gap);
        if (Number.isNaN(v) && gap === "skip") skip = true;
        params[k] = v;
      }
      if (skip) continue;
      const value = runScript(type, name, body, params);
      if (value === null || value === undefined) continue;
      if (typeof value !== "number") {
        throw illegalArgument(
          `buckets_path must reference either a number value or a single value numeric metric aggregation, got: [${typeof value}] at aggregation [${name}]`,
        );
      }
      setOwn(b, name, { value });
    }
    return buckets;
  },
  bucket_selector: (buckets, body, name, type) => {
    const vars = scriptVars(type, name, body);
    const gap = gapPolicyOf(body.gap_policy);
    return buckets.filter((b) => {
      const params: JsonObject = {};
      for (const [k, path, text] of vars) params[k] = bucketValue(b, path, text, gap);
      const keep = runScript(type, name, body, params);
      if (typeof keep !== "boolean") {
        throw illegalArgument(`bucket_selector script [${name}] must return a boolean`);
      }
      return keep;
    });
  },
  bucket_sort: (buckets, body, name) => bucketSort(buckets, body, name),
  ...MOVING_FNS,
};

function bucketSort(buckets: JsonObject[], body: JsonObject, name: string): JsonObject[] {
  const from = Number(body.from ?? 0);
  if (!(Number.isInteger(from) && from >= 0)) {
    throw illegalArgument(`[from] must be a non-negative integer: [${body.from}]`);
  }
  const size = body.size === undefined || body.size === null ? Infinity : Number(body.size);
  if (!(size > 0)) throw illegalArgument(`[size] must be a positive integer: [${body.size}]`);
  const gap = gapPolicyOf(body.gap_policy);
  const specs = body.sort === undefined ? [] : Array.isArray(body.sort) ? body.sort : [body.sort];
  const keys = specs.map((s: unknown) => {
    const [field, o] = typeof s === "string"
      ? [s, {}]
      : Object.entries(s as JsonObject)[0] ?? ["", {}];
    const order = typeof o === "string" ? o : (o as JsonObject)?.order ?? "asc";
    if (order !== "asc" && order !== "desc") {
      throw illegalArgument(`Unknown SortOrder [${order}] for aggregation [${name}]`);
    }
    return { field, path: parseBucketsPath(field), sign: order === "desc" ? -1 : 1 };
  });
  const valued = buckets.map((b) => ({
    b,
    v: keys.map((k) => (k.field === "_key" ? b.key : bucketValue(b, k.path, k.field, gap))),
  }));
  const rows = gap === "skip"
    ? valued.filter((r) => r.v.every((x) => !(typeof x === "number" && Number.isNaN(x))))
    : valued;
  if (keys.length) {
    rows.sort((x, y) => {
      for (let i = 0; i < keys.length; i++) {
        const a = x.v[i];
        const c = typeof a === "number" && typeof y.v[i] === "number"
          ? a - (y.v[i] as number)
          : String(a) < String(y.v[i])
          ? -1
          : String(a) > String(y.v[i])
          ? 1
          : 0;
        if (c) return c * keys[i]!.sign;
      }
      return 0;
    });
  }
  return rows.slice(from, from + size).map((r) => r.b);
}
