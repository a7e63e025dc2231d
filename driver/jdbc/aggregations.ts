/**
 * The shapes of a search's `aggregations`, typed loosely enough for every aggregation kind
 * (metrics, buckets, pipelines) and precisely enough to read them without casts.
 *
 * @module
 */

/**
 * One bucket of a bucket aggregation (`terms`, `histogram`, `date_histogram`, `range`,
 * `filters`…); sub-aggregations sit beside `key` and `doc_count` under their names.
 *
 * @example
 * ```ts
 * import type { Bucket } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const bucket: Bucket = { key: "NO", doc_count: 3, avg_pop: { value: 12.5 } };
 * assert.equal((bucket.avg_pop as { value: number }).value, 12.5);
 * ```
 */
export interface Bucket {
  /** The bucket's key (a term, a number, a date as epoch millis, or an object for composite). */
  key?: unknown;
  /** The key as text (dates, formatted numbers, ranges). */
  key_as_string?: string;
  /** How many documents fell in the bucket. */
  doc_count: number;
  /** Sub-aggregations, by name. */
  [subAggregation: string]: unknown;
}

/**
 * The result of one aggregation: `value` for single-value metrics, `values` for percentiles,
 * `buckets` (an array, or an object for keyed buckets) for bucket aggregations, and whatever
 * else the kind sends.
 *
 * @example
 * ```ts
 * import type { Aggregations } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const aggs: Aggregations = {
 *   by_country: { buckets: [{ key: "NO", doc_count: 2 }, { key: "SE", doc_count: 1 }] },
 *   max_pop: { value: 700000 },
 * };
 * const buckets = aggs.by_country?.buckets as { key: string; doc_count: number }[];
 * assert.deepEqual(buckets.map((b) => b.key), ["NO", "SE"]);
 * assert.equal(aggs.max_pop?.value, 700000);
 * ```
 */
export interface Aggregate {
  /** A single-value metric (`avg`, `sum`, `min`, `max`, `cardinality`, `value_count`). */
  value?: number | null;
  /** The value formatted (dates). */
  value_as_string?: string;
  /** Multi-value metrics (`percentiles`), by key. */
  values?: Record<string, number | null>;
  /** The buckets of a bucket aggregation. */
  buckets?: Bucket[] | Record<string, Bucket>;
  /** Single-bucket aggregations (`filter`, `nested`, `global`, `missing`). */
  doc_count?: number;
  /** `terms`: the error bound of the counts. */
  doc_count_error_upper_bound?: number;
  /** `terms`: documents in buckets that were not returned. */
  sum_other_doc_count?: number;
  /** Anything else the aggregation kind sends (stats fields, `hits` of `top_hits`, sub-aggregations of single-bucket kinds). */
  [field: string]: unknown;
}

/**
 * A search's `aggregations`, by name.
 *
 * @example
 * ```ts
 * import type { Aggregations } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const aggs: Aggregations = { n: { value: 3 } };
 * assert.equal(aggs.n?.value, 3);
 * ```
 */
export type Aggregations = Record<string, Aggregate>;
