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
