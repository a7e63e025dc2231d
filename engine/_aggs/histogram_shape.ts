// What shapes a histogram's buckets besides its interval: `extended_bounds` (empty buckets out to
// given bounds), `hard_bounds` (no bucket outside them) and `order` (by key, count or a
// sub-aggregation's value).

import { illegalArgument, parsingError } from "../_errors.ts";
import type { JsonObject } from "../_json.ts";
import { type AggSpec, orderSign } from "./agg_values.ts";
import { compareOrderValues, orderPathValue } from "./buckets_path.ts";

/** The bounds of a histogram, as numbers (dates as epoch millis). */
export interface HistogramBounds {
  /** `extended_bounds`: empty buckets are added out to these (with `min_doc_count: 0`). */
  readonly extended: { readonly min?: number; readonly max?: number } | null;
  /** `hard_bounds`: keys outside are dropped, values and empty buckets alike. */
  readonly hard: { readonly min?: number; readonly max?: number } | null;
}

function readBounds(
  agg: AggSpec,
  field: string,
  toNumber: (v: unknown) => number,
): { min?: number; max?: number } | null {
  const { body, type, name } = agg;
  const b = body[field];
  if (b === undefined || b === null) return null;
  if (typeof b !== "object" || Array.isArray(b)) {
    throw parsingError(`[${type}] ${field} must be an object in [${name}]`);
  }
  const o = b as JsonObject;
  const min = o.min === undefined || o.min === null ? undefined : toNumber(o.min);
  const max = o.max === undefined || o.max === null ? undefined : toNumber(o.max);
  if (min !== undefined && max !== undefined && min > max) {
    throw illegalArgument(
      `[${field}.min][${o.min}] cannot be greater than [${field}.max][${o.max}] for histogram aggregation [${name}]`,
    );
  }
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

/** Reads `extended_bounds` and `hard_bounds`, converting each bound with `toNumber`. */
export function histogramBounds(
  body: JsonObject,
  type: string,
  name: string,
  toNumber: (v: unknown) => number,
): HistogramBounds {
  const agg = { body, type, name };
  return {
    extended: readBounds(agg, "extended_bounds", toNumber),
    hard: readBounds(agg, "hard_bounds", toNumber),
  };
}

/** Whether a bucket key lies inside the hard bounds (inclusive, as Elasticsearch checks keys). */
export function withinHard(bounds: HistogramBounds, key: number): boolean {
  const h = bounds.hard;
  return !h || ((h.min === undefined || key >= h.min) && (h.max === undefined || key <= h.max));
}

function orderValue(bucket: JsonObject, path: string): number | string {
  if (path === "_key") return Number(bucket.key);
  if (path === "_count") return Number(bucket.doc_count);
  return orderPathValue(bucket, path);
}

/**
 * Orders rendered histogram buckets by `order` (an object or an array of them); ties go by key
 * ascending, as Elasticsearch breaks them.
 */
export function orderHistogram(list: JsonObject[], order: unknown): JsonObject[] {
  if (order === undefined || order === null) return list;
  const parts = (Array.isArray(order) ? order : [order]).flatMap((o) =>
    o !== null && typeof o === "object" ? Object.entries(o as JsonObject) : []
  );
  const rules = parts.map(([path, dir]) => ({
    path: path === "_term" ? "_key" : path,
    sign: orderSign("histogram", dir),
  }));
  return [...list].sort((a, b) => {
    for (const r of rules) {
      const c = compareOrderValues(orderValue(a, r.path), orderValue(b, r.path));
      if (c) return c * r.sign;
    }
    return Number(a.key) - Number(b.key);
  });
}
