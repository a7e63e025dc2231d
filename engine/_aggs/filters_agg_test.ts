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

Deno.test("OpenSearch: a filter range a shard's dates all meet or all miss gives meta {}", async () => {
  // Real OpenSearch 3.8.0 (Elasticsearch 9.5.4 never adds it): the filter's range on a date field
  // is rewritten on a shard whose values all fall in it or all outside it (or when the field is
  // unmapped), and the aggregation and every one above it answer `meta: {}`.
  const engine = new Engine({ flavour: "opensearch" });
  for (const [index, shards] of [["f1", 1], ["f3", 3]] as const) {
    await call(engine, "PUT", `/${index}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { when: { type: "date" }, count: { type: "integer" } } },
    });
    await call(engine, "PUT", `/${index}/_doc/1`, { when: "2020-01-01", count: 1 });
    await call(engine, "PUT", `/${index}/_doc/2`, { when: "2024-06-01", count: 5 });
    await call(engine, "PUT", `/${index}/_doc/3`, { count: 7 });
    await call(engine, "POST", `/${index}/_refresh`);
  }
  const agg = async (index: string, aggs: Reply) =>
    (await call(engine, "POST", `/${index}/_search`, { size: 0, aggs })).aggregations;
  const meta = async (index: string, filter: Reply) => (await agg(index, { a: { filter } })).a.meta;
  const since = (gte: string) => ({ range: { when: { gte } } });
  assert.deepEqual(await meta("f1", since("2000-01-01")), {});
  assert.deepEqual(await meta("f1", since("2030-01-01")), {});
  assert.equal(await meta("f1", since("2022-01-01")), undefined);
  assert.deepEqual(await meta("f3", since("2022-01-01")), {});
  assert.deepEqual(await meta("f1", { range: { nope: { gte: 0 } } }), {});
  assert.deepEqual(await meta("f1", { bool: { filter: [since("2000-01-01")] } }), {});
  assert.equal(await meta("f1", { range: { count: { gte: 0, lt: 100 } } }), undefined);
  assert.equal(await meta("f1", { term: { count: 1 } }), undefined);
  assert.deepEqual(
    await agg("f3", {
      t: { terms: { field: "count" }, aggs: { a: { filter: since("2000-01-01") } } },
    }),
    {
      t: {
        meta: {},
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 1, doc_count: 1, a: { meta: {}, doc_count: 1 } },
          { key: 5, doc_count: 1, a: { meta: {}, doc_count: 1 } },
          { key: 7, doc_count: 1, a: { meta: {}, doc_count: 0 } },
        ],
      },
    },
  );
  assert.deepEqual(
    (await agg("f1", { a: { filter: since("2000-01-01"), meta: { x: 1 } } })).a.meta,
    { x: 1 },
  );
  engine.close();
  const es = new Engine();
  await call(es, "PUT", "/f1", { mappings: { properties: { when: { type: "date" } } } });
  await call(es, "PUT", "/f1/_doc/1?refresh=true", { when: "2020-01-01" });
  const plain = await call(es, "POST", "/f1/_search", {
    size: 0,
    aggs: { a: { filter: since("2000-01-01") } },
  });
  assert.deepEqual(plain.aggregations, { a: { doc_count: 1 } });
  es.close();
});
