import assert from "node:assert/strict";
import { operatorOf } from "./query_parse_util.ts";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("operatorOf: or and and in any case; anything else as Java's Operator.valueOf fails", () => {
  assert.equal(operatorOf(undefined, "match"), "or");
  assert.equal(operatorOf("AND", "match"), "and");
  assert.equal(operatorOf("Or", "match"), "or");
  assert.throws(
    () => operatorOf("xor", "match"),
    (e: Error & { type?: string }) =>
      e.type === "illegal_argument_exception" &&
      e.message === "No enum constant org.elasticsearch.index.query.Operator.XOR",
  );
});

Deno.test("a bad operator of match, multi_match, query_string, simple_query_string is a 400", async () => {
  // Real Elasticsearch 9.5.4: {"error":{"root_cause":[{"type":"illegal_argument_exception",
  // "reason":"No enum constant org.elasticsearch.index.query.Operator.XOR"}],"type":
  // "illegal_argument_exception","reason":"No enum constant
  // org.elasticsearch.index.query.Operator.XOR"},"status":400}; OpenSearch 3.8.0 the same with
  // org.opensearch.
  const engine = new Engine();
  await call(engine, "PUT", "/q/_doc/1?refresh=true", { title: "x" });
  for (
    const query of [
      { match: { title: { query: "x", operator: "xor" } } },
      { multi_match: { query: "x", operator: "xor" } },
      { query_string: { query: "x", default_operator: "xor" } },
      { simple_query_string: { query: "x", default_operator: "xor" } },
    ]
  ) {
    const r = await call(engine, "POST", "/q/_search", { query });
    assert.deepEqual([r.code, r.error.type], [400, "illegal_argument_exception"]);
  }
  const and = await call(engine, "POST", "/q/_search", {
    query: { match: { title: { query: "x", operator: "AND" } } },
  });
  assert.equal(and.hits.total.value, 1);
  engine.close();
});
