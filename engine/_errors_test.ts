import assert from "node:assert/strict";
import {
  EngineError,
  ERROR_TYPES,
  esError,
  illegalArgument,
  resourceNotFound,
  validationFailed,
  xContentParseError,
} from "./_errors.ts";

Deno.test("errors: each type carries the status of the one table", () => {
  for (const [type, status] of Object.entries(ERROR_TYPES)) {
    const e = esError(type as keyof typeof ERROR_TYPES, "why");
    assert.equal(e.status, status, type);
    assert.equal(e.type, type);
  }
  assert.equal(ERROR_TYPES.index_not_found_exception, 404);
  assert.equal(ERROR_TYPES.version_conflict_engine_exception, 409);
  assert.equal(ERROR_TYPES.too_many_scroll_contexts_exception, 429);
});

Deno.test("errors: typed constructors word their reasons like Elasticsearch", () => {
  assert.equal(
    validationFailed("source is missing", "content type is missing").message,
    "Validation Failed: 1: source is missing;2: content type is missing;",
  );
  assert.equal(illegalArgument("x").status, 400);
  assert.equal(resourceNotFound("gone").status, 404);
  assert.equal(xContentParseError("bad").type, "x_content_parse_exception");
  const shard = esError(
    "query_shard_exception",
    "failed to create query: x",
    {},
    illegalArgument("x"),
  );
  const phase = new EngineError(
    400,
    "search_phase_execution_exception",
    "all shards failed",
    { causedBy: shard },
  );
  // The deepest of Elasticsearch's own exceptions is the root cause; Java's stay its cause.
  assert.deepEqual((phase.toBody().error as { root_cause: unknown }).root_cause, [
    { type: "query_shard_exception", reason: "failed to create query: x" },
  ]);
});
