// The `_geo_distance` sort: each doc's distance from one or more points, in a unit, picked among
// its points by `mode`; docs without a point sort as Infinity (last ascending, first descending),
// as the real engines do.

import { illegalArgument, parsingError } from "../_errors.ts";
import type { FieldMap } from "../_index/field_map.ts";
import {
  arcDistance,
  type GeoPoint,
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
  return {
    field,
    points,
    per,
    plane: type === "plane",
    ignoreUnmapped: body.ignore_unmapped === true,
  };
}

/** A reader of `_geo_distance` sort values by global ordinal. */
export function geoSortReader(
  spec: GeoSortSpec,
  mode: string,
  snapshot: ShardSnapshot,
  fields: FieldMap,
): (global: number) => number {
  const info = fields.byPath.get(spec.field);
  if (!info || info.type !== "geo_point") {
    if (!info && spec.ignoreUnmapped) return () => Infinity;
    throw illegalArgument(`failed to find mapper for [${spec.field}] for geo distance based sort`);
  }
  const measure = spec.plane ? planeDistance : arcDistance;
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
