import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { exchange } from "../../tests/support/engine_call.ts";

Deno.test("_forcemerge merges down to max_num_segments, counts in _stats merges, answers _shards", async () => {
  const engine = new Engine();
  for (let i = 0; i < 10; i++) {
    await exchange(engine, "PUT", `/a/_doc/${i}?refresh=true`, { t: `w${i}` });
  }
  const segments = async () =>
    (await exchange(engine, "GET", "/a/_stats/segments")).body._all.primaries.segments.count;
  assert.equal(await segments(), 10);
  const merged = await exchange(engine, "POST", "/a/_forcemerge?max_num_segments=1");
  assert.equal(merged.status, 200);
  assert.deepEqual(merged.body, { _shards: { total: 2, successful: 1, failed: 0 } });
  assert.equal(await segments(), 1);
  const stats = (await exchange(engine, "GET", "/a/_stats/merge")).body._all.primaries.merges;
  assert.equal(stats.total, 1);
  assert.equal(stats.total_docs, 10);
  assert.equal(stats.current, 0);
  const hits = (await exchange(engine, "GET", "/a/_search?q=t:w3")).body.hits.hits;
  assert.deepEqual(hits.map((h: { _id: string }) => h._id), ["3"]);
  // Deletions are expunged on request.
  await exchange(engine, "DELETE", "/a/_doc/3?refresh=true");
  await exchange(engine, "POST", "/a/_forcemerge?only_expunge_deletes=true");
  const docs = (await exchange(engine, "GET", "/a/_stats/docs")).body._all.primaries.docs;
  assert.deepEqual([docs.count, docs.deleted], [9, 0]);
});

Deno.test("_forcemerge refuses both only_expunge_deletes and max_num_segments, and bad numbers", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/a");
  const both = await exchange(
    engine,
    "POST",
    "/a/_forcemerge?max_num_segments=1&only_expunge_deletes",
  );
  assert.equal(both.status, 400);
  assert.equal(both.body.error.type, "action_request_validation_exception");
  assert.match(both.body.error.reason, /only_expunge_deletes and max_num_segments/);
  const bad = await exchange(engine, "POST", "/a/_forcemerge?max_num_segments=x");
  assert.equal(bad.status, 400);
  assert.match(bad.body.error.reason, /max_num_segments/);
  assert.equal((await exchange(engine, "POST", "/missing/_forcemerge")).status, 404);
});
