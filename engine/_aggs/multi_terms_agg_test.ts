import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function music(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/m", {
    mappings: {
      properties: {
        genre: { type: "keyword" },
        product: { type: "keyword" },
        year: { type: "long" },
        day: { type: "date", format: "yyyy-MM-dd" },
        price: { type: "long" },
      },
    },
  });
  const docs = [
    { genre: "rock", product: "A", year: 2020, day: "2020-01-01", price: 10 },
    { genre: "rock", product: "A", year: 2021, day: "2020-01-01", price: 30 },
    { genre: "rock", product: "B", year: 2021, price: 5 },
    { genre: ["jazz", "rock"], product: "B", year: 2020 },
    { genre: "jazz" },
  ];
  for (const [i, d] of docs.entries()) await call(engine, "PUT", `/m/_doc/${i}`, d);
  await call(engine, "POST", "/m/_refresh");
  return engine;
}

async function agg(engine: Engine, body: Reply, sub?: Reply): Promise<Reply> {
  const r = await call(engine, "POST", "/m/_search", {
    size: 0,
    aggs: { a: { multi_terms: body, ...(sub ? { aggs: sub } : {}) } },
  });
  return r.code === 200 ? r.aggregations.a : r;
}

const rows = (r: Reply): unknown[] => r.buckets.map((b: Reply) => [b.key_as_string, b.doc_count]);

Deno.test("multi_terms: buckets per value combination, by count then key; docs missing a field skipped", async () => {
  const engine = await music();
  const r = await agg(engine, { terms: [{ field: "genre" }, { field: "product" }] });
  assert.deepEqual(Object.keys(r), [
    "doc_count_error_upper_bound",
    "sum_other_doc_count",
    "buckets",
  ]);
  assert.deepEqual(r.buckets[0], { key: ["rock", "A"], key_as_string: "rock|A", doc_count: 2 });
  assert.deepEqual(rows(r), [["rock|A", 2], ["rock|B", 2], ["jazz|B", 1]]);
  const small = await agg(engine, { terms: [{ field: "genre" }, { field: "product" }], size: 1 });
  assert.equal(small.sum_other_doc_count, 3);
  engine.close();
});

Deno.test("multi_terms: missing, numbers and dates in keys, order by key and by a sub-aggregation", async () => {
  const engine = await music();
  const withMissing = await agg(engine, {
    terms: [{ field: "genre" }, { field: "product", missing: "none" }],
    order: { _key: "asc" },
  });
  assert.deepEqual(rows(withMissing), [
    ["jazz|B", 1],
    ["jazz|none", 1],
    ["rock|A", 2],
    ["rock|B", 2],
  ]);
  const typed = await agg(engine, { terms: [{ field: "year" }, { field: "day" }] });
  assert.deepEqual(typed.buckets.map((b: Reply) => b.key), [[2020, "2020-01-01"], [
    2021,
    "2020-01-01",
  ]]);
  const byMax = await agg(
    engine,
    { terms: [{ field: "genre" }, { field: "product" }], order: { top: "desc" } },
    { top: { max: { field: "price" } } },
  );
  assert.deepEqual(byMax.buckets.map((b: Reply) => [b.key_as_string, b.top.value]), [
    ["rock|A", 30],
    ["rock|B", 5],
    ["jazz|B", null],
  ]);
  engine.close();
});

Deno.test("multi_terms: fewer than two terms refused", async () => {
  const engine = await music();
  const one = await agg(engine, { terms: [{ field: "genre" }] });
  assert.equal(one.code, 400);
  assert.equal(
    one.error.root_cause[0].reason,
    "The [terms] parameter in the aggregation [a] must be present and have at least 2 fields or scripts. For a single field user terms aggregation.",
  );
  engine.close();
});
