import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";
import { checkAggTree } from "./agg_tree.ts";

Deno.test("checkAggTree: unknown types with Elasticsearch's suggestions; shapes refused", () => {
  const known = ["terms", "max", "min", "avg"];
  assert.throws(
    () => checkAggTree({ a: { trms: {} } }, known),
    /\[trms\] did you mean \[terms\]\?/,
  );
  assert.throws(() => checkAggTree({ a: { mxa: {} } }, known), /Unknown aggregation type \[mxa\]$/);
  assert.throws(
    () => checkAggTree({ a: { terms: {}, aggs: { b: { avgg: {} } } } }, known),
    /\[avgg\] did you mean \[avg\]\?/,
  );
  assert.throws(() => checkAggTree({ a: "terms" }, known), /Expected \[START_OBJECT\]/);
  assert.throws(() => checkAggTree({ a: { meta: {} } }, known), /Missing definition/);
});

Deno.test("aggregations are parsed before the index is resolved and before any bucket runs", async () => {
  const engine = new Engine();
  const missing = await call(engine, "POST", "/missing/_search", { aggs: { a: { bogus: {} } } });
  assert.deepEqual([missing.code, missing.error.type], [400, "parsing_exception"]);
  await call(engine, "PUT", "/empty");
  const deep = await call(engine, "POST", "/empty/_search", {
    aggs: { t: { terms: { field: "x" }, aggs: { b: { trms: {} } } } },
  });
  assert.equal(deep.code, 400);
  assert.equal(deep.error.reason, "Unknown aggregation type [trms] did you mean [terms]?");
  engine.close();
});
