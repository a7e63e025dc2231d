// `GET /_cluster/health?level=shards`: each shard's entry. Expected values are the answers of real
// Elasticsearch 9.5.4 and OpenSearch 3.8.0 (one node) to OpenSearch's `cluster.health` YAML test
// (an index `test_index` of one shard and one replica).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function shardEntry(flavour: "elasticsearch" | "opensearch"): Promise<unknown> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/test_index", {
    settings: { number_of_shards: 1, number_of_replicas: 1 },
  });
  const health = await call(engine, "GET", "/_cluster/health?level=shards");
  engine.close();
  return health.indices.test_index.shards["0"];
}

Deno.test("cluster health level=shards: Elasticsearch counts unassigned primaries per shard", async () => {
  assert.deepEqual(await shardEntry("elasticsearch"), {
    status: "yellow",
    primary_active: true,
    active_shards: 1,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: 1,
    unassigned_primary_shards: 0,
  });
});

Deno.test("cluster health level=shards: OpenSearch has no unassigned primaries field", async () => {
  assert.deepEqual(await shardEntry("opensearch"), {
    status: "yellow",
    primary_active: true,
    active_shards: 1,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: 1,
  });
});
