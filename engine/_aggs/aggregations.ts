// Aggregations over the matching docs: the table from type name to implementation, the wiring of
// the bucket and metric kinds (terms in terms_agg.ts, filter(s) and missing in filter_aggs.ts), and
// the run of one level with its pipelines.

import { setOwn } from "../_index/own.ts";
import { type BucketLimit, withBucketBudget } from "../_index/limits.ts";
import { esError, illegalArgument, parsingError } from "../_errors.ts";
import {
  type BucketDocs,
  dateHistogramAgg,
  histogramAgg,
  rangeAgg,
  type ValueSource,
} from "./bucket_aggs.ts";
import { dateValueAt, formatDateAt } from "../_index/dates.ts";
import { fitsFormat } from "../_index/date_format.ts";
import { type AggFn, type AggInput, eachValueOrMissing, fieldOf } from "./agg_values.ts";
import { decimalFormat } from "../_index/decimal_format.ts";
import { parseTimeZone } from "../_index/time_zones.ts";
import { METRIC_AGGS } from "./metric_aggs.ts";
import { topHitsAgg } from "./top_hits_agg.ts";
import { checkGeoDistanceOrigin, geoAggs } from "./geo_aggs.ts";
import { scopeAggs } from "./scope_aggs.ts";
import { type AggSteps, termsAgg, termsAggSteps } from "./terms_agg.ts";
import { filterAggs, filterRewrites, withRewriteCount } from "./filter_aggs.ts";
import { ipRangeAgg } from "./ip_range_agg.ts";
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
  isParentPipeline,
  isSiblingPipeline,
  PIPELINE_TYPES,
  validatePipelines,
} from "./pipeline_aggs.ts";
import { siblingPipeline } from "./sibling_pipelines.ts";
import { applyParentPipelines } from "./parent_pipelines.ts";
import type { JsonObject } from "../_json.ts";

export type { AggInput };

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

const subAggs = (sub: JsonObject, inputs: AggInput[]) => runAggregations(sub, inputs);

/** The aggregations that run in steps of their own (the others run in one step). */
const STEPPED: Record<string, AggSteps> = { terms: termsAggSteps(subAggs) };

const AGGS: Record<string, AggFn> = {
  terms: termsAgg(subAggs),
  ...METRIC_AGGS,
  ...geoAggs(subRunner),
  ...filterAggs((sub, inputs) => runAggregations(sub, inputs)),
  top_hits: (body, inputs, _sub, name) => topHitsAgg(body, inputs, name),
  ...scopeAggs((sub, inputs) => runAggregations(sub, inputs), () => depth === 1),
  rare_terms: (body, inputs, sub, name) => rareTermsAgg(body, inputs, subRunner(inputs, sub), name),
  significant_terms: (body, inputs, sub, name) =>
    significantTermsAgg(body, inputs, subRunner(inputs, sub), { name, topLevel: depth === 1 }),
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
      { name, toNumber: (v) => dateValueAt(v, now, { format }) },
    );
  },
  range: (body, inputs, sub, name) => {
    const format = body.format;
    return rangeAgg(
      body,
      numericSource(inputs, body, name, "range"),
      subRunner(inputs, sub),
      { format: typeof format === "string" ? (n) => decimalFormat(n, format) : undefined },
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
      {
        // A number is read in the field's format too (`1000` is 1000 s under `epoch_second`).
        toNumber: (v) => {
          if (typeof body.format === "string") checkBound(v, body.format);
          return dateValueAt(typeof v === "number" ? String(v) : v, now, { format, zone });
        },
        format: (n) => formatDateAt(n, { format, zone }),
      },
    );
  },
};

/**
 * A `date_range` bound given as text is read with the aggregation's own `format`, strictly, as
 * the real engines read it: a date (before any `||` math) that does not fit a format made of
 * exact formats fails on every shard (`parse_exception`).
 */
function checkBound(v: unknown, format: string): void {
  if (typeof v !== "string" || v.startsWith("now")) return;
  const date = v.split("||")[0]!;
  if (fitsFormat(date, format) !== false) return;
  const why = `failed to parse date field [${date}] with format [${format}]`;
  throw esError("parse_exception", `${why}: [${why}]`, {}, illegalArgument(why));
}

const KNOWN_TYPES: readonly string[] = [...Object.keys(AGGS), ...PIPELINE_TYPES];

/**
 * Checks an `aggs` tree as Elasticsearch parses and validates the request, before any index is
 * resolved: entry shapes, known types (with suggestions), where pipelines sit. (Where a composite
 * sits is checked when the aggregations run, as the shards check it.)
 */
export function checkAggregations(aggs: JsonObject): void {
  checkAggTree(aggs, KNOWN_TYPES);
  checkBodies(aggs);
  validatePipelines(aggs, null);
}

/** The parts of aggregation bodies the real engines read while parsing the request. */
function checkBodies(aggs: JsonObject): void {
  for (const [name, def] of Object.entries(aggs)) {
    const { type, body, sub } = readAggDef(name, def);
    if (type === "geo_distance") checkGeoDistanceOrigin(body);
    if (sub) checkBodies(sub);
  }
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
    const steps = levelSteps(aggs, inputs);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  } finally {
    depth--;
  }
}

/**
 * {@link runAggregations} in steps, with one budget of `limit` over them all: it yields where
 * a time-sliced search may pause, between the top-level aggregations and inside the long loops
 * of those that run in steps (`terms`). Each step runs as a part of one whole run would (the same
 * depth, the same bucket budget), so the answer is the one {@link runAggregations} gives.
 */
export function* aggregationSteps(
  aggs: JsonObject,
  inputs: AggInput[],
  limit: BucketLimit,
): Generator<void, JsonObject, void> {
  const budget = { ...limit, used: 0 };
  const rewrites = { n: 0 };
  const steps = (function* () {
    validatePipelines(aggs, null);
    checkCompositePlacement(aggs, null);
    return yield* levelSteps(aggs, inputs);
  })();
  for (;;) {
    // Other searches run between the steps: the depth is this run's only inside a step.
    const r = withBucketBudget(budget, () =>
      withRewriteCount(rewrites, () => {
        depth++;
        try {
          return steps.next();
        } finally {
          depth--;
        }
      }));
    if (r.done) return r.value;
    yield;
  }
}

function* levelSteps(aggs: JsonObject, inputs: AggInput[]): Generator<void, JsonObject, void> {
  const out: JsonObject = {};
  let ran = false;
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
    if (ran) yield;
    ran = true;
    const stepped = Object.hasOwn(STEPPED, type) ? STEPPED[type] : undefined;
    const before = filterRewrites();
    let result = stepped ? yield* stepped(body, inputs, sub, name) : fn(body, inputs, sub, name);
    if (filterRewrites() !== before && meta === undefined) result = { meta: {}, ...result };
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
