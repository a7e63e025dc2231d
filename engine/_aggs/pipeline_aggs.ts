// Pipeline aggregations: siblings read the buckets of another aggregation at their level
// (avg/max/min/sum/stats/extended_stats/percentiles_bucket, in sibling_pipelines.ts); parents
// rewrite the buckets of the aggregation they sit in (cumulative_sum, derivative, bucket_script,
// bucket_selector, bucket_sort, in parent_pipelines.ts). This file knows every pipeline type and
// checks where each sits.

import { illegalArgument, validationFailed } from "../_errors.ts";
import type { JsonObject } from "../_json.ts";
import { SIBLINGS } from "./sibling_pipelines.ts";

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
