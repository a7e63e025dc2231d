// Hits of a multi-shard index with `index.number_of_routing_shards` set: each document's shard (and
// so the order of equal scores) follows the setting. Expected values are the answers of real
// OpenSearch 3.8.0 and Elasticsearch 9.5.4 to OpenSearch's `delete/50_refresh.yml` setup (five
// shards, documents 1 and 3), asked with `explain: true` for `_shard`.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function shards(
  flavour: "elasticsearch" | "opensearch",
  settings: Record<string, unknown>,
): Promise<string[]> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/probe", { settings: { number_of_shards: 5, ...settings } });
  await call(engine, "PUT", "/probe/_doc/1?refresh=true", { foo: "bar" });
  await call(engine, "PUT", "/probe/_doc/3?refresh=true", { foo: "bar" });
  const res = await call(engine, "POST", "/probe/_search", {
    query: { terms: { _id: [1, 3] } },
    explain: true,
  });
  engine.close();
  return res.hits.hits.map((h: { _id: string; _shard: string }) => `${h._id}@${h._shard}`);
}

Deno.test("routing shards: OpenSearch places and orders by the index's setting", async () => {
  assert.deepEqual(await shards("opensearch", { number_of_routing_shards: 5 }), [
    "1@[probe][3]",
    "3@[probe][4]",
  ]);
  assert.deepEqual(await shards("opensearch", {}), ["3@[probe][0]", "1@[probe][4]"]);
});

Deno.test("routing shards: Elasticsearch routes modulo the shards either way", async () => {
  const expected = ["1@[probe][3]", "3@[probe][4]"];
  assert.deepEqual(await shards("elasticsearch", { number_of_routing_shards: 5 }), expected);
  assert.deepEqual(await shards("elasticsearch", {}), expected);
});
