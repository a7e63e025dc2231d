import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { validateBulk } from "./bulk_validation.ts";

Deno.test("validateBulk: plain items pass; every item's problems gathered in order", () => {
  validateBulk([
    { op: "index", meta: { _index: "a", _id: "1" } },
    { op: "create", meta: { _index: "a" } },
    { op: "delete", meta: { _index: "a", _id: "2" } },
    { op: "update", meta: { _index: "a", _id: "3" }, source: { doc: {} } },
    { op: "index", meta: { _id: "4" } },
  ], "default");
  assert.throws(
    () =>
      validateBulk([
        { op: "index", meta: { _index: "a", _id: "1" } },
        { op: "index", meta: { _id: "x".repeat(513) } },
        { op: "delete", meta: { _index: "a" } },
        { op: "update", meta: { _index: "a", _id: "3", if_seq_no: 1 }, source: {} },
        { op: "index", meta: { _index: "a", version: 3, version_type: "external" } },
        { op: "index", meta: { _index: "a", _id: "5", pipeline: "" } },
        { op: "create", meta: { _index: "a", _id: "6", version: 2 } },
      ], undefined),
    {
      name: "EngineError",
      message: "Validation Failed: 1: index is missing;2: id [" + "x".repeat(513) +
        "] is too long, must be no longer than 512 bytes but was: 513;3: id is missing;" +
        "4: ifSeqNo is set, but primary term is [0];5: script or doc is missing;" +
        "6: an id must be provided if version type or value are set;" +
        "7: pipeline cannot be an empty string;" +
        "8: create operations do not support explicit versions. use index instead;",
    },
  );
});

Deno.test("_bulk: a request with an invalid item runs none of its items", async () => {
  const engine = new Engine();
  const res = await engine.fetch("http://engine/_bulk", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: '{"index":{"_index":"v","_id":"1"}}\n{"a":1}\n{"delete":{"_index":"v"}}\n',
  });
  const body = await res.json();
  assert.equal(res.status, 400);
  assert.equal(body.error.type, "action_request_validation_exception");
  assert.equal(body.error.reason, "Validation Failed: 1: id is missing;");
  const get = await engine.fetch("http://engine/v/_doc/1");
  assert.equal(get.status, 404);
  await get.body?.cancel();
  engine.close();
});

Deno.test("validateBulk: an update body with an unknown field fails the whole request", () => {
  assert.throws(
    () =>
      validateBulk([
        { op: "index", meta: { _index: "a", _id: "1" } },
        { op: "update", meta: { _index: "a", _id: "1" }, source: { doc: {}, dac: 1 } },
      ], undefined),
    { name: "EngineError", message: /\[UpdateRequest\] unknown field \[dac\]/ },
  );
});
