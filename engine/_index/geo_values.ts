// The doc values of `geo_point` fields: per segment and field, each document's points quantised as
// Lucene stores them. Built once per (immutable) segment from its stored sources, on first use.

import { checkPoint, type GeoPoint, parsePoint, quantize, sourcePoints } from "./geo.ts";
import type { Segment } from "./segment.ts";
import type { SegmentView } from "./shard_snapshot.ts";

/** The points of one geo_point field in one segment. */
export interface GeoColumn {
  /** Doc `d`'s points are at `start[d]` to `start[d + 1]` (exclusive). */
  readonly start: Int32Array;
  /** Quantised latitudes. */
  readonly lat: Float64Array;
  /** Quantised longitudes. */
  readonly lon: Float64Array;
}

const columns = new WeakMap<Segment, Map<string, GeoColumn>>();

/** The points of one document parsed from a source, quantised; malformed ones left out. */
export function docPoints(source: unknown, path: string): GeoPoint[] {
  const out: GeoPoint[] = [];
  for (const raw of sourcePoints(source, path.split("."))) {
    let p: GeoPoint;
    try {
      p = parsePoint(raw);
    } catch {
      continue; // only an ignore_malformed field keeps such a value
    }
    if (checkPoint(p, path)) continue;
    out.push(quantize(p));
  }
  return out;
}

/**
 * The geo_point column of `field` in `segment`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Segment } from "./segment.ts";
 * import { IdIndex } from "./id_index.ts";
 * const doc = { id: "1", source: { p: "48.85,2.35" }, version: 1, seqNo: 0, primaryTerm: 1 };
 * const col = geoColumn(new Segment([doc], new IdIndex([doc]), new Map()), "p");
 * assert.equal(col.start[1], 1);
 * assert.ok(Math.abs(col.lat[0]! - 48.85) < 1e-7);
 * ```
 */
export function geoColumn(segment: Segment, field: string): GeoColumn {
  let byField = columns.get(segment);
  if (!byField) {
    byField = new Map();
    columns.set(segment, byField);
  }
  let col = byField.get(field);
  if (col) return col;
  const start = new Int32Array(segment.docs.length + 1);
  const lat: number[] = [];
  const lon: number[] = [];
  for (let d = 0; d < segment.docs.length; d++) {
    start[d] = lat.length;
    for (const p of docPoints(segment.docs[d]!.source, field)) {
      lat.push(p.lat);
      lon.push(p.lon);
    }
  }
  start[segment.docs.length] = lat.length;
  col = { start, lat: Float64Array.from(lat), lon: Float64Array.from(lon) };
  byField.set(field, col);
  return col;
}

/** The docs of `segment` with at least one point in `field`, ascending. */
export function geoPresent(segment: Segment, field: string): Int32Array {
  const col = geoColumn(segment, field);
  const docs: number[] = [];
  for (let d = 0; d < segment.docs.length; d++) if (col.start[d + 1]! > col.start[d]!) docs.push(d);
  return Int32Array.from(docs);
}

/**
 * Walks ascending `docs` of a snapshot whose segments are `views`, in step with them, calling `fn`
 * with each doc and its points of `field`: `col.lat` and `col.lon` from `from` to `to` (exclusive).
 */
export function eachDocPoints(
  views: readonly SegmentView[],
  docs: ArrayLike<number>,
  field: string,
  fn: (doc: number, col: GeoColumn, from: number, to: number) => void,
): void {
  let vi = 0;
  for (let j = 0; j < docs.length; j++) {
    const d = docs[j]!;
    while (vi + 1 < views.length && views[vi + 1]!.base <= d) vi++;
    const v = views[vi]!;
    const col = geoColumn(v.segment, field);
    const local = d - v.base;
    fn(d, col, col.start[local]!, col.start[local + 1]!);
  }
}
