// Geo points as the real engines read, store and measure them: the forms a `geo_point` value may
// take, Lucene's 32-bit quantisation of latitude and longitude (what doc values hold, so what
// bounds, centroids, distances and sorts see), geohashes, distance units and the two distances.

import { type EngineError, esError, illegalArgument } from "../_errors.ts";
import { javaDouble } from "./java_numbers.ts";

/** A point in degrees. */
export interface GeoPoint {
  /** Latitude, -90..90. */
  readonly lat: number;
  /** Longitude, -180..180. */
  readonly lon: number;
}

const LAT_DECODE = 180 / 2 ** 32;
const LON_DECODE = 360 / 2 ** 32;

/**
 * The latitude as a 32-bit integer (Lucene's encoding: floor of lat / (180 / 2^32); 90 itself is
 * the largest integer).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(encodeLat(0), 0);
 * assert.equal(encodeLat(90), 2 ** 31 - 1);
 * ```
 */
export function encodeLat(lat: number): number {
  return Math.min(2 ** 31 - 1, Math.floor(lat / LAT_DECODE));
}

/**
 * The longitude as a 32-bit integer (floor of lon / (360 / 2^32); 180 is the largest integer).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(encodeLon(-180), -(2 ** 31));
 * ```
 */
export function encodeLon(lon: number): number {
  return Math.min(2 ** 31 - 1, Math.floor(lon / LON_DECODE));
}

/**
 * The point as doc values hold it: each coordinate rounded down to its 32-bit grid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // Checked against Elasticsearch 9.5.4's geo_bounds of a point at 52.52, -74.
 * assert.deepEqual(quantize({ lat: 52.52, lon: -74 }), {
 *   lat: 52.51999998930842,
 *   lon: -74.00000003166497,
 * });
 * ```
 */
export function quantize(p: GeoPoint): GeoPoint {
  return { lat: encodeLat(p.lat) * LAT_DECODE, lon: encodeLon(p.lon) * LON_DECODE };
}

/** Decodes an encoded latitude. */
export function decodeLat(encoded: number): number {
  return encoded * LAT_DECODE;
}

/** Decodes an encoded longitude. */
export function decodeLon(encoded: number): number {
  return encoded * LON_DECODE;
}

const BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";

/**
 * The cell of a geohash: its south-west and north-east corners.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const cell = geohashCell("u173zq");
 * assert.ok(cell.south < 52.372 && cell.north > 52.372);
 * ```
 */
export function geohashCell(
  hash: string,
): { south: number; west: number; north: number; east: number } {
  let south = -90, north = 90, west = -180, east = 180;
  let even = true;
  for (const ch of hash) {
    const v = BASE32.indexOf(ch);
    if (v < 0) {
      throw esError(
        "parse_exception",
        `unsupported symbol [${ch}] in geohash [${hash}]`,
        {},
        illegalArgument(`unsupported symbol [${ch}] in geohash [${hash}]`),
      );
    }
    for (let bit = 4; bit >= 0; bit--) {
      const on = (v >> bit) & 1;
      if (even) {
        const mid = (west + east) / 2;
        if (on) west = mid;
        else east = mid;
      } else {
        const mid = (south + north) / 2;
        if (on) south = mid;
        else north = mid;
      }
      even = !even;
    }
  }
  return { south, west, north, east };
}

/**
 * The point a geohash stands for: its cell's south-west corner, as the real engines read it
 * (Elasticsearch 9.5.4 returns `u173zq` as 52.371826171875, 4.888916015625).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(geohashPoint("u173zq"), { lat: 52.371826171875, lon: 4.888916015625 });
 * ```
 */
export function geohashPoint(hash: string): GeoPoint {
  const c = geohashCell(hash);
  return { lat: c.south, lon: c.west };
}

/**
 * The geohash of a point at `precision` characters (1..12).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(geohashOf({ lat: 52.37, lon: 4.89 }, 5), "u173z");
 * ```
 */
export function geohashOf(p: GeoPoint, precision: number): string {
  let south = -90, north = 90, west = -180, east = 180;
  let even = true;
  let out = "";
  for (let i = 0; i < precision; i++) {
    let v = 0;
    for (let bit = 4; bit >= 0; bit--) {
      if (even) {
        const mid = (west + east) / 2;
        if (p.lon >= mid) {
          v |= 1 << bit;
          west = mid;
        } else east = mid;
      } else {
        const mid = (south + north) / 2;
        if (p.lat >= mid) {
          v |= 1 << bit;
          south = mid;
        } else north = mid;
      }
      even = !even;
    }
    out += BASE32[v];
  }
  return out;
}

function geoParse(reason: string): EngineError {
  return esError("parse_exception", reason);
}

function coordinate(v: unknown, name: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  throw geoParse(`[${name}] must be a number`);
}

const WKT_POINT = /^\s*POINT\s*\(\s*(\S+)\s+(\S+)(?:\s+\S+)?\s*\)\s*$/i;

/**
 * One geo point in any form the real engines accept: `{lat, lon}`, GeoJSON `{type: "Point",
 * coordinates}`, `"lat,lon"`, a WKT `POINT (lon lat)`, a geohash, or `[lon, lat]` (a third
 * coordinate, z, is ignored). Malformed values throw `parse_exception`; unchecked ranges are the
 * caller's (see `checkPoint`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parsePoint("48.85,2.35"), { lat: 48.85, lon: 2.35 });
 * assert.deepEqual(parsePoint([13.4, 52.52]), { lat: 52.52, lon: 13.4 });
 * assert.deepEqual(parsePoint("POINT (151.2 -33.86)"), { lat: -33.86, lon: 151.2 });
 * ```
 */
export function parsePoint(v: unknown): GeoPoint {
  if (Array.isArray(v)) {
    if (v.length < 2) throw geoParse("[geo_point] field type does not accept < 2 dimensions");
    if (v.length > 3) throw geoParse("[geo_point] field type does not accept > 3 dimensions");
    if (!v.every((x) => typeof x === "number")) {
      throw geoParse("numeric value expected");
    }
    return { lat: v[1] as number, lon: v[0] as number };
  }
  if (typeof v === "string") {
    const wkt = WKT_POINT.exec(v);
    if (wkt) {
      const p = { lat: coordinate(wkt[2], "lat"), lon: coordinate(wkt[1], "lon") };
      // WKT is checked as it is read (Elasticsearch 9.5.4 and OpenSearch 3.8.0 alike).
      const bad = !(p.lat >= -90 && p.lat <= 90)
        ? `invalid latitude ${javaDouble(p.lat)}; must be between -90.0 and 90.0`
        : !(p.lon >= -180 && p.lon <= 180)
        ? `invalid longitude ${javaDouble(p.lon)}; must be between -180.0 and 180.0`
        : undefined;
      if (bad) throw esError("parse_exception", "Invalid WKT format", {}, illegalArgument(bad));
      return p;
    }
    if (v.includes(",")) {
      const parts = v.split(",");
      if (parts.length > 3) {
        throw geoParse(
          `failed to parse [${v}], expected 2 or 3 coordinates but found: [${parts.length}]`,
        );
      }
      return { lat: coordinate(parts[0]!.trim(), "lat"), lon: coordinate(parts[1]!.trim(), "lon") };
    }
    return geohashPoint(v);
  }
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if (o.type !== undefined || o.coordinates !== undefined) {
      if (String(o.type).toLowerCase() !== "point") {
        throw geoParse(`[type] for geo_point can only be 'Point'`);
      }
      if (!Array.isArray(o.coordinates)) throw geoParse("[coordinates] must be an array");
      return parsePoint(o.coordinates);
    }
    if (typeof o.geohash === "string") return geohashPoint(o.geohash);
    for (const k of Object.keys(o)) {
      if (k !== "lat" && k !== "lon" && k !== "z") {
        throw geoParse(`field must be either [lat], [lon] or [z]`);
      }
    }
    if (o.lat === undefined) throw geoParse("field [lat] missing");
    if (o.lon === undefined) throw geoParse("field [lon] missing");
    return { lat: coordinate(o.lat, "lat"), lon: coordinate(o.lon, "lon") };
  }
  throw geoParse("geo_point expected");
}

/** An `illegal_argument_exception` when a point lies off the globe, naming `field`. */
export function checkPoint(p: GeoPoint, field: string): EngineError | undefined {
  if (!(p.lat >= -90 && p.lat <= 90)) {
    return illegalArgument(`illegal latitude value [${javaDouble(p.lat)}] for ${field}`);
  }
  if (!(p.lon >= -180 && p.lon <= 180)) {
    return illegalArgument(`illegal longitude value [${javaDouble(p.lon)}] for ${field}`);
  }
  return undefined;
}

// The geo modules print coordinates as Java does; they take its `Double.toString` from here.
export { javaDouble };

/**
 * The raw values of a `geo_point` field in a source value: one point, or an array of points (an
 * array of 2 or 3 numbers is one point).
 */
export function pointValues(v: unknown): unknown[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) {
    if (v.length > 0 && typeof v[0] === "number") return [v];
    return v.flatMap(pointValues);
  }
  return [v];
}

/** A point as the `fields` option writes it: GeoJSON (the default) or WKT. */
export function formatPoint(p: GeoPoint, format: string | undefined): unknown {
  if (format === "wkt") return `POINT (${javaDouble(p.lon)} ${javaDouble(p.lat)})`;
  return { coordinates: [p.lon, p.lat], type: "Point" };
}

/** The geo_point values at a dotted path of a source. */
export function sourcePoints(source: unknown, parts: readonly string[]): unknown[] {
  if (source === null || source === undefined) return [];
  if (parts.length === 0) return pointValues(source);
  if (Array.isArray(source)) return source.flatMap((s) => sourcePoints(s, parts));
  if (typeof source !== "object") return [];
  const o = source as Record<string, unknown>;
  const out: unknown[] = [];
  for (let i = parts.length; i > 0; i--) {
    const key = parts.slice(0, i).join(".");
    if (Object.hasOwn(o, key)) out.push(...sourcePoints(o[key], parts.slice(i)));
  }
  return out;
}

/** The mean earth radius the real engines measure with, in metres. */
export const EARTH_MEAN_RADIUS = 6371008.7714;
const RAD = Math.PI / 180;

/**
 * The great-circle distance in metres (haversine on the mean radius: `distance_type: arc`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // Elasticsearch 9.5.4 sorts a point at 48.85,2.35 at 230384.2188505782 m from 50,5.
 * const d = arcDistance(50, 5, quantize({ lat: 48.85, lon: 2.35 }).lat, quantize({ lat: 48.85, lon: 2.35 }).lon);
 * assert.ok(Math.abs(d - 230384.2188505782) < 1e-3);
 * ```
 */
export function arcDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const h = Math.sin((lat2 - lat1) * RAD / 2) ** 2 +
    Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin((lon2 - lon1) * RAD / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The flat-earth distance in metres (`distance_type: plane`). */
export function planeDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * RAD * Math.cos((lat2 + lat1) / 2 * RAD);
  const y = (lat2 - lat1) * RAD;
  return Math.sqrt(x * x + y * y) * EARTH_MEAN_RADIUS;
}

/** Metres per distance unit, by every name the real engines accept. */
const UNITS: ReadonlyArray<[readonly string[], number]> = [
  [["in", "inch"], 0.0254],
  [["yd", "yards"], 0.9144],
  [["ft", "feet"], 0.3048],
  [["km", "kilometers"], 1000],
  [["NM", "nmi", "nauticalmiles"], 1852],
  [["mm", "millimeters"], 0.001],
  [["cm", "centimeters"], 0.01],
  [["mi", "miles"], 1609.344],
  [["m", "meters"], 1],
];

/** Metres in one `unit` (`km`, `mi`, …), or undefined for an unknown unit. */
export function unitMeters(unit: string): number | undefined {
  for (const [names, m] of UNITS) if (names.includes(unit)) return m;
  return undefined;
}

/**
 * A distance such as `"100km"`, `"5000mi"` or `12` (in `defaultUnit`), in metres.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseDistance("100km"), 100000);
 * assert.equal(parseDistance(3, "mi"), 4828.032);
 * ```
 */
export function parseDistance(v: unknown, defaultUnit = "m"): number {
  if (typeof v === "number") return v * (unitMeters(defaultUnit) ?? 1);
  const s = String(v).trim();
  for (const [names, m] of UNITS) {
    for (const name of names) {
      if (s.endsWith(name)) {
        const n = Number(s.slice(0, -name.length));
        if (s.length > name.length && Number.isFinite(n)) return n * m;
      }
    }
  }
  const n = Number(s);
  if (s !== "" && Number.isFinite(n)) return n * (unitMeters(defaultUnit) ?? 1);
  throw esError("number_format_exception", `For input string: "${s}"`);
}
