// Geo points end to end: indexing in every form, the geo queries, aggregations, the
// `_geo_distance` sort and the fields output. Every expected value below is what Elasticsearch
// 9.5.4 and OpenSearch 3.8.0 answered for the same documents and requests.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, failure, type Reply } from "../../tests/support/engine_call.ts";

const DOCS: Record<string, unknown>[] = [
  { p: { lat: 52.37, lon: 4.89 } },
  { p: "48.85,2.35" },
  { p: [13.4, 52.52] },
  { p: "u173zq" },
  { p: "POINT (151.2 -33.86)" },
  { p: [{ lat: 40.71, lon: -74.0 }, "10,20", [1, 2]] },
  { m: "abc", p: [1, 2, 3] },
];

async function seeded(flavour?: "opensearch"): Promise<Engine> {
  const engine = new Engine(flavour ? { flavour } : {});
  await call(engine, "PUT", "/g", {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        p: { type: "geo_point" },
        m: { type: "geo_point", ignore_malformed: true },
        k: { type: "keyword" },
      },
    },
  });
  for (const [i, d] of DOCS.entries()) await call(engine, "PUT", `/g/_doc/${i + 1}`, d);
  await call(engine, "POST", "/g/_refresh");
  return engine;
}

const ids = (r: Reply): string[] => r.hits.hits.map((h: { _id: string }) => h._id);

Deno.test("geo_point: bad values fail with the real error types, ignore_malformed keeps the doc", async () => {
  for (const flavour of [undefined, "opensearch"] as const) {
    const engine = await seeded(flavour);
    const top = flavour ? "mapper_parsing_exception" : "document_parsing_exception";
    const lat = await call(engine, "PUT", "/g/_doc/x", { p: { lat: 91, lon: 0 } });
    assert.deepEqual(failure(lat).slice(0, 2), [400, top]);
    assert.equal(lat.error.caused_by.type, "illegal_argument_exception");
    assert.equal(lat.error.caused_by.reason, "illegal latitude value [91.0] for p");
    const hash = await call(engine, "PUT", "/g/_doc/x", { p: "abc" });
    assert.equal(hash.error.type, top);
    assert.equal(hash.error.root_cause[0].type, "parse_exception");
    assert.equal(hash.error.caused_by.reason, "unsupported symbol [a] in geohash [abc]");
    engine.close();
  }
});

Deno.test("geo queries: distance, boxes in several forms, polygon, shape scored 0", async () => {
  const engine = await seeded();
  const search = (query: unknown) => call(engine, "POST", "/g/_search", { _source: false, query });
  const near = await search({ geo_distance: { distance: "300km", p: "50,5", boost: 2 } });
  assert.deepEqual(ids(near), ["1", "2", "4"]);
  assert.equal(near.hits.max_score, 2);
  const box = { top_left: [0, 60], bottom_right: [20, 40] };
  assert.deepEqual(ids(await search({ geo_bounding_box: { p: box } })), ["1", "2", "3", "4"]);
  assert.deepEqual(
    ids(await search({ geo_bounding_box: { p: { wkt: "BBOX (0, 20, 60, 40)" } } })),
    ["1", "2", "3", "4"],
  );
  assert.deepEqual(ids(await search({ geo_bounding_box: { m: box } })), []);
  const polygon = { points: [[0, 40], [20, 40], [20, 60], [0, 60]] };
  assert.deepEqual(ids(await search({ geo_polygon: { p: polygon } })), ["1", "2", "3", "4"]);
  const shape = await search({
    geo_shape: { p: { shape: { type: "envelope", coordinates: [[0, 60], [20, 40]] } } },
  });
  assert.deepEqual(ids(shape), ["1", "2", "3", "4"]);
  assert.equal(shape.hits.max_score, 0);
  // Every form of point counts for exists: all 7 docs.
  assert.equal((await search({ exists: { field: "p" } })).hits.total.value, 7);
  const unmapped = await search({ geo_distance: { distance: "300km", nope: "50,5" } });
  assert.equal(unmapped.code, 400);
  assert.equal(unmapped.error.root_cause[0].reason, "failed to find geo field [nope]");
  engine.close();
});

Deno.test("geo aggregations: bounds and centroid of the quantised points, distance rings, grids", async () => {
  const engine = await seeded();
  const r = await call(engine, "POST", "/g/_search", {
    size: 0,
    aggs: {
      b: { geo_bounds: { field: "p" } },
      c: { geo_centroid: { field: "p" } },
      e: { geo_bounds: { field: "m" } },
      f: { geo_centroid: { field: "m" } },
      d: {
        geo_distance: {
          field: "p",
          origin: "50,5",
          unit: "km",
          ranges: [{ to: 300 }, { from: 300, to: 1000 }, { from: 1000 }],
        },
      },
      h: { geohash_grid: { field: "p", precision: 3 } },
      t: { geotile_grid: { field: "p", precision: 4 } },
    },
  });
  const a = r.aggregations;
  assert.deepEqual(a.b.bounds, {
    top_left: { lat: 52.51999998930842, lon: -74.00000003166497 },
    bottom_right: { lat: -33.860000032000244, lon: 151.1999999731779 },
  });
  assert.deepEqual(a.c, {
    location: { lat: 25.21798066329211, lon: 13.858768418431282 },
    count: 9,
  });
  assert.deepEqual(a.e, {});
  assert.deepEqual(a.f, { count: 0 });
  assert.deepEqual(a.d.buckets, [
    { key: "*-300.0", from: 0, to: 300, doc_count: 3 },
    { key: "300.0-1000.0", from: 300, to: 1000, doc_count: 1 },
    { key: "1000.0-*", from: 1000, doc_count: 3 },
  ]);
  assert.deepEqual(
    a.h.buckets.map((b: { key: string; doc_count: number }) => `${b.key}:${b.doc_count}`),
    ["u17:2", "s02:2", "u33:1", "u09:1", "s3y:1", "r3g:1", "dr5:1"],
  );
  assert.deepEqual(
    a.t.buckets.map((b: { key: string; doc_count: number }) => `${b.key}:${b.doc_count}`),
    ["4/8/5:4", "4/8/7:2", "4/14/9:1", "4/4/6:1"],
  );
  const bounded = await call(engine, "POST", "/g/_search", {
    size: 0,
    aggs: {
      h: {
        geohash_grid: {
          field: "p",
          precision: 2,
          size: 2,
          bounds: { top_left: "60,0", bottom_right: "0,30" },
        },
        aggs: { c: { geo_centroid: { field: "p" } } },
      },
    },
  });
  const [u1, s0] = bounded.aggregations.h.buckets;
  assert.equal(u1.key, "u1");
  assert.deepEqual(u1.c.location, { lat: 52.37091306829825, lon: 4.889457989484072 });
  assert.deepEqual([s0.key, s0.doc_count, s0.c.count], ["s0", 2, 4]);
  const wrong = await call(engine, "POST", "/g/_search", {
    size: 0,
    aggs: { b: { geo_bounds: { field: "k" } } },
  });
  assert.equal(
    wrong.error.root_cause[0].reason,
    "Field [k] of type [keyword] is not supported for aggregation [geo_bounds]",
  );
  engine.close();
});

Deno.test("_geo_distance sort: units, plane, several points, modes, missing as Infinity", async () => {
  const engine = await seeded();
  await call(engine, "PUT", "/g/_doc/10?refresh=true", { k: "x" });
  const sorted = (sort: unknown, size = 10) =>
    call(engine, "POST", "/g/_search", { _source: false, size, sort: [sort] });
  const desc = await sorted({
    _geo_distance: {
      p: [[5, 50], "0,0"],
      order: "desc",
      unit: "km",
      mode: "min",
      distance_type: "plane",
    },
  });
  assert.deepEqual(ids(desc), ["10", "5", "3", "4", "1", "6", "7", "2"]);
  const values = desc.hits.hits.map((h: { sort: unknown[] }) => h.sort[0]);
  assert.equal(values[0], "Infinity");
  const expected = [16518.853846797087, 648.2052070370148, 263.8490147778472, 263.64383375795404];
  for (const [i, e] of expected.entries()) {
    assert.ok(Math.abs(values[i + 1] / e - 1) < 1e-9, `${values[i + 1]} vs ${e}`);
  }
  const avg = await sorted({ _geo_distance: { p: "0,0", mode: "avg" } }, 3);
  assert.deepEqual(ids(avg), ["7", "6", "2"]);
  assert.ok(Math.abs(avg.hits.hits[1].sort[0] / 3797110.0757612973 - 1) < 1e-9);
  const unmapped = await sorted({ _geo_distance: { zz: "0,0", ignore_unmapped: true } }, 2);
  assert.deepEqual(unmapped.hits.hits.map((h: { sort: unknown[] }) => h.sort), [
    ["Infinity"],
    ["Infinity"],
  ]);
  const refused = await sorted({ _geo_distance: { zz: "0,0" } });
  assert.equal(
    refused.error.root_cause[0].reason,
    "failed to find mapper for [zz] for geo distance based sort",
  );
  engine.close();
});

Deno.test("geo_point fields: GeoJSON or WKT from the source, quantised text from doc values", async () => {
  const engine = await seeded("opensearch");
  const r = await call(engine, "POST", "/g/_search", {
    _source: false,
    query: { ids: { values: ["4", "6"] } },
    fields: ["p"],
    docvalue_fields: [{ field: "m" }],
  });
  assert.deepEqual(r.hits.hits[0].fields.p, [{
    coordinates: [4.888916015625, 52.371826171875],
    type: "Point",
  }]);
  const wkt = await call(engine, "POST", "/g/_search", {
    _source: false,
    query: { ids: { values: ["6"] } },
    fields: [{ field: "p", format: "wkt" }],
  });
  assert.deepEqual(wkt.hits.hits[0].fields.p, [
    "POINT (-74.0 40.71)",
    "POINT (20.0 10.0)",
    "POINT (1.0 2.0)",
  ]);
  const dv = await call(engine, "POST", "/g/_search", {
    _source: false,
    query: { ids: { values: ["6"] } },
    docvalue_fields: ["p"],
  });
  assert.deepEqual(dv.hits.hits[0].fields.p, [
    "1.9999999646097422, 0.9999999403953552",
    "9.999999990686774, 19.99999998137355",
    "40.70999996736646, -74.00000003166497",
  ]);
  engine.close();
  // Elasticsearch 9.5.4 sorts the texts instead.
  const es = await seeded();
  const esDv = await call(es, "POST", "/g/_search", {
    _source: false,
    query: { ids: { values: ["6"] } },
    docvalue_fields: ["p"],
  });
  assert.deepEqual(esDv.hits.hits[0].fields.p, [
    "1.9999999646097422, 0.9999999403953552",
    "40.70999996736646, -74.00000003166497",
    "9.999999990686774, 19.99999998137355",
  ]);
  es.close();
});

Deno.test("geo validation: points off the globe refused per shard, WKT as read, OpenSearch's relations", async () => {
  for (const flavour of [undefined, "opensearch"] as const) {
    const engine = await seeded(flavour);
    const search = (body: unknown) => call(engine, "POST", "/g/_search", body);
    const distance = await search({
      query: { geo_distance: { distance: "10km", p: { lat: 95, lon: 0 } } },
    });
    assert.equal(distance.error.type, "search_phase_execution_exception");
    assert.equal(distance.error.root_cause[0].type, "query_shard_exception");
    assert.equal(
      distance.error.failed_shards[0].reason.caused_by.reason,
      "Validation Failed: 1: [geo_distance] center point latitude is invalid: 95.0;",
    );
    const coerced = await search({
      query: {
        geo_distance: { distance: "10km", p: { lat: 95, lon: 0 }, validation_method: "COERCE" },
      },
    });
    assert.equal(coerced.code, 200);
    const box = await search({
      query: { geo_bounding_box: { p: { top: 10, left: 0, bottom: 20, right: 10 } } },
    });
    assert.deepEqual(failure(box), [
      400,
      "illegal_argument_exception",
      "top is below bottom corner: 10.0 vs. 20.0",
    ]);
    const wkt = await search({ query: { geo_distance: { distance: "1km", p: "POINT (5 95)" } } });
    assert.deepEqual(failure(wkt), [400, "parse_exception", "Invalid WKT format"]);
    const sort = await search({ sort: [{ _geo_distance: { p: { lat: 95, lon: 0 } } }] });
    assert.equal(
      sort.error.root_cause[0].reason,
      "illegal latitude value [95.0] for [GeoDistanceSort] for field [p].",
    );
    const within = await search({
      query: {
        geo_shape: {
          p: {
            shape: { type: "envelope", coordinates: [[0, 60], [20, 40]] },
            relation: "within",
          },
        },
      },
    });
    if (flavour) {
      assert.equal(
        within.error.root_cause[0].reason,
        "WITHIN query relation not supported for Field [p].",
      );
    } else assert.deepEqual(ids(within), ["1", "2", "3", "4"]);
    engine.close();
  }
});

Deno.test("_geo_distance sort: one point in metres ascending measures the arc, as Lucene's sort does", async () => {
  const engine = await seeded();
  const r = await call(engine, "POST", "/g/_search", {
    _source: false,
    size: 1,
    query: { ids: { values: ["1"] } },
    sort: [{ _geo_distance: { p: "-33.9,151.2", distance_type: "plane" } }],
  });
  // Elasticsearch 9.5.4 and OpenSearch 3.8.0: 1.6645678653206479E7 (the plane formula: 1.87E7).
  assert.ok(Math.abs(r.hits.hits[0].sort[0] / 1.6645678653206479e7 - 1) < 1e-9);
  engine.close();
});

Deno.test("geo_distance aggregation: a WKT origin off the globe fails as the request is parsed", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0 answer the WKT form with a 400 from the parser
  // (no shard phase); the same point as an object, text or array passes.
  for (const flavour of [undefined, "opensearch"] as const) {
    const engine = await seeded(flavour);
    const agg = (origin: unknown) =>
      call(engine, "POST", "/g/_search", {
        size: 0,
        aggs: { a: { geo_distance: { field: "p", origin, ranges: [{ to: 5 }] } } },
      });
    const bad = await agg("POINT (190 10)");
    assert.equal(bad.code, 400);
    assert.equal(bad.error.type, "x_content_parse_exception");
    assert.equal(bad.error.phase, undefined);
    assert.deepEqual(
      [bad.error.root_cause[0].type, bad.error.root_cause[0].reason],
      ["parse_exception", "Invalid WKT format"],
    );
    assert.equal(
      bad.error.caused_by.caused_by.reason,
      "invalid longitude 190.0; must be between -180.0 and 180.0",
    );
    const lat = await agg("POINT (5 95)");
    assert.equal(
      lat.error.caused_by.caused_by.reason,
      "invalid latitude 95.0; must be between -90.0 and 90.0",
    );
    assert.equal((await agg("10,190")).code, 200);
    assert.equal((await agg({ lat: 95, lon: 5 })).code, 200);
    engine.close();
  }
});

Deno.test("geo_shape within and disjoint weigh every point of a doc on Elasticsearch", async () => {
  // Real Elasticsearch 9.5.4 on the same five docs: within [2, 5], disjoint [3], intersects
  // [1, 2, 5] (doc 1 has a point in the northern hemisphere and one in the southern).
  const engine = new Engine();
  await call(engine, "PUT", "/h", {
    settings: { number_of_shards: 1 },
    mappings: { properties: { loc: { type: "geo_point" }, other: { type: "integer" } } },
  });
  const docs = [
    { loc: [{ lat: 35.68, lon: 139.69 }, "-22.9,-43.2"] },
    { loc: "-33.86,151.2" },
    { loc: "51.5,-0.12" },
    { other: 1 },
    { loc: ["-10,10", "-20,20"] },
  ];
  for (const [i, d] of docs.entries()) await call(engine, "PUT", `/h/_doc/${i + 1}`, d);
  await call(engine, "POST", "/h/_refresh");
  const ids = async (relation: string) => {
    const shape = { type: "envelope", coordinates: [[-180, 0], [180, -90]] };
    const r = await call(engine, "POST", "/h/_search", {
      query: { geo_shape: { loc: { shape, relation } } },
      _source: false,
    });
    return r.hits.hits.map((h: Reply) => h._id);
  };
  assert.deepEqual(await ids("within"), ["2", "5"]);
  assert.deepEqual(await ids("disjoint"), ["3"]);
  assert.deepEqual(await ids("intersects"), ["1", "2", "5"]);
  engine.close();
});

Deno.test("geotile_grid bounds: Elasticsearch keeps the points of tiles meeting the box", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0 on the same six docs, bounds 60,-20 to 30,30
  // (and 60,0 to 30,90, whose tiles left and right only touch it).
  const docs = [
    { loc: "50,5" },
    { loc: "-33.86,151.2" },
    { loc: "40.7,-74" },
    { loc: ["10,10", "-50,-100"] },
    { loc: "35,25" },
    { loc: "62,-21" },
  ];
  const tiles = async (engine: Engine, precision: number, bounds: Reply) => {
    const r = await call(engine, "POST", "/tg/_search", {
      size: 0,
      aggs: { a: { geotile_grid: { field: "loc", precision, bounds } } },
    });
    return r.aggregations.a.buckets.map((b: Reply) => [b.key, b.doc_count]);
  };
  const box = { top_left: "60,-20", bottom_right: "30,30" };
  const expected = {
    elasticsearch: [
      [["0/0/0", 6]],
      [["1/1/0", 3], ["1/0/0", 2]],
      [["2/2/1", 3], ["2/1/1", 2]],
      [["3/4/3", 2], ["3/4/2", 1], ["3/3/2", 1]],
    ],
    opensearch: [
      [["0/0/0", 2]],
      [["1/1/0", 2]],
      [["2/2/1", 2]],
      [["3/4/3", 1], ["3/4/2", 1]],
    ],
  };
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/tg", {
      settings: { number_of_shards: 1 },
      mappings: { properties: { loc: { type: "geo_point" } } },
    });
    for (const [i, d] of docs.entries()) await call(engine, "PUT", `/tg/_doc/${i + 1}`, d);
    await call(engine, "POST", "/tg/_refresh");
    for (const [precision, want] of expected[flavour].entries()) {
      assert.deepEqual(await tiles(engine, precision, box), want);
    }
    assert.deepEqual(
      await tiles(engine, 5, box),
      [["5/18/12", 1], ["5/16/10", 1]],
    );
    if (flavour === "elasticsearch") {
      const touching = { top_left: "60,0", bottom_right: "30,90" };
      assert.deepEqual(await tiles(engine, 2, touching), [["2/2/1", 3]]);
    }
    engine.close();
  }
});
