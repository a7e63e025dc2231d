// Aggregations over the matching docs: the table from type name to implementation, terms (with
// sub-aggregations and ordering), filter(s), missing, and the wiring of the bucket and metric kinds.

import { consumeBuckets } from "../_index/limits.ts";
import { setOwn } from "../_index/own.ts";
import { illegalArgument, parsingError } from "../_errors.ts";
import {
  type BucketDocs,
  dateHistogramAgg,
  histogramAgg,
  rangeAgg,
  type ValueSource,
} from "./bucket_aggs.ts";
import { dateValueAt, formatDateAt } from "../_index/dates.ts";
import {
  type AggFn,
  type AggInput,
  eachValue,
  eachValueOrMissing,
  fieldInfo,
  fieldOf,
  keyFilter,
  orderSign,
  positiveSetting,
  valueFormat,
} from "./agg_values.ts";
import { decimalFormat } from "../_index/decimal_format.ts";
import { parseTimeZone } from "../_index/time_zones.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import { matchLive } from "../_query/query_exec.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { intersect } from "../_query/doc_set.ts";
import { METRIC_AGGS } from "./metric_aggs.ts";
import { topHitsAgg } from "./top_hits_agg.ts";
import { scopeAggs } from "./scope_aggs.ts";
import { ipRangeAgg } from "./ip_range_agg.ts";
import { compareOrderValues, orderPathValue } from "./buckets_path.ts";
import { compositeAgg } from "./composite_agg.ts";
import { checkCompositePlacement } from "./composite_sources.ts";
import { multiTermsAgg } from "./multi_terms_agg.ts";
import { percentileRanksAgg } from "./percentile_ranks_agg.ts";
import { autoDateHistogramAgg } from "./auto_date_histogram_agg.ts";
import { topMetricsAgg } from "./top_metrics_agg.ts";
import { checkAggTree, readAggDef } from "./agg_tree.ts";
import { rareTermsAgg } from "./rare_terms_agg.ts";
import { significantTermsAgg } from "./significant_terms_agg.ts";
import {
  applyParentPipelines,
  isParentPipeline,
  isSiblingPipeline,
  PIPELINE_TYPES,
  siblingPipeline,
  validatePipelines,
} from "./pipeline_aggs.ts";
import type { JsonObject } from "../_json.ts";

/** A terms bucket key: a bigint for a whole number beyond 2^53. */
type Key = number | string | bigint;

export type { AggInput };

function keyOf(info: FieldInfo | undefined, v: Key, body: JsonObject): JsonObject {
  if (info?.kind === "boolean") return { key: v, key_as_string: v ? "true" : "false" };
  const text = typeof v === "string" ? null : valueFormat(body, info);
  return text ? { key: v, key_as_string: text(Number(v)) } : { key: v };
}

function compareKeys(a: Key, b: Key): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a !== "string" && typeof b !== "string") return a < b ? -1 : a > b ? 1 : 0;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Adds term counts (and, for sub-aggregations, the docs) of a keyword field for one input. */
function countFromPostings(
  input: AggInput,
  field: string,
  counts: Map<Key, number>,
  buckets: Map<Key, Map<AggInput, number[]>> | null,
): void {
  const views = input.ctx.snapshot.views;
  let at = 0;
  for (const v of views) {
    const f = v.segment.fields.get(field);
    const end = v.base + v.segment.maxDoc;
    const marks = new Uint8Array(v.segment.maxDoc);
    let any = false;
    for (; at < input.docs.length && input.docs[at]! < end; at++) {
      marks[input.docs[at]! - v.base] = 1;
      any = true;
    }
    if (!f || !any) continue;
    for (const [term, p] of f.terms) {
      let c = 0;
      let list: number[] | null = null;
      for (const d of p.docs) {
        if (!marks[d]) continue;
        c++;
        if (buckets) (list ??= []).push(d + v.base);
      }
      if (c === 0) continue;
      counts.set(term, (counts.get(term) ?? 0) + c);
      if (buckets && list) {
        let per = buckets.get(term);
        if (!per) buckets.set(term, per = new Map());
        const prev = per.get(input);
        per.set(input, prev ? prev.concat(list) : list);
      }
    }
  }
}

function termsAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: JsonObject | undefined,
  name: string,
): JsonObject {
  const field = fieldOf(body, name, "terms");
  const size = positiveSetting(body, "terms", name, "size", 10);
  positiveSetting(body, "terms", name, "shard_size", size);
  const minDocCount = Number(body.min_doc_count ?? 1);
  const hasMissing = body.missing !== undefined && body.missing !== null;
  const buckets = new Map<Key, Map<AggInput, number[]>>();
  const counts = new Map<Key, number>();
  let info: FieldInfo | undefined;
  const keywordOnly = inputs.every((input) => {
    const f = fieldInfo(input, field);
    info ??= f;
    return !f || f.kind === "keyword";
  }) && !hasMissing;
  if (keywordOnly) {
    // Keyword terms are unique per doc: count each term's postings among the matching docs.
    for (const input of inputs) countFromPostings(input, field, counts, sub ? buckets : null);
  } else {
    let lastDoc = -1;
    let lastInput: AggInput | null = null;
    let lastValue: Key | undefined;
    const each = (fn: (v: Key, doc: number, input: AggInput) => void) =>
      hasMissing ? eachValueOrMissing(inputs, body, field, fn) : eachValue(inputs, field, fn, true);
    const seen = each((v, doc, input) => {
      // A doc's values arrive sorted, so a repeated value is adjacent: count each doc once per key.
      if (doc === lastDoc && input === lastInput && v === lastValue) return;
      lastDoc = doc;
      lastInput = input;
      lastValue = v;
      counts.set(v, (counts.get(v) ?? 0) + 1);
      if (sub) {
        let per = buckets.get(v);
        if (!per) buckets.set(v, per = new Map());
        let list = per.get(input);
        if (!list) per.set(input, list = []);
        list.push(doc);
      }
    });
    info = seen;
  }
  if (minDocCount === 0) {
    // Every term of the field in the targets gets a bucket, empty ones too.
    const everything = inputs.map((i) => ({
      ctx: i.ctx,
      docs: matchLive({ kind: "match_all", boost: 1 }, i.ctx, false).docs,
    }));
    const all = eachValue(everything, field, (v) => {
      if (!counts.has(v)) counts.set(v, 0);
    }, true);
    info ??= all;
  }
  const order = (body.order ?? { _count: "desc" }) as JsonObject | JsonObject[];
  const orders = (Array.isArray(order) ? order : [order]).flatMap((o) => Object.entries(o));
  for (const [, dir] of orders) orderSign("terms", dir);
  const include = keyFilter(body.include);
  const exclude = keyFilter(body.exclude);
  const entries = [...counts].filter(([k, c]) =>
    c >= minDocCount && (!include || include(k)) && !(exclude && exclude(k))
  );
  const subOf = new Map<Key, JsonObject>();
  const subResult = (k: Key): JsonObject => {
    let r = subOf.get(k);
    if (!r) {
      const per = buckets.get(k) ?? new Map<AggInput, number[]>();
      r = runAggregations(
        sub!,
        inputs.map((i) => ({
          ctx: i.ctx,
          docs: Int32Array.from(per.get(i) ?? []),
          scored: i.scored,
        })),
      );
      subOf.set(k, r);
    }
    return r;
  };
  // Ordering by a sub-aggregation (`{"avg_price": "desc"}` or `{"stats.max": "asc"}`) reads its value.
  const metricOf = (k: Key, path: string): number | string => {
    const first = path.split(/[.>[]/)[0]!;
    if (!sub || !Object.hasOwn(sub, first)) {
      throw illegalArgument(
        `Invalid aggregation order path [${path}]. Unknown aggregation [${first}]`,
      );
    }
    return orderPathValue(subResult(k), path);
  };
  entries.sort((a, b) => {
    for (const [k, dir] of orders) {
      const sign = String(dir).toLowerCase() === "asc" ? 1 : -1;
      const c = k === "_key" || k === "_term"
        ? compareKeys(a[0], b[0])
        : k === "_count"
        ? a[1] - b[1]
        : compareOrderValues(metricOf(a[0], k), metricOf(b[0], k));
      if (c) return c * sign;
    }
    return b[1] - a[1] || compareKeys(a[0], b[0]);
  });
  const top = entries.slice(0, size);
  consumeBuckets(top.length);
  let other = 0;
  for (const [, c] of entries.slice(size)) other += c;
  return {
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: other,
    buckets: top.map(([k, c]) => ({
      ...keyOf(info, k, body),
      doc_count: c,
      ...(body.show_term_doc_count_error === true ? { doc_count_error_upper_bound: 0 } : {}),
      ...(sub ? subResult(k) : {}),
    })),
  };
}

function filterAgg(body: JsonObject, inputs: AggInput[], sub: JsonObject | undefined): JsonObject {
  const q = parseQuery(body);
  const narrowed = inputs.map((i) => ({
    ctx: i.ctx,
    scored: i.scored,
    docs: intersect({ docs: i.docs, scores: null }, matchLive(q, i.ctx, false)).docs,
  }));
  let count = 0;
  for (const n of narrowed) count += n.docs.length;
  return { doc_count: count, ...(sub ? runAggregations(sub, narrowed) : {}) };
}

function filtersAgg(body: JsonObject, inputs: AggInput[], sub: JsonObject | undefined): JsonObject {
  const defs = body.filters;
  if (
    defs === undefined || defs === null ||
    (typeof defs === "object" && Object.keys(defs).length === 0)
  ) {
    throw illegalArgument("[filters] cannot be empty.");
  }
  if (typeof defs !== "object") {
    throw parsingError(`[filters] requires a [filters] object or array`);
  }
  const bucket = (query: unknown): JsonObject => filterAgg(query as JsonObject, inputs, sub);
  if (Array.isArray(defs)) {
    consumeBuckets(defs.length);
    return { buckets: defs.map(bucket) };
  }
  const buckets: JsonObject = {};
  for (const [key, query] of Object.entries(defs)) {
    consumeBuckets(1);
    setOwn(buckets, key, bucket(query));
  }
  if (body.other_bucket === true || body.other_bucket_key !== undefined) {
    const others = { bool: { must_not: Object.values(defs) } };
    buckets[String(body.other_bucket_key ?? "_other_")] = bucket(others);
  }
  return { buckets };
}

function missingAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: JsonObject | undefined,
  name: string,
): JsonObject {
  const field = fieldOf(body, name, "missing");
  const narrowed = inputs.map((i) => {
    const has = new Set<number>();
    eachValue([i], field, (_v, d) => has.add(d));
    return { ctx: i.ctx, docs: i.docs.filter((d) => !has.has(d)), scored: i.scored };
  });
  let count = 0;
  for (const n of narrowed) count += n.docs.length;
  return { doc_count: count, ...(sub ? runAggregations(sub, narrowed) : {}) };
}

function numericSource(
  inputs: AggInput[],
  body: JsonObject,
  name: string,
  type: string,
): ValueSource {
  const field = fieldOf(body, name, type);
  const nanos = type === "date_histogram" &&
    inputs.some((i) => i.ctx.fields.byPath.get(field)?.nanos);
  return (fn) =>
    eachValueOrMissing(
      inputs,
      body,
      field,
      (v, doc, input) =>
        fn(nanos ? Math.floor(Number(v) / 1e6) : Number(v), doc, inputs.indexOf(input)),
    );
}

function subRunner(
  inputs: AggInput[],
  sub: JsonObject | undefined,
): ((docs: BucketDocs) => JsonObject) | null {
  if (!sub) return null;
  return (docs) =>
    runAggregations(
      sub,
      inputs.map((i, k) => ({
        ctx: i.ctx,
        docs: Int32Array.from(docs.get(k) ?? []),
        scored: i.scored,
      })),
    );
}

let depth = 0;

const AGGS: Record<string, AggFn> = {
  terms: termsAgg,
  ...METRIC_AGGS,
  filter: (body, inputs, sub) => filterAgg(body, inputs, sub),
  filters: (body, inputs, sub) => filtersAgg(body, inputs, sub),
  top_hits: (body, inputs) => topHitsAgg(body, inputs),
  missing: missingAgg,
  ...scopeAggs((sub, inputs) => runAggregations(sub, inputs), () => depth === 1),
  rare_terms: (body, inputs, sub, name) => rareTermsAgg(body, inputs, subRunner(inputs, sub), name),
  significant_terms: (body, inputs, sub, name) =>
    significantTermsAgg(body, inputs, subRunner(inputs, sub), name),
  percentile_ranks: (body, inputs, _sub, name) => percentileRanksAgg(body, inputs, name),
  auto_date_histogram: (body, inputs, sub, name) =>
    autoDateHistogramAgg(
      body,
      numericSource(inputs, body, name, "date_histogram"),
      subRunner(inputs, sub),
      name,
    ),
  top_metrics: (body, inputs, _sub, name) => topMetricsAgg(body, inputs, name),
  multi_terms: (body, inputs, sub, name) =>
    multiTermsAgg(body, inputs, subRunner(inputs, sub), name),
  composite: (body, inputs, sub, name) => compositeAgg(body, inputs, subRunner(inputs, sub), name),
  ip_range: (body, inputs, sub, name) => ipRangeAgg(body, inputs, subRunner(inputs, sub), name),
  histogram: (body, inputs, sub, name) =>
    histogramAgg(
      body,
      numericSource(inputs, body, name, "histogram"),
      subRunner(inputs, sub),
      name,
    ),
  date_histogram: (body, inputs, sub, name) => {
    const field = fieldOf(body, name, "date_histogram");
    const info = inputs.map((i) => i.ctx.fields.byPath.get(field)).find((f) => f);
    const format = typeof body.format === "string" ? body.format : info?.format;
    const now = inputs[0]?.ctx.now ?? Date.now();
    return dateHistogramAgg(
      body,
      numericSource(inputs, body, name, "date_histogram"),
      subRunner(inputs, sub),
      name,
      (v) => dateValueAt(v, now, false, format, false),
    );
  },
  range: (body, inputs, sub, name) => {
    const format = body.format;
    return rangeAgg(
      body,
      numericSource(inputs, body, name, "range"),
      subRunner(inputs, sub),
      Number,
      typeof format === "string" ? (n) => decimalFormat(n, format) : undefined,
    );
  },
  date_range: (body, inputs, sub, name) => {
    const field = fieldOf(body, name, "date_range");
    const info = inputs.map((i) => i.ctx.fields.byPath.get(field)).find((f) => f);
    const format = typeof body.format === "string" ? body.format : info?.format;
    const now = inputs[0]?.ctx.now ?? Date.now();
    const zone = body.time_zone === undefined ? undefined : parseTimeZone(String(body.time_zone));
    return rangeAgg(
      body,
      numericSource(inputs, body, name, "date_histogram"),
      subRunner(inputs, sub),
      // A number is read in the field's format too (`1000` is 1000 s under `epoch_second`).
      (v) => dateValueAt(typeof v === "number" ? String(v) : v, now, false, format, false, zone),
      (n) => formatDateAt(n, false, format, zone),
    );
  },
};

const KNOWN_TYPES: readonly string[] = [...Object.keys(AGGS), ...PIPELINE_TYPES];

/**
 * Checks an `aggs` tree as Elasticsearch parses and validates the request, before any index is
 * resolved: entry shapes, known types (with suggestions), where pipelines sit. (Where a composite
 * sits is checked when the aggregations run, as the shards check it.)
 */
export function checkAggregations(aggs: JsonObject): void {
  checkAggTree(aggs, KNOWN_TYPES);
  validatePipelines(aggs, null);
}

/**
 * Runs an `aggs` object and returns the `aggregations` response object. Pipelines run after the
 * aggregations they read: siblings once their level is done, parent pipelines on the buckets of
 * the aggregation that declares them.
 */
export function runAggregations(aggs: JsonObject, inputs: AggInput[]): JsonObject {
  if (depth === 0) {
    validatePipelines(aggs, null);
    checkCompositePlacement(aggs, null);
  }
  depth++;
  try {
    return runLevel(aggs, inputs);
  } finally {
    depth--;
  }
}

function runLevel(aggs: JsonObject, inputs: AggInput[]): JsonObject {
  const out: JsonObject = {};
  const siblings: [string, string, JsonObject, unknown][] = [];
  for (const [name, def] of Object.entries(aggs)) {
    const { type, body, sub, meta } = readAggDef(name, def);
    if (isParentPipeline(type)) continue;
    if (isSiblingPipeline(type)) {
      siblings.push([name, type, body, meta]);
      setOwn(out, name, null);
      continue;
    }
    const fn = Object.hasOwn(AGGS, type) ? AGGS[type] : undefined;
    if (!fn) throw parsingError(`Unknown aggregation type [${type}]`);
    let result = fn(body, inputs, sub, name);
    if (sub) result = applyParentPipelines(result, sub);
    if (type === "filters" && body.keyed_bucket_in_array === true) {
      // Named buckets as an array of one-key objects, in bucket order (after any bucket_sort).
      const named = result.buckets as JsonObject;
      result = { ...result, buckets: Object.entries(named).map(([k, b]) => ({ [k]: b })) };
    }
    setOwn(out, name, meta === undefined ? result : { meta, ...result });
  }
  for (const [name, type, body, meta] of siblings) {
    const result = siblingPipeline(type, name, body, out);
    setOwn(out, name, meta === undefined ? result : { meta, ...result });
  }
  return out;
}
