import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("simple_query_string: parentheses nested past 1,000 levels fail the shard, not the engine", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/sq/_doc/1?refresh=true", { t: "fox" });
  const query = (n: number) => ({
    query: { simple_query_string: { query: "(".repeat(n) + "fox" + ")".repeat(n) } },
  });
  const fine = await call(engine, "POST", "/sq/_search", query(1000));
  assert.equal(fine.code, 200);
  assert.equal(fine.hits.total.value, 1);
  // Elasticsearch 9.5.4 at 20,000 levels (its own limit is its stack): 400
  // search_phase_execution_exception, root query_shard_exception "Failed to parse query [...]:
  // query is too deeply nested"; OpenSearch 3.8.0 refuses past 1,000 levels.
  for (const n of [1001, 20_000]) {
    const deep = await call(engine, "POST", "/sq/_search", query(n));
    assert.equal(deep.code, 400);
    assert.equal(deep.error.type, "search_phase_execution_exception");
    assert.equal(deep.error.root_cause[0].type, "query_shard_exception");
    assert.match(
      deep.error.root_cause[0].reason,
      /^Failed to parse query \[\(+fox\)+\]: query is too deeply nested$/,
    );
  }
  // Escaped parentheses are text, not groups.
  const escaped = await call(engine, "POST", "/sq/_search", {
    query: { simple_query_string: { query: "\\(".repeat(2000) + "fox" } },
  });
  assert.equal(escaped.code, 200);
});
