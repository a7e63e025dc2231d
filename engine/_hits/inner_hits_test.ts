import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function posts(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/posts", {
    mappings: {
      properties: {
        title: { type: "text" },
        comments: {
          type: "nested",
          properties: { author: { type: "keyword" }, stars: { type: "integer" } },
        },
      },
    },
  });
  await call(engine, "PUT", "/posts/_doc/1", {
    title: "one",
    comments: [
      { author: "ann", stars: 5 },
      { author: "bob", stars: 1 },
      { author: "ann", stars: 2 },
    ],
  });
  await call(engine, "PUT", "/posts/_doc/2?refresh=true", {
    title: "two",
    comments: { author: "bob", stars: 4 },
  });
  return engine;
}

const nested = (query: unknown, innerHits: unknown = {}) => ({
  query: { nested: { path: "comments", query, inner_hits: innerHits } },
});

Deno.test("inner_hits: each hit lists its matching nested objects with _nested offsets", async () => {
  const engine = await posts();
  const res = await call(
    engine,
    "POST",
    "/posts/_search",
    nested({ term: { "comments.author": "ann" } }),
  );
  assert.equal(res.hits.total.value, 1);
  const inner = res.hits.hits[0].inner_hits.comments.hits;
  assert.equal(inner.total.value, 2);
  assert.deepEqual(
    inner.hits.map((h: Reply) => [h._id, h._nested, h._source]),
    [
      ["1", { field: "comments", offset: 0 }, { author: "ann", stars: 5 }],
      ["1", { field: "comments", offset: 2 }, { author: "ann", stars: 2 }],
    ],
  );
});

Deno.test("inner_hits: conditions hold per object, a single object, name, size and from", async () => {
  const engine = await posts();
  // ann with 1 star exists in no single object, though doc 1 holds both values flat.
  const same = await call(
    engine,
    "POST",
    "/posts/_search",
    nested({
      bool: {
        filter: [{ term: { "comments.author": "bob" } }, {
          range: { "comments.stars": { gte: 2 } },
        }],
      },
    }, { name: "good_bob", _source: ["comments.stars"] }),
  );
  const byId = Object.fromEntries(
    same.hits.hits.map((h: Reply) => [h._id, h.inner_hits.good_bob.hits]),
  );
  assert.equal(byId["1"], undefined, "no single object of doc 1 is bob with 2+ stars");
  assert.deepEqual(byId["2"].hits[0]._nested, { field: "comments", offset: 0 });
  assert.deepEqual(byId["2"].hits[0]._source, { stars: 4 });
  const paged = await call(
    engine,
    "POST",
    "/posts/_search",
    nested({ range: { "comments.stars": { gte: 1 } } }, { size: 1, from: 1 }),
  );
  const one = paged.hits.hits.find((h: Reply) => h._id === "1").inner_hits.comments.hits;
  assert.equal(one.total.value, 3);
  assert.equal(one.hits.length, 1);
  assert.equal(one.hits[0]._nested.offset, 1);
});
