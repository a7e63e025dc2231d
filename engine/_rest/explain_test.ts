import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("_explain with q: the id still picks the document (404 when it does not exist)", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/t", { mappings: { properties: { title: { type: "text" } } } });
  await call(engine, "PUT", "/t/_doc/1", { title: "time clocks" });
  await call(engine, "PUT", "/t/_doc/2?refresh=true", { title: "other" });
  const hit = await call(engine, "GET", "/t/_explain/1?q=title:time");
  assert.equal(hit.code, 200);
  assert.equal(hit.matched, true);
  assert.ok(hit.explanation.value > 0);
  const other = await call(engine, "GET", "/t/_explain/2?q=title:time");
  assert.deepEqual([other.code, other.matched], [200, false]);
  const missing = await call(engine, "GET", "/t/_explain/3?q=title:time");
  assert.deepEqual(missing, { _index: "t", _id: "3", matched: false, code: 404 });
  engine.close();
});

Deno.test("explain: a query the shard cannot build fails as its query_shard_exception", async () => {
  // Real Elasticsearch 9.5.4: a date range mixing epoch millis and text fails with the shard's
  // own exception, not the search's all-shards-failed wrapper.
  const engine = new Engine();
  await call(engine, "PUT", "/d", { mappings: { properties: { when: { type: "date" } } } });
  await call(engine, "PUT", "/d/_doc/1?refresh=true", { when: "2020-01-01T00:00:00Z" });
  const r = await call(engine, "POST", "/d/_explain/1", {
    query: { range: { when: { gte: 946684800000, lt: "2024-01-01T00:00:00Z" } } },
  });
  const why = "failed to parse date field [2024-01-01T00:00:00Z] with format [epoch_millis]";
  assert.equal(r.code, 400);
  const error = r.error as Record<string, unknown>;
  assert.equal(error.type, "query_shard_exception");
  assert.equal(error.reason, `failed to create query: ${why}: [${why}]`);
  assert.equal(error.index, "d");
  assert.equal(typeof error.index_uuid, "string");
  const cause = error.caused_by as { type: string; caused_by: { type: string } };
  assert.deepEqual([cause.type, cause.caused_by.type], [
    "parse_exception",
    "illegal_argument_exception",
  ]);
  assert.equal(error.phase, undefined);
  engine.close();
});
