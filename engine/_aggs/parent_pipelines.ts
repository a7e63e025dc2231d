// Parent pipeline aggregations: they rewrite the buckets of the aggregation they sit in
// (cumulative_sum, derivative, moving_fn, serial_diff, bucket_script, bucket_selector, bucket_sort).

import { illegalArgument, parsingError } from "../_errors.ts";
import { setOwn } from "../_index/own.ts";
import {
  bucketsOf,
  bucketValue,
  gapPolicyOf,
  type ParentFn,
  parseBucketsPath,
  type PathElement,
  singlePath,
} from "./buckets_path.ts";
import { MOVING_FNS } from "./moving_aggs.ts";
import { withValueStrings } from "./value_strings.ts";
import { readScript, runExpression } from "../_query/script.ts";
import type { JsonObject } from "../_json.ts";

import { pipelineFormat } from "./value_strings.ts";
import { isParentPipeline } from "./pipeline_aggs.ts";

/** Applies the parent pipelines declared in `sub` to the buckets of `result`, in order. */
export function applyParentPipelines(result: JsonObject, sub: JsonObject): JsonObject {
  for (const [name, def] of Object.entries(sub)) {
    const entry = Object.entries(def as JsonObject).find(([k]) => isParentPipeline(k));
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
    // Under `skip` an empty bucket's value is NaN, and it still becomes the last value: the
    // derivative of that bucket and of the next is NaN, written null (real OpenSearch 3.8.0).
    let last: { value: number; key: number } | null = null;
    for (const b of buckets) {
      const v = bucketValue(b, path, text, gap);
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
