import assert from "node:assert/strict";
import {
  murmur3 as routingHash,
  shardFor,
  splitRoutingShards as defaultRoutingShards,
} from "../_index/routing.ts";
import { IndexState } from "./index_state.ts";

// Placements OpenSearch 3.8.0 gave these ids (`_search?explain=true` → `_shard`).
const REAL_3 = {
  "1": 2,
  "10": 1,
  "2": 1,
  "3": 1,
  "4": 1,
  "5": 0,
  "6": 2,
  "7": 0,
  "8": 2,
  "9": 2,
  abc: 0,
  "héllo": 2,
  "日本語x": 1,
};
const REAL_5 = {
  "1": 4,
  "10": 2,
  "2": 3,
  "3": 0,
  "4": 1,
  "5": 0,
  "6": 3,
  "7": 2,
  "8": 2,
  "9": 0,
  abc: 4,
  "héllo": 1,
  "日本語x": 3,
};

Deno.test("routing places ids on the shards the real engines place them", () => {
  for (const [id, shard] of Object.entries(REAL_3)) {
    assert.equal(shardFor(id, 3, defaultRoutingShards(3)), shard, `id ${id} over 3 shards`);
  }
  for (const [id, shard] of Object.entries(REAL_5)) {
    assert.equal(shardFor(id, 5, defaultRoutingShards(5)), shard, `id ${id} over 5 shards`);
  }
});

// Placements Elasticsearch 9.5.4 gave: the hash modulo the shard count.
const ES_2 = { "1": 1, "2": 1, "3": 0, "4": 1, "5": 1, "6": 1 };
const ES_5 = { "1": 3, "10": 1, "2": 2, "3": 4, "4": 2, "5": 1, "6": 2, "7": 3, "8": 1, abc: 4 };

Deno.test("routing places ids as Elasticsearch 9.5 places them", () => {
  for (const [id, shard] of Object.entries(ES_2)) assert.equal(shardFor(id, 2, 2), shard, id);
  for (const [id, shard] of Object.entries(ES_5)) assert.equal(shardFor(id, 5, 5), shard, id);
  const index = new IndexState("i", { "index.number_of_shards": "5" }, { properties: {} }, 0);
  assert.equal(index.shardOf("abc"), 4);
  // A split source (2 shards over 4 routing shards): Elasticsearch still put 1 and 2 together, 3
  // apart.
  const split = new IndexState(
    "s",
    { "index.number_of_shards": "2", "index.number_of_routing_shards": "4" },
    { properties: {} },
    0,
  );
  assert.deepEqual(["1", "2", "3"].map((id) => split.shardOf(id)), [1, 1, 0]);
  index.routesOverRoutingShards = true;
  assert.equal(index.shardOf("abc"), REAL_5.abc);
});

Deno.test("default routing shards: the largest shards * 2^k within 1024, at least one split", () => {
  assert.equal(defaultRoutingShards(1), 1024);
  assert.equal(defaultRoutingShards(3), 768);
  assert.equal(defaultRoutingShards(5), 640);
  assert.equal(defaultRoutingShards(1024), 2048);
});

Deno.test("the hash is a signed 32-bit value and differs by content", () => {
  const h = routingHash("abc");
  assert.equal(h, h | 0);
  assert.notEqual(routingHash("abc"), routingHash("abd"));
  assert.notEqual(routingHash(""), routingHash("a"));
});

Deno.test("sequence numbers count per shard from 0, as in the real engines", () => {
  const index = new IndexState("i", { "index.number_of_shards": "3" }, { properties: {} }, 0);
  index.routesOverRoutingShards = true;
  const seen: Record<string, number> = {};
  for (const id of ["1", "2", "3", "4", "5", "6"]) seen[id] = index.takeSeqNo(id);
  // OpenSearch: 1 → shard 2 (0), 2,3,4 → shard 1 (0,1,2), 5 → shard 0 (0), 6 → shard 2 (1).
  assert.deepEqual(seen, { "1": 0, "2": 0, "3": 1, "4": 2, "5": 0, "6": 1 });
  assert.equal(index.maxSeqNo(0), 0);
  assert.equal(index.maxSeqNo(1), 2);
  assert.equal(index.maxSeqNo(2), 1);
});
