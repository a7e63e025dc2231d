// The one-node informational APIs against answers recorded from real Elasticsearch 9.5.4 and
// OpenSearch 3.8.0.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

Deno.test("cluster info: empty _cat tables keep their header", async () => {
  const engine = new Engine();
  const text = async (path: string) => await (await engine.fetch(`http://e${path}`)).text();
  assert.equal(await text("/_cat/pending_tasks?v"), "insertOrder timeInQueue priority source\n");
  assert.equal(await text("/_cat/repositories?v"), "id type\n");
  assert.deepEqual((await json(engine, "GET", "/_cat/plugins?format=json")).body, []);
  assert.deepEqual((await json(engine, "GET", "/_cat/templates?format=json")).body, []);
  const nodeattrs = (await json(engine, "GET", "/_cat/nodeattrs?format=json")).body;
  assert.deepEqual(nodeattrs[0].attr, "xpack.installed");
  engine.close();
});

Deno.test("cluster info: snapshots need a repository that exists", async () => {
  const es = new Engine();
  assert.deepEqual((await json(es, "GET", "/_cat/snapshots?format=json")).body, []);
  const missing = await json(es, "GET", "/_cat/snapshots/repo1?format=json");
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, "repository_missing_exception");
  assert.equal(missing.body.error.reason, "[repo1] missing");
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  const none = await json(os, "GET", "/_cat/snapshots?format=json");
  assert.equal(none.body.error.reason, "Validation Failed: 1: repository is missing;");
  os.close();
});

Deno.test("cluster info: reroute, pending tasks, remote info, dangling", async () => {
  const engine = new Engine();
  assert.deepEqual((await json(engine, "POST", "/_cluster/reroute")).body, { acknowledged: true });
  const other = await json(engine, "POST", "/_cluster/reroute?metric=none", {
    commands: [{ move: { index: "t", shard: 0, from_node: "node1", to_node: "node2" } }],
  });
  assert.equal(other.status, 400);
  assert.equal(other.body.error.reason, "failed to resolve [node1], no matching nodes");
  assert.deepEqual((await json(engine, "GET", "/_cluster/pending_tasks")).body, { tasks: [] });
  assert.deepEqual((await json(engine, "GET", "/_remote/info")).body, {});
  assert.deepEqual((await json(engine, "GET", "/_dangling")).body.dangling_indices, []);
  const stats = (await json(engine, "GET", "/_stats")).body;
  assert.deepEqual(stats._all, { primaries: {}, total: {} });
  engine.close();
});

Deno.test("cluster info: _cache/clear counts shards and refuses missing indices", async () => {
  const engine = new Engine();
  await json(engine, "PUT", "/cc", { settings: { number_of_shards: 2 } });
  assert.deepEqual((await json(engine, "POST", "/cc/_cache/clear?query=true")).body, {
    _shards: { total: 4, successful: 2, failed: 0 },
  });
  assert.equal((await json(engine, "POST", "/cc,nope/_cache/clear")).status, 404);
  const bad = await json(engine, "POST", "/_cache/clear?x=1");
  assert.equal(
    bad.body.error.reason,
    "request [/_cache/clear] contains unrecognized parameter: [x]",
  );
  engine.close();
});
