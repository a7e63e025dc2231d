import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function products(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/shop", {
    mappings: {
      properties: {
        name: { type: "keyword" },
        offers: {
          type: "nested",
          properties: {
            seller: { type: "keyword" },
            price: { type: "double" },
            bids: { type: "nested", properties: { amount: { type: "long" } } },
          },
        },
      },
    },
  });
  await call(engine, "PUT", "/shop/_doc/a", {
    name: "a",
    offers: [
      { seller: "x", price: 30, bids: [{ amount: 7 }] },
      { seller: "y", price: 10, bids: [{ amount: 1 }, { amount: 9 }] },
    ],
  });
  await call(engine, "PUT", "/shop/_doc/b", {
    name: "b",
    offers: [{ seller: "x", price: 20, bids: { amount: 4 } }],
  });
  await call(engine, "PUT", "/shop/_doc/c?refresh=true", { name: "c" });
  return engine;
}

const order = async (engine: Engine, sort: unknown): Promise<unknown[][]> => {
  const res = await call(engine, "POST", "/shop/_search", { sort });
  assert.equal(res.code, 200, JSON.stringify(res));
  return res.hits.hits.map((h: Reply) => [h._id, ...h.sort]);
};

Deno.test("nested sort: values from the objects under the path, by mode, with a filter", async () => {
  const engine = await products();
  const nested = { path: "offers" };
  assert.deepEqual(
    await order(engine, [{ "offers.price": { order: "asc", nested } }]),
    [["a", 10], ["b", 20], ["c", "Infinity"]],
  );
  assert.deepEqual(
    await order(engine, [{ "offers.price": { order: "desc", nested } }]),
    [["a", 30], ["b", 20], ["c", "-Infinity"]],
  );
  assert.deepEqual(
    await order(engine, [{ "offers.price": { order: "asc", mode: "sum", nested } }]),
    [["b", 20], ["a", 40], ["c", "Infinity"]],
  );
  // Only seller x's offers count: a's is 30 now.
  const onlyX = { path: "offers", filter: { term: { "offers.seller": "x" } } };
  assert.deepEqual(
    await order(engine, [{ "offers.price": { order: "asc", nested: onlyX } }]),
    [["b", 20], ["a", 30], ["c", "Infinity"]],
  );
});

Deno.test("nested sort: two levels, and a nested field without the nested context is refused", async () => {
  const engine = await products();
  const deep = {
    path: "offers",
    filter: { term: { "offers.seller": "x" } },
    nested: { path: "offers.bids" },
  };
  const rows = await order(engine, [{ "offers.bids.amount": { order: "desc", nested: deep } }]);
  // a's seller-x offer has one bid of 7 (its 9 belongs to seller y); c has none and comes last.
  assert.deepEqual(rows.map((r) => r[0]), ["a", "b", "c"]);
  assert.deepEqual(rows.slice(0, 2).map((r) => r[1]), [7, 4]);
  const refused = await call(engine, "POST", "/shop/_search", {
    sort: [{ "offers.price": "asc" }],
  });
  assert.equal(refused.code, 400);
  assert.equal(refused.error.root_cause[0].type, "query_shard_exception");
  assert.equal(
    refused.error.root_cause[0].reason,
    "it is mandatory to set the [nested] context on the nested sort field: [offers.price].",
  );
});
