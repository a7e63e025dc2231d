import assert from "node:assert/strict";
import { shardFor, splitRoutingShards } from "./routing.ts";

// Where the real engines put ids "0".."29" (asked with `preference=_shards:N`).
const PLACED = {
  "Elasticsearch 9.5.4, 3 shards": [3, 3, [
    [0, 2, 4, 5, 6, 7, 11, 13, 18, 20, 21, 24, 28],
    [8, 12, 14, 15, 16, 17, 26, 29],
    [1, 3, 9, 10, 19, 22, 23, 25, 27],
  ]],
  "Elasticsearch 9.5.4, 5 shards": [5, 5, [
    [0, 14, 19, 22, 24, 25, 26, 29],
    [5, 8, 9, 10, 12, 21],
    [2, 4, 6, 15, 20, 27],
    [1, 7, 13, 16, 18, 28],
    [3, 11, 17, 23],
  ]],
  "OpenSearch 3.8.0, 3 shards": [3, splitRoutingShards(3), [
    [5, 7, 13, 22, 24, 26],
    [0, 2, 3, 4, 10, 12, 14, 15, 19, 20, 21, 23, 28],
    [1, 6, 8, 9, 11, 16, 17, 18, 25, 27, 29],
  ]],
} as const;

Deno.test("shardFor: ids land on the shards the real engines put them on", () => {
  for (const [name, [shards, routingShards, placed]] of Object.entries(PLACED)) {
    placed.forEach((ids, shard) => {
      for (const id of ids) assert.equal(shardFor(String(id), shards, routingShards), shard, name);
    });
  }
  assert.equal(shardFor("anything", 1, 1), 0);
});

Deno.test("splitRoutingShards: doubled up to 1024, at least once", () => {
  assert.deepEqual([1, 2, 3, 5, 512, 1000].map(splitRoutingShards), [
    1024,
    1024,
    768,
    640,
    1024,
    2000,
  ]);
});
