// `buckets_path` syntax of the pipeline aggregations: `agg>agg.metric`, `agg['key']>metric`,
// `_count`, `_key`, `agg._bucket_count`, and reading a path's value out of rendered results.

import { illegalArgument, parsingError, validationFailed } from "../_errors.ts";
import type { JsonObject } from "../_json.ts";
import { setOwn } from "../_index/own.ts";

/** One `>`-separated element: an aggregation name, an optional bucket key and metric. */
export interface PathElement {
  readonly name: string;
  readonly key?: string;
  readonly metric?: string;
}

/**
 * Parses a `buckets_path` string (`sales_per_month>sales`, `stats.avg`, `types['hat']>_count`,
 * `the_percentiles[99.9]`), refusing empty elements as Elasticsearch does.
 */
export function parseBucketsPath(path: string): PathElement[] {
  if (path === "") throw invalidPath(path);
  const out: PathElement[] = [];
  // Keys in brackets may hold `>` and `.`, so elements are read one at a time, not split.
  const element = /([^.[\]>]+)(?:\[(?:'([^']*)'|"([^"]*)"|([^\]]*))\])?(?:\.([^>]+))?(>|$)/y;
  while (element.lastIndex < path.length) {
    const m = element.exec(path);
    if (!m || (m[6] === ">" && element.lastIndex === path.length)) throw invalidPath(path);
    const key = m[2] ?? m[3] ?? m[4];
    const el: PathElement = { name: m[1]!, ...(key !== undefined ? { key } : {}) };
    out.push(m[5] !== undefined ? { ...el, metric: m[5] } : el);
  }
  return out;
}

function invalidPath(path: string): Error {
  return validationFailed(`Invalid path [${path}]`);
}

/** The buckets of a multi-bucket result (array or keyed object), or null for other results. */
export function bucketsOf(result: unknown): JsonObject[] | null {
  const b = (result as JsonObject | null)?.buckets;
  if (Array.isArray(b)) return b as JsonObject[];
  if (b !== null && typeof b === "object") return Object.values(b) as JsonObject[];
  return null;
}

/**
 * The `buckets` object of a keyed range aggregation: Elasticsearch writes each bucket under its
 * key and leaves `key` out of the bucket. The key stays readable (not enumerable, so it is not
 * written) for pipelines that report bucket keys.
 */
export function keyedRanges(buckets: JsonObject[]): JsonObject {
  const out: JsonObject = {};
  for (const b of buckets) {
    const key = String(b.key);
    Object.defineProperty(b, "key", { value: key, enumerable: false });
    setOwn(out, key, b);
  }
  return out;
}

/** The string form of a bucket's key (`key_as_string` when there is one), as `keys` report it. */
export function keyText(bucket: JsonObject): string {
  return String(bucket.key_as_string ?? bucket.key);
}

/**
 * Reads the value of `path` inside one bucket (or the top level of a response's aggregations):
 * a number, `null` for a missing metric value, and an error for a path that names nothing.
 */
export function resolvePath(container: JsonObject, path: PathElement[], text: string): unknown {
  let at: JsonObject = container;
  for (let i = 0; i < path.length; i++) {
    const el = path[i]!;
    const last = i === path.length - 1;
    if (el.name === "_count" && last) return at.doc_count;
    if (el.name === "_key" && last) return at.key;
    if (!Object.hasOwn(at, el.name)) {
      throw illegalArgument(`No aggregation found for path [${text}]`);
    }
    let agg = at[el.name] as JsonObject;
    if (el.key !== undefined) {
      const buckets = bucketsOf(agg);
      if (buckets) {
        const hit = buckets.find((b) => keyText(b) === el.key || String(b.key) === el.key);
        if (!hit) throw illegalArgument(`No bucket with key [${el.key}] found for path [${text}]`);
        agg = hit;
      } else return metricOf({ ...agg }, el.key, text);
    }
    if (el.metric !== undefined) {
      if (el.metric === "_bucket_count") return bucketsOf(agg)?.length ?? 0;
      return metricOf(agg, el.metric, text);
    }
    if (el.key === undefined && bucketsOf(agg)) {
      throw illegalArgument(
        `buckets_path must reference either a number value or a single value numeric metric aggregation, got: [${
          last ? resultClass(agg) : "Object[]"
        }] at aggregation [${el.name}]`,
      );
    }
    if (last) {
      if (el.key !== undefined) return agg.doc_count;
      if (Object.hasOwn(agg, "value")) return agg.value;
      if (Object.hasOwn(agg, "doc_count")) return agg.doc_count;
      if (Array.isArray(agg.top)) {
        const metrics = (agg.top[0] as JsonObject | undefined)?.metrics as JsonObject | undefined;
        const names = metrics ? Object.keys(metrics) : [];
        if (names.length === 1) return metrics![names[0]!];
        if (!metrics) return null;
      }
      const only = singleValue(agg.values);
      if (only !== undefined) return only;
      throw illegalArgument(
        `buckets_path must reference either a number value or a single value numeric metric aggregation, but [${el.name}] contains multiple values. Please specify which to use.`,
      );
    }
    at = agg;
  }
  return at.doc_count;
}

/** The one value of a multi-value metric that has a single one (`percentiles` of one percent). */
function singleValue(values: unknown): unknown {
  if (Array.isArray(values)) {
    return values.length === 1 ? (values[0] as JsonObject | undefined)?.value : undefined;
  }
  if (values === null || typeof values !== "object") return undefined;
  const entries = Object.entries(values as JsonObject);
  return entries.length === 1 ? entries[0]![1] : undefined;
}

/** The class Elasticsearch names a multi-bucket result by in buckets_path errors. */
function resultClass(agg: JsonObject): string {
  const first = bucketsOf(agg)?.[0];
  if (Object.hasOwn(agg, "sum_other_doc_count")) {
    if (first === undefined) return "UnmappedTerms";
    if (typeof first.key === "string") return "StringTerms";
    return Number.isInteger(first.key) ? "LongTerms" : "DoubleTerms";
  }
  if (Object.hasOwn(agg, "after_key")) return "InternalComposite";
  if (first && typeof first.key === "number") {
    return first.key_as_string === undefined ? "InternalHistogram" : "InternalDateHistogram";
  }
  return Array.isArray(agg.buckets) ? "InternalRange" : "InternalFilters";
}

function metricOf(agg: JsonObject, metric: string, text: string): unknown {
  if (Object.hasOwn(agg, metric)) return agg[metric];
  if (Array.isArray(agg.top)) {
    // top_metrics: a metric of the first document.
    const metrics = (agg.top[0] as JsonObject | undefined)?.metrics as JsonObject | undefined;
    if (metrics === undefined) return null;
    if (!Object.hasOwn(metrics, metric)) throw illegalArgument(`unknown metric [${metric}]`);
    return metrics[metric];
  }
  const values = agg.values as JsonObject | undefined;
  if (values && typeof values === "object") {
    if (!Array.isArray(values)) {
      const n = Number(metric);
      for (const [k, v] of Object.entries(values)) if (k === metric || Number(k) === n) return v;
    }
  }
  throw illegalArgument(`No metric [${metric}] found for path [${text}]`);
}

/** How a pipeline treats a bucket whose value is missing (`gap_policy`). */
export type GapPolicy = "skip" | "insert_zeros" | "keep_values";

/** Reads `gap_policy`, refusing unknown names. */
export function gapPolicyOf(raw: unknown): GapPolicy {
  const v = raw ?? "skip";
  if (v === "skip" || v === "insert_zeros" || v === "keep_values") return v;
  throw illegalArgument(`No gap policy found for name [${String(v)}]`);
}

/**
 * The numeric value of `path` in `bucket` under a gap policy: `_count` is always the doc count;
 * a missing value or an empty bucket is skipped (NaN) or becomes 0.
 */
export function bucketValue(
  bucket: JsonObject,
  path: PathElement[],
  text: string,
  gap: GapPolicy,
): number {
  const raw = resolvePath(bucket, path, text);
  const value = typeof raw === "number" ? raw : raw === null || raw === undefined ? NaN : NaN;
  if (path.length === 1 && path[0]!.name === "_count") return value;
  const empty = bucket.doc_count === 0;
  if (!Number.isFinite(value) || empty) {
    if (gap === "insert_zeros") return 0;
    if (gap === "keep_values" && Number.isFinite(value)) return value;
    return NaN;
  }
  return value;
}

/** The one `buckets_path` of a pipeline that reads a single value (a string or a one-entry array). */
export function singlePath(type: string, name: string, body: JsonObject): string {
  const p = body.buckets_path;
  if (p === undefined) {
    throw parsingError(`Missing required field [buckets_path] for ${type} aggregation [${name}]`);
  }
  if (Array.isArray(p) && p.length === 1 && typeof p[0] === "string") return p[0];
  if (typeof p !== "string") {
    throw illegalArgument(`[buckets_path] must be a single path for ${type} aggregation [${name}]`);
  }
  return p;
}

/** A parent pipeline: rewrites (or filters) the buckets of the aggregation that declares it. */
export type ParentFn = (
  buckets: JsonObject[],
  body: JsonObject,
  name: string,
  type: string,
) => JsonObject[];

/**
 * The value a bucket is ordered by for an `order` path naming a sub-aggregation (`"avg"`,
 * `"stats.max"`, `"filter>max"`, `"nested>_count"`, `"top.name"`): a number, a string (a
 * keyword metric of `top_metrics`), or -Infinity when it has none.
 */
export function orderPathValue(bucket: JsonObject, path: string): number | string {
  const elements = parseBucketsPath(path);
  const first = elements[0]!.name;
  if (first !== "_count" && first !== "_key" && !Object.hasOwn(bucket, first)) {
    throw illegalArgument(
      `Invalid aggregation order path [${path}]. Unknown aggregation [${first}]`,
    );
  }
  const v = resolvePath(bucket, elements, path);
  return typeof v === "number" || typeof v === "string" ? v : -Infinity;
}

/** Compares two order values: numbers by value, strings as text, a missing value lowest. */
export function compareOrderValues(a: number | string, b: number | string): number {
  if (typeof a === "number" && typeof b === "number") {
    return a === b ? 0 : a < b || Number.isNaN(a) ? -1 : 1;
  }
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
