import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

type Json = Reply;

Deno.test("_stats: docs and store per index and in _all; metric filter; unknown metric refused", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/a/_doc/1", { x: 1 });
  await call(engine, "PUT", "/a/_doc/2", { x: 2 });
  await call(engine, "PUT", "/b/_doc/1?refresh=true", { x: 3 });
  await call(engine, "POST", "/a/_refresh");
  const all = await call(engine, "GET", "/_stats");
  assert.deepEqual(all._shards, { total: 2, successful: 2, failed: 0 });
  assert.equal(all._all.primaries.docs.count, 3);
  assert.equal(all.indices.a.primaries.docs.count, 2);
  assert.equal(all.indices.a.total.docs.count, 2);
  assert.ok(
    all.indices.a.primaries.store.size_in_bytes > all.indices.b.primaries.store.size_in_bytes,
  );
  assert.equal(all.indices.a.status, "open");
  assert.deepEqual(Object.keys(all.indices.a.primaries), ["docs", "store", "indexing", "search"]);
  const docs = await call(engine, "GET", "/b/_stats/docs");
  assert.deepEqual(Object.keys(docs.indices), ["b"]);
  assert.deepEqual(Object.keys(docs._all.total), ["docs"]);
  const bad = await call(engine, "GET", "/_stats/nope");
  assert.equal(bad.code, 400);
  assert.equal(bad.error.reason, "request [/_stats/nope] contains unrecognized metric: [nope]");
  const missing = await call(engine, "GET", "/zzz/_stats");
  assert.equal(missing.error.type, "index_not_found_exception");
  engine.close();
});
