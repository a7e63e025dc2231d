import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("_nodes/stats: the one node's indices section sums what _stats counts; levels; metric checks", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/a/_doc/1?refresh=true", { x: 1 });
  await call(engine, "PUT", "/b", { settings: { number_of_shards: 2 } });
  await call(engine, "PUT", "/b/_doc/1?refresh=true", { x: 2 });
  await call(engine, "POST", "/a,b/_search", {});
  const all = await call(engine, "GET", "/_nodes/stats");
  assert.deepEqual(all._nodes, { total: 1, successful: 1, failed: 0 });
  const [id] = Object.keys(all.nodes);
  const node = all.nodes[id!];
  assert.equal(node.name, "searchvisitor");
  assert.equal(node.indices.docs.count, 2);
  assert.equal(node.indices.indexing.index_total, 2);
  assert.equal(node.indices.search.query_total, 3); // one per shard
  assert.equal(node.indices.shard_stats.total_count, 3);
  const stats = await call(engine, "GET", "/_stats");
  assert.deepEqual(node.indices.indexing, stats._all.primaries.indexing);
  const byIndex = await call(engine, "GET", "/_nodes/stats/indices/docs?level=indices");
  const indices = byIndex.nodes[id!].indices;
  assert.deepEqual(Object.keys(indices), ["docs", "indices"]);
  assert.equal(indices.indices.b.docs.count, 1);
  const shards = await call(engine, "GET", "/_nodes/_local/stats/indices/docs?level=shards");
  assert.equal(shards.nodes[id!].indices.shards.b.length, 2);
  const jvm = await call(engine, "GET", "/_nodes/stats/jvm");
  assert.equal(jvm.nodes[id!].indices, undefined);
  const other = await call(engine, "GET", "/_nodes/other/stats");
  assert.deepEqual(other.nodes, {});
  const bad = await call(engine, "GET", "/_nodes/stats/indices/fieldata");
  assert.equal(
    bad.error.reason,
    "request [/_nodes/stats/indices/fieldata] contains unrecognized index metric: [fieldata] -> did you mean [fielddata]?",
  );
  assert.equal((await call(engine, "GET", "/_nodes/stats?level=cluster")).code, 400);
  engine.close();
});
