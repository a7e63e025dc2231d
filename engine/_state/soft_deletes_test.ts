// `index.soft_deletes.enabled: false` at index creation. Expected values are the answers of real
// Elasticsearch 9.5.4 to OpenSearch's `indices.create/10_basic.yml :: Create index without soft
// deletes` (real OpenSearch 3.8.0 refuses it too; the OpenSearch flavour takes it, as that YAML
// test expects: tests/diff/known_differences.md).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("soft deletes: Elasticsearch refuses an index without them", async () => {
  const engine = new Engine({ flavour: "elasticsearch" });
  const res = await call(engine, "PUT", "/test_index", {
    settings: { "soft_deletes.enabled": false },
  });
  assert.equal(res.code, 400);
  const reason =
    "Creating indices with soft-deletes disabled is no longer supported. Please do not specify a value for setting [index.soft_deletes.enabled].";
  assert.deepEqual(res.error, {
    root_cause: [{ type: "illegal_argument_exception", reason }],
    type: "illegal_argument_exception",
    reason,
  });
  assert.equal((await call(engine, "HEAD", "/test_index")).code, 404);
  const kept = await call(engine, "PUT", "/kept", { settings: { "soft_deletes.enabled": true } });
  assert.equal(kept.code, 200);
  engine.close();
});

Deno.test("soft deletes: the OpenSearch flavour still takes soft_deletes.enabled false", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  const res = await call(engine, "PUT", "/test_index", {
    settings: { "soft_deletes.enabled": false },
  });
  assert.equal(res.code, 200);
  engine.close();
});
