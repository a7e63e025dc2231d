import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

// Expected descriptions: real Elasticsearch 9.5.4 and OpenSearch 3.8.0, `_explain` of two
// documents (Lucene ids 0 and 1), the first inside every shape, the second outside.
const QUERIES = [
  { geo_bounding_box: { loc: { top_left: [0, 60], bottom_right: [20, 40] } } },
  {
    geo_bounding_box: {
      loc: { top_left: { lat: 60.5, lon: -10.25 }, bottom_right: { lat: 40.1, lon: 20 } },
    },
  },
  { geo_distance: { distance: "100km", loc: { lat: 50, lon: 5 } } },
  { geo_polygon: { loc: { points: [[0, 40], [20, 40], [20, 60], [0, 60]] } } },
  { geo_shape: { loc: { shape: { type: "envelope", coordinates: [[0, 60], [20, 40]] } } } },
];

const POLYGON =
  "loc:INTERSECTS:geometries([Polygon[40.0, 0.0] [40.0, 20.0] [60.0, 20.0] [60.0, 0.0] [40.0, 0.0] ])";

const EXPECTED = {
  elasticsearch: [
    "loc:box(minLat=39.9999999627471, maxLat=59.99999998603016, minLon=0.0, maxLon=19.99999998137355)",
    "loc:box(minLat=40.099999965168536, maxLat=60.499999998137355, minLon=-10.250000059604645, maxLon=19.99999998137355)",
    "loc:INTERSECTS:geometries([Circle([49.99999999534339,4.999999953433871] radius = 100000.0 meters)])",
    POLYGON,
    "ConstantScore(IndexOrDocValuesQuery(indexQuery=loc:[39.9999999627471 TO 59.99999998603016],[0.0 TO 19.99999998137355], dvQuery=loc:box(minLat=39.9999999627471, maxLat=59.99999998603016, minLon=0.0, maxLon=19.99999998137355)))",
  ],
  opensearch: [
    "loc:box(minLat=40.00000000465661, maxLat=59.99999998603016, minLon=0.0, maxLon=19.99999998137355)",
    "loc:box(minLat=40.10000000707805, maxLat=60.499999998137355, minLon=-10.249999975785613, maxLon=19.99999998137355)",
    "loc:INTERSECTS:geometries([Circle([50.0,5.0] radius = 100000.0 meters)])",
    POLYGON,
    "ConstantScore(IndexOrDocValuesQuery(indexQuery=loc:[40.00000000465661 TO 59.99999998603016],[0.0 TO 19.99999998137355], dvQuery=loc:box(minLat=40.00000000465661, maxLat=59.99999998603016, minLon=0.0, maxLon=19.99999998137355)))",
  ],
};

Deno.test("explain: geo queries name Lucene's shapes, per flavour", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/g", {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { loc: { type: "geo_point" } } },
    });
    await call(engine, "PUT", "/g/_doc/1", { loc: { lat: 50.1, lon: 5.3 } });
    await call(engine, "PUT", "/g/_doc/2?refresh=true", { loc: "-22.9,-43.2" });
    for (const [i, query] of QUERIES.entries()) {
      const str = EXPECTED[flavour][i]!;
      const shape = i === 4; // geo_shape scores 0
      const hit = await call(engine, "POST", "/g/_explain/1", { query });
      assert.deepEqual(hit.explanation, {
        value: shape ? 0 : 1,
        description: shape ? `${str}^0.0` : str,
        details: [],
      }, `${flavour} ${i}`);
      const miss = await call(engine, "POST", "/g/_explain/2", { query });
      assert.deepEqual(miss.explanation, {
        value: 0,
        description: `${str} doesn't match id 1`,
        details: [],
      }, `${flavour} ${i}`);
    }
    engine.close();
  }
});
