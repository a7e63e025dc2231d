// The `_geo_distance` sort: each doc's distance from one or more points, in a unit, picked among
// its points by `mode`; docs without a point sort as Infinity (last ascending, first descending),
// as the real engines do.

import { esError, illegalArgument, parsingError } from "../_errors.ts";
import type { FieldMap } from "../_index/field_map.ts";
import {
  arcDistance,
  type GeoPoint,
  javaDouble,
  parsePoint,
  planeDistance,
  pointValues,
  unitMeters,
} from "../_index/geo.ts";
import { geoColumn } from "../_index/geo_values.ts";
import type { ShardSnapshot } from "../_index/shard_snapshot.ts";

/** What a `_geo_distance` sort measures. */
export interface GeoSortSpec {
  /** The geo_point field. */
  readonly field: string;
  /** The points measured from. */
  readonly points: readonly GeoPoint[];
  /** Metres per unit of the sort values. */
  readonly per: number;
  /** `plane` rather than `arc`. */
  readonly plane: boolean;
  /** An unmapped field sorts every doc as Infinity instead of failing. */
  readonly ignoreUnmapped: boolean;
  /** A point off the globe (refused when the sort is built, unless `IGNORE_MALFORMED`). */
  readonly invalid?: string;
}

const OPTIONS = new Set([
  "order",
  "unit",
  "distance_type",
  "mode",
  "ignore_unmapped",
  "validation_method",
  "nested",
]);

/**
 * Parses the body of a `_geo_distance` sort; `order` and `mode` stay with the caller's key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const spec = parseGeoSort({ loc: "50,5", unit: "km" });
 * assert.equal(spec.field, "loc");
 * assert.equal(spec.per, 1000);
 * ```
 */
export function parseGeoSort(body: Record<string, unknown>): GeoSortSpec {
  let field: string | undefined;
  let raw: unknown;
  for (const [k, v] of Object.entries(body)) {
    if (OPTIONS.has(k)) continue;
    if (field !== undefined) {
      throw parsingError(
        `[_geo_distance] does not support multiple fields, found [${field}] and [${k}]`,
      );
    }
    field = k;
    raw = v;
  }
  if (field === undefined) throw parsingError(`[_geo_distance] requires a field with points`);
  const unit = String(body.unit ?? "m");
  const per = unitMeters(unit);
  if (per === undefined) throw illegalArgument(`No distance unit match [${unit}]`);
  const type = String(body.distance_type ?? "arc").toLowerCase();
  if (type !== "arc" && type !== "plane") {
    throw illegalArgument(`No geo distance for [${body.distance_type}]`);
  }
  const points = pointValues(raw).map(parsePoint);
  if (points.length === 0) throw parsingError(`[_geo_distance] no points given`);
  const method = String(body.validation_method ?? "STRICT").toUpperCase();
  let invalid: string | undefined;
  for (const p of method === "IGNORE_MALFORMED" ? [] : points) {
    const off: [string, number] | undefined = !(p.lat >= -90 && p.lat <= 90)
      ? ["latitude", p.lat]
      : !(p.lon >= -180 && p.lon <= 180)
      ? ["longitude", p.lon]
      : undefined;
    if (!off) continue;
    invalid = `illegal ${off[0]} value [${
      javaDouble(off[1])
    }] for [GeoDistanceSort] for field [${field}].`;
    break;
  }
  return {
    field,
    points,
    per,
    plane: type === "plane",
    ignoreUnmapped: body.ignore_unmapped === true,
    ...(invalid ? { invalid } : {}),
  };
}

/**
 * A reader of `_geo_distance` sort values by global ordinal, in the documents and fields of
 * `on`; `mode` and `order` are the sort key's.
 */
export function geoSortReader(
  spec: GeoSortSpec,
  mode: string,
  order: 1 | -1,
  on: { readonly snapshot: ShardSnapshot; readonly fields: FieldMap },
): (global: number) => number {
  const { snapshot, fields } = on;
  const info = fields.byPath.get(spec.field);
  if (spec.invalid) throw esError("parse_exception", spec.invalid);
  if (!info || info.type !== "geo_point") {
    if (!info && spec.ignoreUnmapped) return () => Infinity;
    throw illegalArgument(`failed to find mapper for [${spec.field}] for geo distance based sort`);
  }
  // The real engines hand the common case (one point, metres, ascending, min) to Lucene's own
  // distance sort, which measures the arc whatever `distance_type` says.
  const lucene = spec.points.length === 1 && spec.per === 1 && order === 1 && mode === "min";
  const measure = spec.plane && !lucene ? planeDistance : arcDistance;
  return (global) => {
    const v = snapshot.viewOf(global);
    const col = geoColumn(v.segment, spec.field);
    const local = global - v.base;
    const ds: number[] = [];
    for (let i = col.start[local]!; i < col.start[local + 1]!; i++) {
      for (const p of spec.points) {
        ds.push(measure(p.lat, p.lon, col.lat[i]!, col.lon[i]!) / spec.per);
      }
    }
    if (ds.length === 0) return Infinity;
    ds.sort((a, b) => a - b);
    switch (mode) {
      case "max":
        return ds[ds.length - 1]!;
      case "sum":
        return ds.reduce((a, b) => a + b, 0);
      case "avg":
        return ds.reduce((a, b) => a + b, 0) / ds.length;
      case "median": {
        const mid = ds.length >> 1;
        return ds.length % 2 ? ds[mid]! : (ds[mid - 1]! + ds[mid]!) / 2;
      }
      default:
        return ds[0]!;
    }
  };
}
