import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

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

async function shop(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/shop", {
    mappings: {
      properties: {
        shop: { type: "keyword" },
        items: {
          type: "nested",
          properties: {
            sku: { type: "keyword" },
            price: { type: "long" },
            reviews: { type: "nested", properties: { stars: { type: "long" } } },
          },
        },
      },
    },
  });
  await call(engine, "PUT", "/shop/_doc/1", {
    shop: "north",
    items: [
      { sku: "a", price: 10, reviews: [{ stars: 5 }, { stars: 4 }] },
      { sku: "b", price: 30, reviews: [{ stars: 1 }] },
    ],
  });
  await call(engine, "PUT", "/shop/_doc/2", {
    shop: "south",
    items: [{ sku: "a", price: 20 }, { sku: "a", price: 40, reviews: { stars: 2 } }],
  });
  await call(engine, "PUT", "/shop/_doc/3?refresh=true", { shop: "east" });
  return engine;
}

Deno.test("nested aggregation: sub-aggregations count and read each object on its own", async () => {
  const engine = await shop();
  const res = await call(engine, "POST", "/shop/_search", {
    size: 0,
    aggs: {
      items: {
        nested: { path: "items" },
        aggs: {
          skus: {
            terms: { field: "items.sku" },
            aggs: { total: { sum: { field: "items.price" } } },
          },
          // sku a priced 30 or more exists only as one object of doc 2 (doc 1 has a at 10, b at 30).
          dear_a: {
            filter: {
              bool: {
                filter: [{ term: { "items.sku": "a" } }, { range: { "items.price": { gte: 30 } } }],
              },
            },
          },
          avg: { avg: { field: "items.price" } },
        },
      },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  const items = res.aggregations.items;
  assert.equal(items.doc_count, 4);
  assert.deepEqual(
    items.skus.buckets.map((b: Json) => [b.key, b.doc_count, b.total.value]),
    [["a", 3, 70], ["b", 1, 30]],
  );
  assert.equal(items.dear_a.doc_count, 1);
  assert.equal(items.avg.value, 25);
  engine.close();
});

Deno.test("nested aggregation: multi-level, reverse_nested to the root and to an outer path", async () => {
  const engine = await shop();
  const res = await call(engine, "POST", "/shop/_search", {
    size: 0,
    query: { term: { shop: "north" } },
    aggs: {
      items: {
        nested: { path: "items" },
        aggs: {
          reviews: {
            nested: { path: "items.reviews" },
            aggs: {
              stars: {
                terms: { field: "items.reviews.stars", order: { _key: "asc" } },
                aggs: {
                  item: {
                    reverse_nested: { path: "items" },
                    aggs: { skus: { terms: { field: "items.sku" } } },
                  },
                  root: { reverse_nested: {}, aggs: { shops: { terms: { field: "shop" } } } },
                },
              },
            },
          },
        },
      },
      direct: {
        nested: { path: "items.reviews" },
        aggs: { max: { max: { field: "items.reviews.stars" } } },
      },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  const reviews = res.aggregations.items.reviews;
  assert.equal(reviews.doc_count, 3);
  assert.deepEqual(
    reviews.stars.buckets.map((b: Json) => [
      b.key,
      b.item.doc_count,
      b.item.skus.buckets.map((s: Json) => s.key),
      b.root.doc_count,
      b.root.shops.buckets.map((s: Json) => s.key),
    ]),
    [[1, 1, ["b"], 1, ["north"]], [4, 1, ["a"], 1, ["north"]], [5, 1, ["a"], 1, ["north"]]],
  );
  assert.equal(res.aggregations.direct.doc_count, 3);
  assert.equal(res.aggregations.direct.max.value, 5);
  engine.close();
});

Deno.test("nested aggregation: inside a terms bucket, and an unmapped path is empty", async () => {
  const engine = await shop();
  const res = await call(engine, "POST", "/shop/_search", {
    size: 0,
    aggs: {
      shops: {
        terms: { field: "shop", order: { _key: "asc" } },
        aggs: {
          items: { nested: { path: "items" }, aggs: { max: { max: { field: "items.price" } } } },
        },
      },
      none: { nested: { path: "nope" }, aggs: { n: { value_count: { field: "nope.x" } } } },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  assert.deepEqual(
    res.aggregations.shops.buckets.map((b: Json) => [b.key, b.items.doc_count, b.items.max.value]),
    [["east", 0, null], ["north", 2, 30], ["south", 2, 40]],
  );
  assert.deepEqual(res.aggregations.none, { doc_count: 0, n: { value: 0 } });
  engine.close();
});

Deno.test("nested aggregation: top_hits shows the objects with _nested", async () => {
  const engine = await shop();
  const res = await call(engine, "POST", "/shop/_search", {
    size: 0,
    query: { term: { shop: "north" } },
    aggs: {
      items: {
        nested: { path: "items" },
        aggs: {
          dear: {
            top_hits: { size: 1, sort: [{ "items.price": "desc" }], _source: ["items.sku"] },
          },
          reviews: {
            nested: { path: "items.reviews" },
            aggs: { best: { top_hits: { size: 1, sort: [{ "items.reviews.stars": "desc" }] } } },
          },
        },
      },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  const dear = res.aggregations.items.dear.hits;
  assert.equal(dear.total.value, 2);
  assert.deepEqual(dear.hits[0]._nested, { field: "items", offset: 1 });
  assert.deepEqual(dear.hits[0]._source, { sku: "b" });
  assert.equal(dear.hits[0]._id, "1");
  const best = res.aggregations.items.reviews.best.hits.hits[0];
  assert.deepEqual(best._nested, {
    field: "items",
    offset: 0,
    _nested: { field: "reviews", offset: 0 },
  });
  assert.deepEqual(best._source, { stars: 5 });
  engine.close();
});

Deno.test("top_hits outside a nested aggregation: a nested field sorts as missing", async () => {
  const engine = await shop();
  const res = await call(engine, "POST", "/shop/_search", {
    size: 0,
    aggs: { all: { top_hits: { size: 3, sort: [{ "items.price": "desc" }] } } },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  assert.deepEqual(res.aggregations.all.hits.hits.map((h: Json) => h._id), ["1", "2", "3"]);
  engine.close();
});
