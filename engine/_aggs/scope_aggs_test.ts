import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";
import { objectsAt } from "./scope_aggs.ts";

type Json = Reply;

async function posts(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/posts", {
    mappings: {
      properties: {
        tag: { type: "keyword" },
        comments: {
          type: "nested",
          properties: { author: { type: "keyword" }, stars: { type: "long" } },
        },
      },
    },
  });
  await call(engine, "PUT", "/posts/_doc/1", {
    tag: "a",
    comments: [{ author: "x", stars: 1 }, { author: "y", stars: 5 }],
  });
  await call(engine, "PUT", "/posts/_doc/2", { tag: "b", comments: { author: "x", stars: 3 } });
  await call(engine, "PUT", "/posts/_doc/3?refresh=true", { tag: "b" });
  return engine;
}

Deno.test("objectsAt: objects under a dotted path, arrays flattened", () => {
  assert.equal(objectsAt({ a: [{ b: [{}, {}] }, { b: {} }] }, "a.b"), 3);
  assert.equal(objectsAt({ a: [1, null, {}] }, "a"), 1);
  assert.equal(objectsAt({}, "a"), 0);
});

Deno.test("global: every doc of the target whatever the query; only at the top level", async () => {
  const engine = await posts();
  const res = await call(engine, "POST", "/posts/_search", {
    size: 0,
    query: { term: { tag: "a" } },
    aggs: {
      all: { global: {}, aggs: { tags: { terms: { field: "tag" } } } },
      mine: { terms: { field: "tag" } },
    },
  });
  assert.equal(res.aggregations.all.doc_count, 3);
  assert.deepEqual(res.aggregations.all.tags.buckets.map((b: Json) => b.key), ["b", "a"]);
  assert.equal(res.aggregations.mine.buckets.length, 1);
  const inner = await call(engine, "POST", "/posts/_search", {
    aggs: { t: { terms: { field: "tag" }, aggs: { g: { global: {} } } } },
  });
  assert.equal(inner.code, 500);
  assert.match(JSON.stringify(inner.error), /global/);
  engine.close();
});

Deno.test("nested and reverse_nested: object counts, sub-aggregations, placement", async () => {
  const engine = await posts();
  const res = await call(engine, "POST", "/posts/_search", {
    size: 0,
    aggs: {
      c: {
        nested: { path: "comments" },
        aggs: {
          stars: { max: { field: "comments.stars" } },
          authors: {
            terms: { field: "comments.author" },
            aggs: { back: { reverse_nested: {}, aggs: { tags: { terms: { field: "tag" } } } } },
          },
        },
      },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  const c = res.aggregations.c;
  assert.equal(c.doc_count, 3);
  assert.equal(c.stars.value, 5);
  const x = c.authors.buckets.find((b: Json) => b.key === "x");
  assert.equal(x.back.doc_count, 2);
  assert.deepEqual(x.back.tags.buckets.map((b: Json) => b.key).sort(), ["a", "b"]);
  const noPath = await call(engine, "POST", "/posts/_search", { aggs: { c: { nested: {} } } });
  assert.equal(noPath.code, 400);
  const outside = await call(engine, "POST", "/posts/_search", {
    aggs: { r: { reverse_nested: {} } },
  });
  assert.equal(outside.code, 400);
  assert.match(JSON.stringify(outside.error), /can only be used inside a \[nested\]/);
  engine.close();
});
