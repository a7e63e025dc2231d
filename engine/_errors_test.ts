import assert from "node:assert/strict";
import {
  EngineError,
  ERROR_TYPES,
  esError,
  illegalArgument,
  inOpenSearchTerms,
  jsonReadError,
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

Deno.test("errors: a JSON reader's failure, wrapped as Elasticsearch does, bare as OpenSearch does", () => {
  // Elasticsearch 9.5.4: x_content_parse_exception "[1:10] Unexpected character …" caused by
  // json_parse_exception; OpenSearch 3.8.0: json_parse_exception caused by stream_read_exception.
  const syntax = jsonReadError("syntax", "[1:10] Unexpected character ('}' (code 125))");
  assert.deepEqual(syntax.toCause(), {
    type: "x_content_parse_exception",
    reason: "[1:10] Unexpected character ('}' (code 125))",
    caused_by: { type: "json_parse_exception", reason: "Unexpected character ('}' (code 125))" },
  });
  assert.deepEqual(inOpenSearchTerms(syntax).toCause(), {
    type: "json_parse_exception",
    reason: "Unexpected character ('}' (code 125))",
    caused_by: { type: "stream_read_exception", reason: "Unexpected character ('}' (code 125))" },
  });
  const eof = jsonReadError("eof", "[1:12] Unexpected end-of-input");
  assert.equal(eof.type, "x_content_e_o_f_exception");
  assert.equal(eof.message, "[1:12] Unexpected end of file");
  assert.equal(eof.causedBy?.type, "json_e_o_f_exception");
  assert.equal(inOpenSearchTerms(eof).type, "unexpected_end_of_input_exception");
  // Beneath another exception, only the JSON reader's part changes.
  const doc = esError("mapper_parsing_exception", "failed to parse", {}, syntax);
  const told = inOpenSearchTerms(doc);
  assert.equal(told.type, "mapper_parsing_exception");
  assert.equal(told.causedBy?.type, "json_parse_exception");
  assert.equal(told.causedBy?.causedBy?.type, "stream_read_exception");
  // Anything else is returned as it is.
  const other = illegalArgument("x");
  assert.equal(inOpenSearchTerms(other), other);
});
