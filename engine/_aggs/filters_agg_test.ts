import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function ints(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/f", { mappings: { properties: { n: { type: "integer" } } } });
  for (const n of [1, 51, 101, 151]) await call(engine, "PUT", `/f/_doc/${n}`, { n });
  await call(engine, "POST", "/f/_refresh");
  return engine;
}

const named = {
  first: { match: { n: 101 } },
  second: { match: { n: 151 } },
};

Deno.test("filters: bucket_sort reorders named buckets; keyed_bucket_in_array lists them", async () => {
  const engine = await ints();
  const sub = {
    top: { max: { field: "n" } },
    by_top: { bucket_sort: { sort: [{ top: "desc" }] } },
  };
  const keyed = await call(engine, "POST", "/f/_search", {
    size: 0,
    aggs: { f: { filters: { filters: named }, aggs: sub } },
  });
  assert.deepEqual(Object.keys(keyed.aggregations.f.buckets), ["second", "first"]);
  const listed = await call(engine, "POST", "/f/_search", {
    size: 0,
    aggs: { f: { filters: { keyed_bucket_in_array: true, filters: named }, aggs: sub } },
  });
  assert.deepEqual(
    listed.aggregations.f.buckets.map((b: Reply) => Object.keys(b)[0]),
    ["second", "first"],
  );
  assert.equal(listed.aggregations.f.buckets[0].second.top.value, 151);
  engine.close();
});

Deno.test("filters: an empty filters body is refused", async () => {
  const engine = await ints();
  for (const body of [{}, { filters: [] }, { filters: {} }]) {
    const r = await call(engine, "POST", "/f/_search", { aggs: { f: { filters: body } } });
    assert.equal(r.code, 400);
    assert.equal(r.error.root_cause[0].reason, "[filters] cannot be empty.");
  }
  engine.close();
});

Deno.test("filters: anonymous filters end with the other bucket; other_bucket false refuses it", async () => {
  // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4, over n = 1, 51, 101, 151:
  // [{term}] + other_bucket: true → [{doc_count: 1}, {doc_count: 3}];
  // [{term}] + other_bucket_key: "zz" → the same two buckets;
  // [{term}] + other_bucket: false + other_bucket_key: "zz" → [{doc_count: 1}];
  // named + other_bucket: false + other_bucket_key: "zz" → only the named bucket.
  const engine = await ints();
  const agg = async (body: Reply) =>
    (await call(engine, "POST", "/f/_search", { size: 0, aggs: { f: { filters: body } } }))
      .aggregations.f.buckets;
  const one = [{ term: { n: 1 } }];
  assert.deepEqual(await agg({ filters: one, other_bucket: true }), [
    { doc_count: 1 },
    { doc_count: 3 },
  ]);
  assert.deepEqual(await agg({ filters: one, other_bucket_key: "zz" }), [
    { doc_count: 1 },
    { doc_count: 3 },
  ]);
  assert.deepEqual(
    await agg({ filters: one, other_bucket: false, other_bucket_key: "zz" }),
    [{ doc_count: 1 }],
  );
  assert.deepEqual(
    await agg({ filters: { a: one[0] }, other_bucket: false, other_bucket_key: "zz" }),
    { a: { doc_count: 1 } },
  );
  assert.deepEqual(await agg({ filters: { a: one[0] }, other_bucket_key: "zz" }), {
    a: { doc_count: 1 },
    zz: { doc_count: 3 },
  });
  engine.close();
});

Deno.test("missing: a geo_point in any form is a value", async () => {
  // Real OpenSearch 3.8.0 over these nine documents: `missing` on loc → doc_count 3.
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/g", { mappings: { properties: { loc: { type: "geo_point" } } } });
  const locs = [
    { lat: 1, lon: 2 },
    "1,2",
    [2, 1],
    "POINT (2 1)",
    "u173zq",
    null,
    undefined,
    [],
    [{ lat: 1, lon: 2 }, "3,4"],
  ];
  for (const [i, loc] of locs.entries()) {
    await call(engine, "PUT", `/g/_doc/${i}`, loc === undefined ? {} : { loc });
  }
  await call(engine, "POST", "/g/_refresh");
  const res = await call(engine, "POST", "/g/_search", {
    size: 0,
    aggs: { m: { missing: { field: "loc" } } },
  });
  assert.deepEqual(res.aggregations.m, { doc_count: 3 });
  engine.close();
});
