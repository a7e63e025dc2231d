// The geo queries on `geo_point` fields: `geo_distance`, `geo_bounding_box`, `geo_polygon` and
// `geo_shape` (points, envelopes and polygons). Each is parsed into a `geo` node holding a test on
// a quantised point; the run checks each document's points (`geo_values.ts`). Scores are constant:
// the boost, except `geo_shape`, which the real engines score 0.

import { esError, illegalArgument, parsingError } from "../_errors.ts";
import { isJsonObject, type JsonObject } from "../_json.ts";
import {
  arcDistance,
  decodeLat,
  decodeLon,
  encodeLat,
  encodeLon,
  geohashCell,
  type GeoPoint,
  javaDouble,
  parseDistance,
  parsePoint,
} from "../_index/geo.ts";
import { geoColumn } from "../_index/geo_values.ts";
import { constantHits, type Hits, NO_HITS, type Scoring } from "./doc_set.ts";
import { type ExecContext, perSegment, queryShardError } from "./exec_context.ts";
import type { QueryNode, QueryOf } from "./query_nodes.ts";
import { boostOf, expectObject, type Parser } from "./query_parse_util.ts";

/** A test on one quantised point. */
export type PointTest = (lat: number, lon: number) => boolean;

function validated(p: GeoPoint, method: string): GeoPoint {
  return method === "COERCE" ? normalize(p) : p;
}

/** Whether a latitude and a longitude lie on the globe. */
const onGlobe = (p: GeoPoint) => p.lat >= -90 && p.lat <= 90 && p.lon >= -180 && p.lon <= 180;

/** The shard-level refusal of a point off the globe, as the real engines word it. */
const VALIDATION = "couldn't validate latitude/ longitude values";

/** Wraps a point onto the globe as `validation_method: COERCE` does. */
function normalize(p: GeoPoint): GeoPoint {
  let lat = p.lat;
  let lon = p.lon;
  if (lat > 90 || lat < -90) {
    lat = ((lat + 180) % 360 + 360) % 360 - 180;
    if (lat > 90) {
      lat = 180 - lat;
      lon += 180;
    } else if (lat < -90) {
      lat = -180 - lat;
      lon += 180;
    }
  }
  if (lon > 180 || lon < -180) lon = ((lon + 180) % 360 + 360) % 360 - 180;
  return { lat, lon };
}

function methodOf(o: JsonObject, name: string): string {
  const m = o.validation_method ?? "STRICT";
  const up = String(m).toUpperCase();
  if (up !== "STRICT" && up !== "COERCE" && up !== "IGNORE_MALFORMED") {
    throw parsingError(`[${name}] unknown validation method [${m}]`);
  }
  return up;
}

/** The one field key of a geo query body, others being its options. */
function fieldKey(o: JsonObject, name: string, options: readonly string[]): string {
  let field: string | undefined;
  for (const k of Object.keys(o)) {
    if (k === "boost" || k === "_name" || options.includes(k)) continue;
    if (field !== undefined) {
      throw parsingError(
        `[${name}] query doesn't support multiple fields, found [${field}] and [${k}]`,
      );
    }
    field = k;
  }
  if (field === undefined) throw parsingError(`[${name}] query malformed, no field specified`);
  return field;
}

/** What a geo query matches, as its parser found it. */
interface GeoMatch {
  /** Whether a quantised point matches. */
  readonly test: PointTest;
  /** A point off the globe under `validation_method: STRICT`: the shard failure when it runs. */
  readonly invalid?: { reason: string; cause?: string };
  /** The score of a match when it is not the body's `boost` (`geo_shape` scores 0). */
  readonly score?: number;
}

/** The geo node of query `name` on `field` (its body `o`, for `boost` and `ignore_unmapped`). */
function node(name: string, field: string, o: JsonObject, match: GeoMatch): QueryNode {
  const { test, invalid } = match;
  return {
    kind: "geo",
    query: name,
    field,
    test,
    boost: match.score ?? boostOf(o),
    ignoreUnmapped: o.ignore_unmapped === true,
    ...(invalid ? { invalid } : {}),
  };
}

const DISTANCE_OPTIONS = [
  "distance",
  "distance_type",
  "validation_method",
  "ignore_unmapped",
  "unit",
];

function parseGeoDistance(b: unknown, name: string): QueryNode {
  const o = expectObject(b, name);
  const field = fieldKey(o, name, DISTANCE_OPTIONS);
  if (o.distance === undefined) {
    throw parsingError(`geo_distance requires 'distance' to be specified`);
  }
  const type = String(o.distance_type ?? "arc").toLowerCase();
  if (type !== "arc" && type !== "plane") {
    throw parsingError(`[${name}] failed to parse field [distance_type]`);
  }
  const meters = parseDistance(o.distance, typeof o.unit === "string" ? o.unit : "m");
  if (!(meters > 0)) throw parsingError(`geo_distance requires 'distance' to be a positive number`);
  const method = methodOf(o, name);
  const raw = parsePoint(o[field]);
  const c = validated(raw, method);
  let invalid: { reason: string; cause: string } | undefined;
  if (method === "STRICT" && !onGlobe(raw)) {
    const [what, v] = raw.lat >= -90 && raw.lat <= 90
      ? ["longitude", raw.lon]
      : ["latitude", raw.lat];
    invalid = {
      reason: VALIDATION,
      cause: `Validation Failed: 1: [${name}] center point ${what} is invalid: ${javaDouble(v)};`,
    };
  }
  return node(name, field, o, {
    test: (lat, lon) => arcDistance(c.lat, c.lon, lat, lon) <= meters,
    invalid,
  });
}

/** A box from its corners in any form (`top_left`/`bottom_right`, the four sides, `wkt`). */
function parseBox(
  v: unknown,
  name: string,
): { top: number; left: number; bottom: number; right: number } {
  if (!isJsonObject(v)) {
    throw parsingError(
      `[${name}] failed to parse bounding box. Expected start object but found [${typeof v}]`,
    );
  }
  let top = NaN, left = NaN, bottom = NaN, right = NaN;
  const corner = (k: string) => {
    const raw = v[k];
    if (typeof raw === "string" && !raw.includes(",") && !/^\s*POINT/i.test(raw)) {
      const cell = geohashCell(raw);
      return { cell };
    }
    return { point: parsePoint(raw) };
  };
  for (const k of Object.keys(v)) {
    switch (k) {
      case "top":
        top = Number(v[k]);
        break;
      case "left":
        left = Number(v[k]);
        break;
      case "bottom":
        bottom = Number(v[k]);
        break;
      case "right":
        right = Number(v[k]);
        break;
      case "top_left": {
        const c = corner(k);
        top = c.cell ? c.cell.north : c.point!.lat;
        left = c.cell ? c.cell.west : c.point!.lon;
        break;
      }
      case "bottom_right": {
        const c = corner(k);
        bottom = c.cell ? c.cell.south : c.point!.lat;
        right = c.cell ? c.cell.east : c.point!.lon;
        break;
      }
      case "top_right": {
        const c = corner(k);
        top = c.cell ? c.cell.north : c.point!.lat;
        right = c.cell ? c.cell.east : c.point!.lon;
        break;
      }
      case "bottom_left": {
        const c = corner(k);
        bottom = c.cell ? c.cell.south : c.point!.lat;
        left = c.cell ? c.cell.west : c.point!.lon;
        break;
      }
      case "wkt": {
        const m =
          /^\s*BBOX\s*\(\s*([^,\s]+)\s*,\s*([^,\s]+)\s*,\s*([^,\s]+)\s*,\s*([^,\s]+)\s*\)\s*$/i
            .exec(String(v[k]));
        if (!m) throw parsingError(`[${name}] failed to parse WKT bounding box`);
        [left, right, top, bottom] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
        break;
      }
      default:
        throw parsingError(`failed to parse bounding box. unexpected field [${k}]`);
    }
  }
  if ([top, left, bottom, right].some(Number.isNaN)) {
    const sides: [string, number][] = [
      ["top latitude", top],
      ["left longitude", left],
      ["bottom latitude", bottom],
      ["right longitude", right],
    ];
    throw illegalArgument(`${sides.find(([, v]) => Number.isNaN(v))![0]} is invalid: NaN`);
  }
  return { top, left, bottom, right };
}

/** The test of a box on quantised points, as Lucene's box query encodes its edges. */
export function boxTest(top: number, left: number, bottom: number, right: number): PointTest {
  const minLat = ceilLat(bottom), maxLat = encodeLat(top);
  const minLon = ceilLon(left), maxLon = encodeLon(right);
  const crosses = left > right;
  return (lat, lon) => {
    const la = encodeLat(lat), lo = encodeLon(lon);
    if (la < minLat || la > maxLat) return false;
    return crosses ? lo >= minLon || lo <= maxLon : lo >= minLon && lo <= maxLon;
  };
}

function ceilLat(lat: number): number {
  const e = encodeLat(lat);
  return decodeLat(e) < lat ? e + 1 : e;
}

function ceilLon(lon: number): number {
  const e = encodeLon(lon);
  return decodeLon(e) < lon ? e + 1 : e;
}

const BOX_OPTIONS = ["validation_method", "ignore_unmapped", "type"];

function parseGeoBoundingBox(b: unknown, name: string): QueryNode {
  const o = expectObject(b, name);
  const field = fieldKey(o, name, BOX_OPTIONS);
  const box = parseBox(o[field], name);
  const method = methodOf(o, name);
  if (box.top < box.bottom) {
    throw illegalArgument(
      `top is below bottom corner: ${javaDouble(box.top)} vs. ${javaDouble(box.bottom)}`,
    );
  }
  let invalid: { reason: string; cause: string } | undefined;
  if (method === "STRICT") {
    const sides = [
      ["top latitude", box.top, 90],
      ["left longitude", box.left, 180],
      ["bottom latitude", box.bottom, 90],
      ["right longitude", box.right, 180],
    ] as const;
    const bad = sides.find(([, v, max]) => v > max || v < -max);
    if (bad) {
      invalid = {
        reason: VALIDATION,
        cause: `Validation Failed: 1: [${name}] ${bad[0]} is invalid: ${javaDouble(bad[1])};`,
      };
    }
  }
  return node(name, field, o, { test: boxTest(box.top, box.left, box.bottom, box.right), invalid });
}

/** Whether a point lies inside a ring of [lon, lat] vertices (even-odd rule). */
function inRing(ring: readonly GeoPoint[], lat: number, lon: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!, b = ring[j]!;
    if ((a.lat > lat) !== (b.lat > lat)) {
      const x = a.lon + (lat - a.lat) / (b.lat - a.lat) * (b.lon - a.lon);
      if (lon < x) inside = !inside;
    }
  }
  return inside;
}

function parseGeoPolygon(b: unknown, name: string): QueryNode {
  const o = expectObject(b, name);
  const field = fieldKey(o, name, ["validation_method", "ignore_unmapped"]);
  const spec = o[field];
  if (!isJsonObject(spec) || !Array.isArray(spec.points)) {
    throw parsingError(`[${name}] no points defined for geo_polygon query`);
  }
  const method = methodOf(o, name);
  const raw = spec.points.map((p) => parsePoint(p));
  const ring = raw.map((p) => validated(p, method));
  if (ring.length < 3) throw parsingError(`[${name}] too few points defined for geo_polygon query`);
  const off = method === "STRICT" ? raw.find((p) => !onGlobe(p)) : undefined;
  const invalid = off && {
    reason: off.lat >= -90 && off.lat <= 90
      ? `illegal longitude value [${javaDouble(off.lon)}] for [${name}]`
      : `illegal latitude value [${javaDouble(off.lat)}] for [${name}]`,
  };
  return node(name, field, o, { test: (lat, lon) => inRing(ring, lat, lon), invalid });
}

/** A `geo_shape` query's shape as a test on points (point, envelope, polygon, multipoint). */
function shapeTest(shape: unknown, name: string): PointTest {
  if (!isJsonObject(shape)) throw parsingError(`[${name}] shape must be an object`);
  const type = String(shape.type ?? "").toLowerCase();
  const coords = shape.coordinates;
  const pt = (c: unknown) => parsePoint(c);
  switch (type) {
    case "envelope": {
      if (!Array.isArray(coords) || coords.length !== 2) {
        throw parsingError(`[${name}] an envelope needs two corners`);
      }
      const tl = pt(coords[0]), br = pt(coords[1]);
      return boxTest(tl.lat, tl.lon, br.lat, br.lon);
    }
    case "polygon": {
      if (!Array.isArray(coords) || !Array.isArray(coords[0])) {
        throw parsingError(`[${name}] a polygon needs rings`);
      }
      const rings = (coords as unknown[][]).map((r) => r.map(pt));
      return (lat, lon) =>
        inRing(rings[0]!, lat, lon) && !rings.slice(1).some((h) => inRing(h, lat, lon));
    }
    case "point": {
      const p = pt(coords);
      const la = encodeLat(p.lat), lo = encodeLon(p.lon);
      return (lat, lon) => encodeLat(lat) === la && encodeLon(lon) === lo;
    }
    default:
      throw parsingError(`[${name}] shape type [${shape.type}] is not supported on this engine`);
  }
}

function parseGeoShape(b: unknown, name: string): QueryNode {
  const o = expectObject(b, name);
  const field = fieldKey(o, name, ["ignore_unmapped"]);
  const spec = o[field];
  if (!isJsonObject(spec)) throw parsingError(`[${name}] query malformed`);
  const inside = shapeTest(spec.shape, name);
  const relation = String(spec.relation ?? "intersects").toLowerCase();
  if (relation !== "intersects" && relation !== "within" && relation !== "disjoint") {
    throw parsingError(`[${name}] relation [${relation}] is not supported on a geo_point field`);
  }
  const n = node(name, field, o, { test: inside, score: 0 });
  if (relation === "intersects") return n;
  // Elasticsearch 9.5.4 on a doc of several points: `within` needs every one inside the shape,
  // `disjoint` none of them.
  const points = relation === "within" ? "all" : "none";
  return { ...n, refusedOnOpenSearch: relation, points } as QueryNode;
}

/** The geo query parsers, by query name (`geo_polygon` on both flavours: both still have it). */
export const GEO_PARSERS: Record<string, Parser> = {
  geo_distance: parseGeoDistance,
  geo_bounding_box: parseGeoBoundingBox,
  geo_polygon: parseGeoPolygon,
  geo_shape: parseGeoShape,
};

/** Runs a geo node: the docs with at least one point passing its test. */
export function runGeo(q: QueryOf<"geo">, ctx: ExecContext, scoring: Scoring): Hits {
  if (q.invalid) {
    const cause = q.invalid.cause;
    throw queryShardError(
      ctx,
      q.invalid.reason,
      cause === undefined ? undefined : esError("query_validation_exception", cause),
    );
  }
  const info = ctx.fields.byPath.get(q.field);
  if (!info || info.type !== "geo_point") {
    if (q.ignoreUnmapped) return NO_HITS;
    if (!info) throw queryShardError(ctx, `failed to find geo field [${q.field}]`);
    throw queryShardError(
      ctx,
      `Field [${q.field}] is of unsupported type [${info.type}] for [${q.query}] query`,
    );
  }
  if (q.refusedOnOpenSearch && ctx.flavour === "opensearch") {
    throw queryShardError(
      ctx,
      `${q.refusedOnOpenSearch.toUpperCase()} query relation not supported for Field [${q.field}].`,
    );
  }
  return perSegment(ctx, (v) => {
    const col = geoColumn(v.segment, q.field);
    const docs: number[] = [];
    for (let d = 0; d < v.segment.maxDoc; d++) {
      const start = col.start[d]!, end = col.start[d + 1]!;
      if (q.points === undefined) {
        for (let i = start; i < end; i++) {
          if (q.test(col.lat[i]!, col.lon[i]!)) {
            docs.push(d);
            break;
          }
        }
        continue;
      }
      if (start === end) continue;
      const want = q.points === "all";
      let i = start;
      while (i < end && q.test(col.lat[i]!, col.lon[i]!) === want) i++;
      if (i === end) docs.push(d);
    }
    return constantHits(Int32Array.from(docs), q.boost, scoring);
  });
}
