// `action.auto_create_index` patterns on every write that may create an index: documents,
// `_bulk` items, `_update` upserts and the `_reindex` destination.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, failure } from "../../tests/support/engine_call.ts";

Deno.test("action.auto_create_index patterns decide which writes create an index", async () => {
  const engine = new Engine();
  const set = await call(engine, "PUT", "/_cluster/settings", {
    persistent: { "action.auto_create_index": "-logs-old*,+logs-*" },
  });
  assert.equal(set.code, 200);
  assert.equal((await call(engine, "PUT", "/logs-1/_doc/1", { a: 1 })).code, 201);
  assert.deepEqual(failure(await call(engine, "PUT", "/logs-old-1/_doc/1", { a: 1 })), [
    404,
    "index_not_found_exception",
    "no such index [logs-old-1] and [action.auto_create_index] contains [-logs-old*] which forbids automatic creation of the index",
  ]);
  const other = await call(engine, "POST", "/other/_update/1", { doc: {}, doc_as_upsert: true });
  assert.equal(
    other.error.reason,
    "no such index [other] and [action.auto_create_index] ([-logs-old*,+logs-*]) doesn't match",
  );
  const bulk = await call(
    engine,
    "POST",
    "/_bulk",
    '{"index":{"_index":"other","_id":"1"}}\n{}\n{"index":{"_index":"logs-2","_id":"1"}}\n{}\n',
  );
  assert.equal(bulk.items[0].index.status, 404);
  assert.equal(bulk.items[1].index.status, 201);
  const bad = await call(engine, "PUT", "/_cluster/settings", {
    transient: { "action.auto_create_index": "+" },
  });
  assert.equal(bad.code, 400);
  assert.match(bad.error.reason, /must contain an index name after \[\+\]/);
  assert.equal((await call(engine, "PUT", "/other/_doc/1", {})).code, 404, "old rule kept");
  await call(engine, "PUT", "/_cluster/settings", {
    persistent: { "action.auto_create_index": null },
  });
  assert.equal((await call(engine, "PUT", "/other/_doc/1", {})).code, 201, "reset to true");
  engine.close();
});

Deno.test("action.auto_create_index patterns also decide the _reindex destination", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/src/_doc/1?refresh=true", { a: 1 });
  await call(engine, "PUT", "/_cluster/settings", {
    persistent: { "action.auto_create_index": "copy-*" },
  });
  const refused = await call(engine, "POST", "/_reindex", {
    source: { index: "src" },
    dest: { index: "other" },
  });
  assert.deepEqual(failure(refused), [
    404,
    "index_not_found_exception",
    "no such index [other] and [action.auto_create_index] ([copy-*]) doesn't match",
  ]);
  const copied = await call(engine, "POST", "/_reindex?refresh=true", {
    source: { index: "src" },
    dest: { index: "copy-1" },
  });
  assert.equal(copied.created, 1);
  assert.equal((await call(engine, "GET", "/copy-1/_source/1")).a, 1);
  engine.close();
});
