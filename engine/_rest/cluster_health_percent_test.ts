// `active_shards_percent_as_number` of a cluster health asked about some indices. Expected values
// are the answers of real Elasticsearch 9.5.4 and OpenSearch 3.8.0 (one node) to the same requests.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function percents(flavour: "elasticsearch" | "opensearch"): Promise<number[]> {
  const engine = new Engine({ flavour });
  const create = (name: string, shards: number, replicas: number) =>
    call(engine, "PUT", `/${name}`, {
      settings: { number_of_shards: shards, number_of_replicas: replicas },
    });
  await create("h1", 1, 0);
  await create("h2", 2, 1);
  await create("h3", 1, 3);
  const out: number[] = [];
  for (const path of ["/h1", "/h2", "/h3", "/h1,h3", ""]) {
    out.push(
      (await call(engine, "GET", `/_cluster/health${path}`)).active_shards_percent_as_number,
    );
  }
  engine.close();
  return out;
}

Deno.test("cluster health percent: over the indices asked (Elasticsearch)", async () => {
  // real ES 9.5.4 answered 100.0, 50.0, 25.0 and 40.0 for h1, h2, h3 and h1,h3
  const [h1, h2, h3, h13, all] = await percents("elasticsearch");
  assert.deepEqual([h1, h2, h3, h13], [100, 50, 25, 40]);
  assert.equal(all, (4 / 9) * 100);
});

Deno.test("cluster health percent: 100 when green, else the whole cluster's (OpenSearch)", async () => {
  // real OS 3.8.0 with these three indices beside others: 100.0 for h1, and one figure (the
  // cluster's, 47.368421052631575 = 9 active of 19 there) for h2, h3, h1,h3 and the cluster
  const all = (4 / 9) * 100;
  assert.deepEqual(await percents("opensearch"), [100, all, all, all, all]);
});
