// Which points a bounded `geohash_grid` or `geotile_grid` keeps. Elasticsearch keeps every point
// of a cell that shares an interior point with the bounds (a cell only touching them is left out),
// so a bucket counts all of its cell's points, some outside the bounds; OpenSearch keeps the
// points inside the bounds.

import { encodeLat, encodeLon, geohashCell, geohashOf, type GeoPoint } from "../_index/geo.ts";

/** The bounds of a grid aggregation, in degrees (`left > right` crosses the antimeridian). */
export interface GridBox {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** The Web Mercator tile column and row of a point among `tiles` a side. */
export function tileXY(lat: number, lon: number, tiles: number): { x: number; y: number } {
  const clamp = (t: number) => Math.max(0, Math.min(tiles - 1, t));
  const x = clamp(Math.floor((lon + 180) / 360 * tiles));
  const s = Math.sin(lat * Math.PI / 180);
  const y = clamp(Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * tiles));
  return { x, y };
}

/** The latitude of a tile row's northern edge. */
function rowLat(y: number, tiles: number): number {
  return Math.atan(Math.sinh(Math.PI * (1 - 2 * y / tiles))) * 180 / Math.PI;
}

/** The longitude of a tile column's western edge. */
function columnLon(x: number, tiles: number): number {
  return x / tiles * 360 - 180;
}

/** Web Mercator's latitude limit: bounds wholly beyond it hold no tile. */
const MERCATOR_LAT = 85.0511287798066;

function inBox(b: GridBox, lat: number, lon: number): boolean {
  if (lat > b.top || lat < b.bottom) return false;
  return b.left <= b.right ? lon >= b.left && lon <= b.right : lon >= b.left || lon <= b.right;
}

/** Elasticsearch's test of a point's tile: its column and row within the bounds' tiles. */
function tilePredicate(b: GridBox, zoom: number): (lat: number, lon: number) => boolean {
  if (b.bottom > MERCATOR_LAT || b.top < -MERCATOR_LAT) return () => false;
  const tiles = 2 ** zoom;
  const crosses = b.right < b.left;
  const min = tileXY(b.top, b.left, tiles);
  const max = tileXY(b.bottom, b.right, tiles);
  // a tile only touching the bounds (on the quantised grid) is left out
  const leftX = encodeLon(columnLon(min.x + 1, tiles)) === encodeLon(b.left) ? min.x + 1 : min.x;
  const minY = encodeLat(rowLat(min.y + 1, tiles)) === encodeLat(b.top) ? min.y + 1 : min.y;
  const rightX = encodeLon(columnLon(max.x, tiles)) === encodeLon(b.right) ? max.x : max.x + 1;
  const maxY = encodeLat(rowLat(max.y, tiles)) === encodeLat(b.bottom) ? max.y : max.y + 1;
  return (lat, lon) => {
    const { x, y } = tileXY(lat, lon, tiles);
    if (!(maxY > y && minY < y + 1)) return false;
    return crosses ? rightX > x || leftX < x + 1 : rightX > x && leftX < x + 1;
  };
}

/** Elasticsearch's test of a point's geohash cell: it overlaps the bounds. */
function hashPredicate(b: GridBox, precision: number): (lat: number, lon: number) => boolean {
  const crosses = b.right < b.left;
  const overlaps = (west: number, east: number, south: number, north: number) => {
    if (!(b.top > south && b.bottom < north)) return false;
    return crosses ? b.left < east || b.right > west : b.left < east && b.right > west;
  };
  return (lat, lon) => {
    const c = geohashCell(geohashOf({ lat, lon } as GeoPoint, precision));
    if (c.east < c.west) {
      return overlaps(-180, c.east, c.south, c.north) || overlaps(c.west, 180, c.south, c.north);
    }
    return overlaps(c.west, c.east, c.south, c.north);
  };
}

/**
 * Whether a grid aggregation with `bounds` keeps a point: per flavour, as described above.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gridKeeps } from "./grid_bounds.ts";
 * const bounds = { top: 60, left: -20, bottom: 30, right: 30 };
 * // New York shares tile 2/1/1 with London, which lies inside the bounds
 * const es = gridKeeps({ bounds, type: "geotile_grid", precision: 2, opensearch: false });
 * assert.equal(es(40.7128, -74.006), true);
 * const os = gridKeeps({ bounds, type: "geotile_grid", precision: 2, opensearch: true });
 * assert.equal(os(40.7128, -74.006), false);
 * ```
 */
export function gridKeeps(opts: {
  bounds: GridBox;
  type: "geohash_grid" | "geotile_grid";
  precision: number;
  opensearch: boolean;
}): (lat: number, lon: number) => boolean {
  const { bounds, type, precision } = opts;
  if (opts.opensearch) return (lat, lon) => inBox(bounds, lat, lon);
  return type === "geotile_grid"
    ? tilePredicate(bounds, precision)
    : hashPredicate(bounds, precision);
}
