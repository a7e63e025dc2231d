// `_cluster/state` against the sections Elasticsearch 9.5.4 and OpenSearch 3.8.0 answer on one node.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

Deno.test("cluster state: every section, or the metrics asked for, narrowed by index", async () => {
  const es = new Engine();
  await json(es, "PUT", "/a", { settings: { number_of_shards: 2 } });
  await json(es, "PUT", "/b", { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const all = (await json(es, "GET", "/_cluster/state")).body;
  assert.deepEqual(Object.keys(all), [
    "cluster_name",
    "cluster_uuid",
    "version",
    "state_uuid",
    "master_node",
    "blocks",
    "nodes",
    "metadata",
    "routing_table",
    "routing_nodes",
  ]);
  assert.deepEqual(Object.keys(all.metadata.indices), ["a", "b"]);
  assert.equal(all.metadata.indices.a.routing_num_shards, 1024);
  assert.equal(all.routing_table.indices.a.shards["1"][1].state, "UNASSIGNED");
  assert.equal(all.routing_nodes.unassigned.length, 2);
  const coordination = (await json(
    es,
    "GET",
    "/_cluster/state?filter_path=metadata.cluster_coordination.last_committed_config",
  )).body;
  assert.equal(coordination.metadata.cluster_coordination.last_committed_config.length, 1);
  const narrowed = (await json(es, "GET", "/_cluster/state/metadata/b")).body;
  assert.deepEqual(Object.keys(narrowed), ["cluster_name", "cluster_uuid", "metadata"]);
  assert.deepEqual(Object.keys(narrowed.metadata.indices), ["b"]);
  const unknown = (await json(es, "GET", "/_cluster/state/nonsense")).body;
  assert.deepEqual(Object.keys(unknown), ["cluster_name", "cluster_uuid"]);
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  const master = (await json(os, "GET", "/_cluster/state/master_node")).body;
  assert.equal(master.cluster_manager_node, master.master_node);
  os.close();
});
