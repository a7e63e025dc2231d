// The Lucene queries a geo query on a `geo_point` field becomes, as explanations print them:
// Elasticsearch 9.5.4 and OpenSearch 3.8.0 on one node, measured with `_explain`.

import { decodeLat, decodeLon, encodeLat, encodeLon, javaDouble } from "../_index/geo.ts";
import type { GeoShapeSpec } from "./query_nodes.ts";

/** What an explanation prints for a geo query: alone, and as a clause of a `bool`. */
export interface GeoLucene {
  /** The query alone (the doc-values form Lucene explains). */
  readonly str: string;
  /** As a `bool` clause, when known. */
  readonly clause?: string;
}

const ceil = (encode: (v: number) => number, decode: (e: number) => number) => (v: number) => {
  const e = encode(v);
  return decode(decode(e) < v ? e + 1 : e);
};
const floorLat = (v: number) => decodeLat(encodeLat(v));
const floorLon = (v: number) => decodeLon(encodeLon(v));
const ceilLat = ceil(encodeLat, decodeLat);
const ceilLon = ceil(encodeLon, decodeLon);

function box(
  field: string,
  b: { top: number; left: number; bottom: number; right: number; es: boolean },
): { dv: string; index: string } {
  const es = b.es;
  // Elasticsearch prints every edge rounded down to the point grid, OpenSearch its lower edges up
  const minLat = javaDouble(es ? floorLat(b.bottom) : ceilLat(b.bottom));
  const minLon = javaDouble(es ? floorLon(b.left) : ceilLon(b.left));
  const maxLat = javaDouble(floorLat(b.top)), maxLon = javaDouble(floorLon(b.right));
  return {
    dv: `${field}:box(minLat=${minLat}, maxLat=${maxLat}, minLon=${minLon}, maxLon=${maxLon})`,
    index: `${field}:[${minLat} TO ${maxLat}],[${minLon} TO ${maxLon}]`,
  };
}

const either = (index: string, dv: string) =>
  `IndexOrDocValuesQuery(indexQuery=${index}, dvQuery=${dv})`;

/**
 * The strings of a geo query's shape, or undefined when the engine does not know them (a box
 * across the antimeridian, `geo_shape` other than an intersecting envelope).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { geoLucene } from "./geo_explain.ts";
 * const shape = { kind: "circle", lat: 50, lon: 5, meters: 100000 } as const;
 * assert.equal(
 *   geoLucene({ field: "loc", shape, es: false })?.str,
 *   "loc:INTERSECTS:geometries([Circle([50.0,5.0] radius = 100000.0 meters)])",
 * );
 * ```
 */
export function geoLucene(
  q: { field: string; shape: GeoShapeSpec; es: boolean },
): GeoLucene | undefined {
  const { field, shape, es } = q;
  switch (shape.kind) {
    case "box": {
      if (shape.left > shape.right) return undefined;
      const { dv, index } = box(field, { ...shape, es });
      return { str: dv, clause: either(index, dv) };
    }
    case "shape box": {
      if (shape.left > shape.right) return undefined;
      const { dv, index } = box(field, { ...shape, es });
      // geo_shape scores nothing: a constant score over the points query
      return { str: `ConstantScore(${either(index, dv)})` };
    }
    case "circle": {
      // Elasticsearch prints the centre on the point grid, OpenSearch as given
      const lat = javaDouble(es ? floorLat(shape.lat) : shape.lat);
      const lon = javaDouble(es ? floorLon(shape.lon) : shape.lon);
      const r = javaDouble(shape.meters);
      const dv = `${field}:INTERSECTS:geometries([Circle([${lat},${lon}] radius = ${r} meters)])`;
      return { str: dv, clause: either(`${field}:${lat},${lon} +/- ${r} meters`, dv) };
    }
    case "polygon": {
      const pts = [...shape.points];
      const first = pts[0], last = pts[pts.length - 1];
      if (first && last && (first.lat !== last.lat || first.lon !== last.lon)) pts.push(first);
      const ring = pts.map((p) => `[${javaDouble(p.lat)}, ${javaDouble(p.lon)}] `).join("");
      return { str: `${field}:INTERSECTS:geometries([Polygon${ring}])` };
    }
  }
}
