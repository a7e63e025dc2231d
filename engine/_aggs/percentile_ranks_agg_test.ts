import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";
import { rankOf } from "./percentile_ranks_agg.ts";

Deno.test("rankOf: centroids span half the distance to their neighbours", () => {
  const vs = [1, 51, 101, 151];
  // 50 sits in the second centroid's span [26, 76): one value below plus 24/50 of it.
  assert.equal(rankOf(vs, 50), (1 + 24 / 50) / 4);
  assert.equal(rankOf(vs, 99), (2 + 23 / 50) / 4);
  assert.equal(rankOf([51, 101, 151], 50), (24 / 50) / 3);
  assert.equal(rankOf(vs, 1000), 1);
  assert.equal(rankOf(vs, -1000), 0);
  assert.equal(rankOf([1, 1, 1], 0.5), 0);
  assert.equal(rankOf([1, 1, 1], 1), 1);
  assert.equal(rankOf([], 1), null);
});

Deno.test("percentile_ranks: keyed and not, missing, empty fields, invalid values", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/p", { mappings: { properties: { n: { type: "integer" } } } });
  for (const n of [1, 51, 101, 151]) await call(engine, "PUT", `/p/_doc/${n}`, { n });
  await call(engine, "POST", "/p/_refresh");
  const agg = async (body: Reply): Promise<Reply> => {
    const r = await call(engine, "POST", "/p/_search", {
      size: 0,
      aggs: { r: { percentile_ranks: body } },
    });
    return r.code === 200 ? r.aggregations.r : r;
  };
  assert.deepEqual(await agg({ field: "n", values: [99, 50] }), {
    values: { "50.0": 37, "99.0": 61.5 },
  });
  assert.deepEqual((await agg({ field: "n", values: [50], keyed: false })).values, [
    { key: 50, value: 37 },
  ]);
  assert.deepEqual(await agg({ field: "none", values: [50], missing: 1 }), {
    values: { "50.0": 100 },
  });
  assert.deepEqual(await agg({ field: "none", values: [50] }), { values: { "50.0": null } });
  for (const values of [[], null, ["foo"]]) {
    assert.equal((await agg({ field: "n", values })).code, 400);
  }
  engine.close();
});
