import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const CITIES = [
  { lat: 51.5074, lon: -0.1278 }, // London
  { lat: 40.7128, lon: -74.006 }, // New York
  { lat: 52.37, lon: 4.89 }, // Amsterdam
  { lat: 55.75, lon: 37.61 }, // Moscow
  { lat: 25.2, lon: 10.0 }, // Sahara
  { lat: 35.68, lon: 139.69 }, // Tokyo
];

async function buckets(engine: Engine, agg: unknown): Promise<unknown> {
  const r = await call(engine, "POST", "/g/_search", { size: 0, aggs: { a: agg } });
  return (r.aggregations as { a: { buckets: unknown } }).a.buckets;
}

const BOUNDS = { top_left: "60,-20", bottom_right: "30,30" };

// Expected buckets: Elasticsearch 9.5.4's and OpenSearch 3.8.0's answers to the same requests.
const EXPECTED = {
  elasticsearch: [
    [{ key: "2/2/1", doc_count: 3 }, { key: "2/1/1", doc_count: 2 }],
    [{ key: "u", doc_count: 2 }, { key: "s", doc_count: 1 }, { key: "g", doc_count: 1 }],
    [{ key: "u1", doc_count: 1 }, { key: "gc", doc_count: 1 }],
    [{ key: "1/1/0", doc_count: 4 }],
  ],
  opensearch: [
    [{ key: "2/2/1", doc_count: 1 }, { key: "2/1/1", doc_count: 1 }],
    [{ key: "u", doc_count: 1 }, { key: "g", doc_count: 1 }],
    [{ key: "u1", doc_count: 1 }, { key: "gc", doc_count: 1 }],
    [{ key: "1/1/0", doc_count: 1 }],
  ],
};

Deno.test("bounded grids: Elasticsearch keeps the cells overlapping the bounds, OpenSearch the points", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/g", {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { loc: { type: "geo_point" } } },
    });
    for (const [i, loc] of CITIES.entries()) await call(engine, "PUT", `/g/_doc/${i + 1}`, { loc });
    await call(engine, "POST", "/g/_refresh");
    const got = [
      await buckets(engine, { geotile_grid: { field: "loc", precision: 2, bounds: BOUNDS } }),
      await buckets(engine, { geohash_grid: { field: "loc", precision: 1, bounds: BOUNDS } }),
      await buckets(engine, { geohash_grid: { field: "loc", precision: 2, bounds: BOUNDS } }),
      // a tile only touching the bounds (1/0/0 at longitude 0) is left out
      await buckets(engine, {
        geotile_grid: {
          field: "loc",
          precision: 1,
          bounds: { top_left: "60,0", bottom_right: "30,30" },
        },
      }),
    ];
    assert.deepEqual(got, EXPECTED[flavour], flavour);
    engine.close();
  }
});
