import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("by-query: from, stored_fields, a missing query and remote indices are validation problems", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/test/_doc/1?refresh=true", { text: "test" });
  const cases: Array<[string, unknown, string]> = [
    [
      "/test/_delete_by_query",
      { query: { match_all: {} }, from: 2 },
      "1: from is not supported in this context;",
    ],
    [
      "/test/_update_by_query",
      { stored_fields: ["_id"] },
      "1: stored_fields is not supported in this context;",
    ],
    [
      "/test/_delete_by_query",
      { from: 1 },
      "1: from is not supported in this context;2: query is missing;",
    ],
    [
      "/remote:test/_delete_by_query",
      { query: { match_all: {} } },
      "1: Cross-cluster calls are not supported in this context but remote indices were requested: [remote:test];",
    ],
  ];
  for (const [path, body, problems] of cases) {
    const res = await call(engine, "POST", path, body);
    assert.equal(res.code, 400, path);
    assert.equal(res.error.type, "action_request_validation_exception");
    assert.equal(res.error.reason, `Validation Failed: ${problems}`);
  }
  assert.equal((await call(engine, "GET", "/test/_count")).count, 1);
  engine.close();
});
