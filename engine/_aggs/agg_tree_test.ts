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

Deno.test("an unknown type is placed at its value and caused by the registry's refusal", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0 answer the same (reasons aside):
  // {"error":{"root_cause":[{"type":"parsing_exception","reason":"Unknown aggregation type
  // [no_such_agg]","line":1,"col":66}],"type":"parsing_exception","reason":"Unknown aggregation
  // type [no_such_agg]","line":1,"col":66,"caused_by":{"type":"named_object_not_found_exception",
  // "reason":"[1:66] unknown field [no_such_agg]"}},"status":400}
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/t", { mappings: { properties: { tag: { type: "keyword" } } } });
    const r = await call(engine, "POST", "/t/_search", {
      aggs: { a: { terms: { field: "tag" }, aggs: { b: { no_such_agg: {} } } } },
    });
    assert.equal(r.code, 400);
    assert.deepEqual(
      [r.error.type, r.error.line, r.error.col, r.error.caused_by.type],
      ["parsing_exception", 1, 66, "named_object_not_found_exception"],
    );
    assert.deepEqual(
      [r.error.root_cause[0].type, r.error.root_cause[0].line, r.error.root_cause[0].col],
      ["parsing_exception", 1, 66],
    );
    engine.close();
  }
});
