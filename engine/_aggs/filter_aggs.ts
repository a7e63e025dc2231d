// The single-filter bucket aggregations: `filter`, `filters` (named or anonymous buckets, with the
// other bucket) and `missing`.

import { consumeBuckets } from "../_index/limits.ts";
import { setOwn } from "../_index/own.ts";
import { illegalArgument, parsingError } from "../_errors.ts";
import { type AggFn, type AggInput, eachValue, fieldInfo, fieldOf } from "./agg_values.ts";
import { eachDocPoints } from "../_index/geo_values.ts";
import { matchLive } from "../_query/query_exec.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { intersect } from "../_query/doc_set.ts";
import type { SubAggs } from "./scope_aggs.ts";
import type { JsonObject } from "../_json.ts";
import type { QueryNode } from "../_query/query_nodes.ts";
import { rangeBounds } from "../_query/range_query.ts";
import { shardFor, splitRoutingShards } from "../_index/routing.ts";

let rewrites = 0;

/**
 * How many aggregation filters OpenSearch would have rewritten so far (see {@link rewritten}):
 * the runner compares it before and after an aggregation to give that one and every aggregation
 * above it `meta: {}`, as OpenSearch 3.8.0 answers (a rewritten builder is copied with empty
 * metadata, and so is each one holding it).
 */
export function filterRewrites(): number {
  return rewrites;
}

/**
 * Runs `fn` counting rewrites on `count`, one run's own: the steps of a time-sliced run resume
 * its count, so the steps of other searches run between them never add to it.
 */
export function withRewriteCount<T>(count: { n: number }, fn: () => T): T {
  const outer = rewrites;
  rewrites = count.n;
  try {
    return fn();
  } finally {
    count.n = rewrites;
    rewrites = outer;
  }
}

const spans = new WeakMap<object, Map<string, { min: number[]; max: number[] }>>();

/** The smallest and largest value of a numeric field on each shard of a snapshot. */
function shardSpans(ctx: AggInput["ctx"], field: string): { min: number[]; max: number[] } {
  let byField = spans.get(ctx.snapshot);
  if (!byField) spans.set(ctx.snapshot, byField = new Map());
  const known = byField.get(field);
  if (known) return known;
  const shards = ctx.shards ?? 1;
  const routingShards = splitRoutingShards(shards);
  const shardOf = new Int32Array(ctx.snapshot.maxDoc);
  const live: number[] = [];
  for (const v of ctx.snapshot.views) {
    v.segment.docs.forEach((doc, local) => {
      if (v.deleted?.[local] === 1) return;
      shardOf[v.base + local] = shardFor(doc.routing ?? doc.id, shards, routingShards);
      live.push(v.base + local);
    });
  }
  const min = new Array<number>(shards).fill(Infinity);
  const max = new Array<number>(shards).fill(-Infinity);
  eachValue([{ ctx, docs: Int32Array.from(live) }], field, (value, d) => {
    const n = Number(value), s = shardOf[d]!;
    if (n < min[s]!) min[s] = n;
    if (n > max[s]!) max[s] = n;
  });
  const out = { min, max };
  byField.set(field, out);
  return out;
}

/**
 * Whether OpenSearch 3.8.0 rewrites an aggregation's filter on some shard: a `range` on a date
 * field every value of the shard falls in or none does (or an unmapped field), also inside a
 * `bool`. Numeric ranges and ranges some values of each shard meet are kept as they are.
 */
function rewritten(q: QueryNode, input: AggInput): boolean {
  const ctx = input.ctx;
  if (ctx.flavour !== "opensearch") return false;
  if (q.kind === "bool") {
    return [...q.must, ...q.filter, ...q.should, ...q.mustNot].some((c) => rewritten(c, input));
  }
  if (q.kind !== "range") return false;
  const info = ctx.fields.byPath.get(q.field);
  if (!info) return true;
  if (info.kind !== "date") return false;
  const bounds = rangeBounds(q, ctx);
  if (!bounds) return false;
  const lo = Number(bounds.lo), hi = Number(bounds.hi);
  const { min, max } = shardSpans(ctx, q.field);
  return min.some((m, s) => {
    const within = m >= lo && max[s]! <= hi;
    const disjoint = max[s]! < lo || m > hi;
    return within || disjoint;
  });
}

/** Adds to `has` each of the input's docs with a point in the `geo_point` field (its values are points). */
function eachGeoDoc(input: AggInput, field: string, has: Set<number>): void {
  eachDocPoints(input.ctx.snapshot.views, input.docs, field, (d, _col, from, to) => {
    if (to > from) has.add(d);
  });
}

/** `filter`, `filters` and `missing`, running each bucket's sub-aggregations with `run`. */
export function filterAggs(run: SubAggs): Record<string, AggFn> {
  function filterAgg(
    body: JsonObject,
    inputs: AggInput[],
    sub: JsonObject | undefined,
  ): JsonObject {
    const q = parseQuery(body);
    if (inputs.some((i) => rewritten(q, i))) rewrites++;
    const narrowed = inputs.map((i) => ({
      ctx: i.ctx,
      scored: i.scored,
      docs: intersect({ docs: i.docs, scores: null }, matchLive(q, i.ctx, "filter")).docs,
    }));
    let count = 0;
    for (const n of narrowed) count += n.docs.length;
    return { doc_count: count, ...(sub ? run(sub, narrowed) : {}) };
  }

  function filtersAgg(
    body: JsonObject,
    inputs: AggInput[],
    sub: JsonObject | undefined,
  ): JsonObject {
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
    // `other_bucket_key` alone asks for the other bucket; `other_bucket: false` still refuses it.
    const other = body.other_bucket ?? body.other_bucket_key !== undefined;
    const others = () => bucket({ bool: { must_not: Object.values(defs) } });
    if (Array.isArray(defs)) {
      consumeBuckets(defs.length + (other === true ? 1 : 0));
      // Anonymous filters: the other bucket is the last one, without a key.
      return { buckets: other === true ? [...defs.map(bucket), others()] : defs.map(bucket) };
    }
    const buckets: JsonObject = {};
    for (const [key, query] of Object.entries(defs)) {
      consumeBuckets(1);
      setOwn(buckets, key, bucket(query));
    }
    if (other === true) setOwn(buckets, String(body.other_bucket_key ?? "_other_"), others());
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
      if (fieldInfo(i, field)?.type === "geo_point") eachGeoDoc(i, field, has);
      else eachValue([i], field, (_v, d) => has.add(d));
      return { ctx: i.ctx, docs: i.docs.filter((d) => !has.has(d)), scored: i.scored };
    });
    let count = 0;
    for (const n of narrowed) count += n.docs.length;
    return { doc_count: count, ...(sub ? run(sub, narrowed) : {}) };
  }
  return {
    filter: (body, inputs, sub) => filterAgg(body, inputs, sub),
    filters: (body, inputs, sub) => filtersAgg(body, inputs, sub),
    missing: missingAgg,
  };
}
