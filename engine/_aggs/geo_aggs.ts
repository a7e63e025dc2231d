// The geo aggregations on `geo_point` fields: `geo_bounds`, `geo_centroid`, `geo_distance`,
// `geohash_grid` and `geotile_grid`. They read the quantised points of `geo_values.ts`, so bounds,
// centroids and distances come out as the real engines compute them from their doc values.

import { EngineError, illegalArgument } from "../_errors.ts";
import {
  arcDistance,
  geohashOf,
  type GeoPoint,
  parseDistance,
  parsePoint,
  planeDistance,
  unitMeters,
} from "../_index/geo.ts";
import { eachDocPoints } from "../_index/geo_values.ts";
import { consumeBuckets } from "../_index/limits.ts";
import type { JsonObject } from "../_json.ts";
import {
  type AggFn,
  type AggInput,
  type AggSpec,
  badField,
  fieldInfo,
  fieldOf,
} from "./agg_values.ts";
import { type BucketDocs, rangeAgg, type SubRunner } from "./bucket_aggs.ts";
import { type GridBox, gridKeeps } from "./grid_bounds.ts";

/** Calls `fn` with each quantised point of `field` in each input's docs. */
function eachPoint(
  inputs: AggInput[],
  field: string,
  type: string,
  fn: (lat: number, lon: number, doc: number, input: number) => void,
): void {
  inputs.forEach((input, k) => {
    const info = fieldInfo(input, field);
    if (!info) return;
    if (info.type !== "geo_point") {
      throw illegalArgument(
        `Field [${field}] of type [${info.type}] is not supported for aggregation [${type}]`,
      );
    }
    eachDocPoints(input.ctx.snapshot.views, input.docs, field, (d, col, from, to) => {
      for (let i = from; i < to; i++) fn(col.lat[i]!, col.lon[i]!, d, k);
    });
  });
}

function geoBounds(body: JsonObject, inputs: AggInput[], name: string): JsonObject {
  let top = -Infinity, bottom = Infinity;
  let posLeft = Infinity, posRight = -Infinity, negLeft = Infinity, negRight = -Infinity;
  eachPoint(inputs, fieldOf(body, name, "geo_bounds"), "geo_bounds", (lat, lon) => {
    if (lat > top) top = lat;
    if (lat < bottom) bottom = lat;
    if (lon >= 0) {
      if (lon < posLeft) posLeft = lon;
      if (lon > posRight) posRight = lon;
    } else {
      if (lon < negLeft) negLeft = lon;
      if (lon > negRight) negRight = lon;
    }
  });
  if (top === -Infinity) return {};
  let left: number, right: number;
  if (posLeft === Infinity) [left, right] = [negLeft, negRight];
  else if (negLeft === Infinity) [left, right] = [posLeft, posRight];
  else if (body.wrap_longitude !== false) {
    // The narrower of the box across the meridian and the box across the antimeridian.
    const unwrapped = posRight - negLeft;
    const wrapped = (180 - posLeft) - (-180 - negRight);
    [left, right] = unwrapped <= wrapped ? [negLeft, posRight] : [posLeft, negRight];
  } else [left, right] = [negLeft, posRight];
  return {
    bounds: { top_left: { lat: top, lon: left }, bottom_right: { lat: bottom, lon: right } },
  };
}

function geoCentroid(body: JsonObject, inputs: AggInput[], name: string): JsonObject {
  let lat = 0, lon = 0, n = 0;
  eachPoint(inputs, fieldOf(body, name, "geo_centroid"), "geo_centroid", (la, lo) => {
    lat += la;
    lon += lo;
    n++;
  });
  return n === 0 ? { count: 0 } : { location: { lat: lat / n, lon: lon / n }, count: n };
}

/**
 * A `geo_distance` aggregation's WKT `origin`, read as the request is parsed: real Elasticsearch
 * 9.5.4 and OpenSearch 3.8.0 refuse a point off the globe there (`x_content_parse_exception`
 * caused by `Invalid WKT format`, a 400 before any shard), while the other forms of the same
 * point pass.
 */
export function checkGeoDistanceOrigin(body: JsonObject): void {
  const origin = body.origin;
  if (typeof origin !== "string" || !/^\s*POINT\b/i.test(origin)) return;
  try {
    parsePoint(origin);
  } catch (e) {
    if (e instanceof EngineError) throw badField("geo_distance", "origin", e.message, e);
    throw e;
  }
}

function geoDistanceAgg(
  body: JsonObject,
  inputs: AggInput[],
  sub: SubRunner | null,
  name: string,
): JsonObject {
  const field = fieldOf(body, name, "geo_distance");
  if (body.origin === undefined) {
    throw illegalArgument(`Aggregation [${name}] must define an [origin].`);
  }
  const origin = parsePoint(body.origin);
  const unit = typeof body.unit === "string" ? body.unit : "m";
  const per = unitMeters(unit);
  if (per === undefined) throw badField("geo_distance", "unit", `No distance unit match [${unit}]`);
  if (!Array.isArray(body.ranges) || body.ranges.length === 0) {
    throw illegalArgument(`No [ranges] specified for the [${name}] aggregation`);
  }
  const plane = String(body.distance_type ?? "arc").toLowerCase() === "plane";
  const measure = plane ? planeDistance : arcDistance;
  const ranges = Array.isArray(body.ranges)
    ? body.ranges.map((r: JsonObject) => ({
      ...r,
      ...(r.from === undefined ? {} : { from: parseDistance(r.from, unit) / per }),
      ...(r.to === undefined ? {} : { to: parseDistance(r.to, unit) / per }),
    }))
    : body.ranges;
  const result = rangeAgg(
    { ...body, ranges },
    (fn) => {
      eachPoint(inputs, field, "geo_distance", (lat, lon, doc, input) => {
        fn(measure(origin.lat, origin.lon, lat, lon) / per, doc, input);
      });
      return undefined;
    },
    sub,
  );
  // A range without `from` starts at 0 (the key still says `*`).
  const fill = (b: JsonObject) => (b.from === undefined ? { from: 0, ...b } : b);
  const buckets = result.buckets;
  return {
    buckets: Array.isArray(buckets) ? buckets.map(fill) : Object.fromEntries(
      Object.entries(buckets as JsonObject).map(([k, b]) => [k, fill(b as JsonObject)]),
    ),
  };
}

/** The Web Mercator tile of a point at `zoom`, as `zoom/x/y`, and its sort number. */
export function tileOf(lat: number, lon: number, zoom: number): { key: string; order: number } {
  const tiles = 2 ** zoom;
  const clamp = (t: number) => Math.max(0, Math.min(tiles - 1, t));
  const x = clamp(Math.floor((lon + 180) / 360 * tiles));
  const s = Math.sin(lat * Math.PI / 180);
  const y = clamp(Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * tiles));
  return { key: `${zoom}/${x}/${y}`, order: x * tiles + y };
}

function gridBounds(v: unknown, type: string): GridBox | null {
  if (v === undefined) return null;
  if (v === null || typeof v !== "object") {
    throw badField(type, "bounds", "bounds must be an object");
  }
  const o = v as JsonObject;
  const tl = o.top_left !== undefined ? parsePoint(o.top_left) : undefined;
  const br = o.bottom_right !== undefined ? parsePoint(o.bottom_right) : undefined;
  const top = tl?.lat ?? Number(o.top);
  const left = tl?.lon ?? Number(o.left);
  const bottom = br?.lat ?? Number(o.bottom);
  const right = br?.lon ?? Number(o.right);
  return { top, left, bottom, right };
}

function gridAgg(
  agg: AggSpec & { readonly type: "geohash_grid" | "geotile_grid" },
  inputs: AggInput[],
  sub: SubRunner | null,
): JsonObject {
  const { type, body, name } = agg;
  const field = fieldOf(body, name, type);
  const max = type === "geohash_grid" ? 12 : 29;
  const precision = body.precision === undefined
    ? (type === "geohash_grid" ? 5 : 7)
    : Number(body.precision);
  if (
    !Number.isInteger(precision) || precision < (type === "geohash_grid" ? 1 : 0) || precision > max
  ) {
    throw badField(
      type,
      "precision",
      type === "geohash_grid"
        ? `Invalid geohash aggregation precision of ${body.precision}. Must be between 1 and 12.`
        : `Invalid geotile_grid precision of ${body.precision}. Must be between 0 and 29.`,
    );
  }
  const size = body.size === undefined ? 10000 : Number(body.size);
  if (!(size > 0)) {
    throw badField(
      type,
      "size",
      `[size] must be greater than 0. Found [${body.size}] in [${name}]`,
    );
  }
  const bounds = gridBounds(body.bounds, type);
  const keeps = bounds === null ? null : gridKeeps({
    bounds,
    type,
    precision,
    opensearch: inputs[0]?.ctx.flavour === "opensearch",
  });
  const cells = new Map<string, { order: number; docs: BucketDocs; count: number; last: string }>();
  eachPoint(inputs, field, type, (lat, lon, doc, input) => {
    if (keeps && !keeps(lat, lon)) return;
    let key: string, order: number;
    if (type === "geohash_grid") {
      key = geohashOf({ lat, lon } as GeoPoint, precision);
      order = 0;
    } else ({ key, order } = tileOf(lat, lon, precision));
    let cell = cells.get(key);
    if (!cell) cells.set(key, cell = { order, docs: new Map(), count: 0, last: "" });
    const at = `${input}:${doc}`;
    if (cell.last === at) return; // a doc counts once per cell
    cell.last = at;
    cell.count++;
    let list = cell.docs.get(input);
    if (!list) cell.docs.set(input, list = []);
    list.push(doc);
  });
  const sorted = [...cells.entries()].sort(([ka, a], [kb, b]) =>
    b.count - a.count ||
    (type === "geotile_grid" ? b.order - a.order : kb < ka ? -1 : kb > ka ? 1 : 0)
  ).slice(0, size);
  consumeBuckets(sorted.length);
  return {
    buckets: sorted.map(([key, c]) => {
      const b: JsonObject = { key, doc_count: c.count };
      return sub ? { ...b, ...sub(c.docs) } : b;
    }),
  };
}

/** The geo aggregations, by type; `sub` runs a bucket's sub-aggregations. */
export function geoAggs(
  subRunner: (inputs: AggInput[], sub: JsonObject | undefined) => SubRunner | null,
): Record<string, AggFn> {
  return {
    geo_bounds: (body, inputs, _sub, name) => geoBounds(body, inputs, name),
    geo_centroid: (body, inputs, _sub, name) => geoCentroid(body, inputs, name),
    geo_distance: (body, inputs, sub, name) =>
      geoDistanceAgg(body, inputs, subRunner(inputs, sub), name),
    geohash_grid: (body, inputs, sub, name) =>
      gridAgg({ type: "geohash_grid", body, name }, inputs, subRunner(inputs, sub)),
    geotile_grid: (body, inputs, sub, name) =>
      gridAgg({ type: "geotile_grid", body, name }, inputs, subRunner(inputs, sub)),
  };
}
