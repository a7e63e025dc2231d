// Allocation explain, the health report and terms enum against answers recorded from
// Elasticsearch 9.5.4 on one node.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

Deno.test("allocation explain: a started primary, an unassigned replica, errors", async () => {
  const es = new Engine();
  const none = await json(es, "GET", "/_cluster/allocation/explain");
  assert.equal(none.status, 400);
  assert.match(none.body.error.reason, /^There are no unassigned shards in this cluster/);
  await json(es, "PUT", "/solo", { settings: { number_of_shards: 3, number_of_replicas: 0 } });
  const started = (await json(es, "POST", "/_cluster/allocation/explain", {
    index: "solo",
    shard: 0,
    primary: true,
  })).body;
  assert.equal(started.current_state, "started");
  assert.equal(started.can_remain_on_current_node, "yes");
  assert.equal(started.current_node.weight_ranking, 1);
  const missing = await json(es, "POST", "/_cluster/allocation/explain", {
    index: "solo",
    shard: 7,
    primary: true,
  });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, "shard_not_found_exception");
  assert.equal(missing.body.error.shard, "7");
  const nope = await json(es, "POST", "/_cluster/allocation/explain", { index: "nope", shard: 0 });
  assert.equal(nope.body.error.type, "index_not_found_exception");
  const other = await json(es, "POST", "/_cluster/allocation/explain", {
    index: "solo",
    shard: 0,
    primary: false,
    current_node: "my-node",
  });
  assert.equal(other.status, 400);
  assert.equal(other.body.error.reason, "failed to resolve [my-node], no matching nodes");
  await json(es, "PUT", "/rep", { settings: { number_of_shards: 1 } });
  const replica = (await json(es, "GET", "/_cluster/allocation/explain")).body;
  assert.deepEqual([replica.index, replica.shard, replica.primary], ["rep", 0, false]);
  assert.equal(replica.current_state, "unassigned");
  assert.equal(replica.unassigned_info.reason, "INDEX_CREATED");
  assert.equal(replica.node_allocation_decisions[0].deciders[0].decider, "same_shard");
  es.close();
});

Deno.test("allocation explain: a primary's rebalance decisions, per flavour", async () => {
  // Recorded from Elasticsearch 9.5.4 and OpenSearch 3.8.0 on one node: zx0 has no replica,
  // zx1 one (unassigned); zx0 is explained alone, then beside zx1.
  const explain = async (engine: Engine, index: string) => {
    const body = (await json(engine, "POST", "/_cluster/allocation/explain", {
      index,
      shard: 0,
      primary: true,
    })).body;
    return [
      body.can_rebalance_cluster,
      body.can_rebalance_cluster_decisions?.map((d: Record<string, string>) =>
        `${d.decider} ${d.decision}: ${d.explanation}`
      ),
      body.can_rebalance_to_other_node,
      body.rebalance_explanation,
    ];
  };
  const es = new Engine();
  await json(es, "PUT", "/zx0", { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  assert.deepEqual(await explain(es, "zx0"), [
    "yes",
    undefined,
    "no",
    "This shard is in a well-balanced location and satisfies all allocation rules so it will " +
    "remain on this node. Elasticsearch cannot improve the cluster balance by moving it to " +
    "another node. If you expect this shard to be rebalanced to another node, find the other " +
    "node in the node-by-node explanation and address the reasons which prevent Elasticsearch " +
    "from rebalancing this shard there.",
  ]);
  await json(es, "PUT", "/zx1", { settings: { number_of_shards: 1, number_of_replicas: 1 } });
  assert.equal((await explain(es, "zx0"))[0], "yes");
  assert.deepEqual(await explain(es, "zx1"), [
    "no",
    [
      "rebalance_only_when_active NO: rebalancing is not allowed until all copies of this shard " +
      "are active",
    ],
    "no",
    "Elasticsearch is not allowed to allocate or rebalance this shard to another node. If you " +
    "expect this shard to be rebalanced to another node, find this node in the node-by-node " +
    "explanation and address the reasons which prevent Elasticsearch from rebalancing this " +
    "shard there.",
  ]);
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  await json(os, "PUT", "/zx0", { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  assert.deepEqual(await explain(os, "zx0"), [
    "yes",
    undefined,
    "no",
    "cannot rebalance as no target node exists that can both allocate this shard and improve " +
    "the cluster balance",
  ]);
  await json(os, "PUT", "/zx1", { settings: { number_of_shards: 1, number_of_replicas: 1 } });
  const unassigned = "cluster_rebalance NO: the cluster has unassigned shards and cluster " +
    "setting [cluster.routing.allocation.allow_rebalance] is set to [indices_all_active]";
  assert.deepEqual(await explain(os, "zx0"), [
    "no",
    [unassigned],
    "no",
    "rebalancing is not allowed",
  ]);
  assert.deepEqual(await explain(os, "zx1"), [
    "no",
    [
      "rebalance_only_when_active NO: rebalancing is not allowed until all replicas in the " +
      "cluster are active",
      unassigned,
    ],
    "no",
    "rebalancing is not allowed",
  ]);
  os.close();
});

Deno.test("health report: green with the indicators of the distribution", async () => {
  const es = new Engine();
  const report = (await json(es, "GET", "/_health_report")).body;
  assert.equal(report.status, "green");
  assert.deepEqual(Object.keys(report.indicators), [
    "master_is_stable",
    "repository_integrity",
    "disk",
    "shards_capacity",
    "file_settings",
  ]);
  assert.equal(report.indicators.shards_capacity.details.data.max_shards_in_cluster, 1000);
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  assert.equal((await json(os, "GET", "/_health_report")).status, 400);
  os.close();
});

Deno.test("terms enum: keyword terms by prefix, sorted, sized, after search_after", async () => {
  const es = new Engine();
  await json(es, "PUT", "/so", {
    mappings: { properties: { tags: { type: "keyword" }, title: { type: "text" } } },
  });
  const docs = [["kibana", "kiba"], ["kibana", "elastic"], ["Kiwi"], ["kit"]];
  for (const [i, tags] of docs.entries()) {
    await json(es, "PUT", `/so/_doc/${i}?refresh=true`, { tags, title: "kibana" });
  }
  const found = (await json(es, "POST", "/so/_terms_enum", { field: "tags", string: "ki" })).body;
  assert.deepEqual(found, {
    _shards: { total: 1, successful: 1, failed: 0 },
    terms: ["kiba", "kibana", "kit"],
    complete: true,
  });
  const ci = (await json(es, "POST", "/so/_terms_enum", {
    field: "tags",
    string: "ki",
    case_insensitive: true,
    size: 2,
    search_after: "kiba",
  })).body;
  assert.deepEqual(ci.terms, ["kibana", "kit"]);
  const all = (await json(es, "POST", "/so/_terms_enum", {
    field: "tags",
    string: "ki",
    case_insensitive: true,
  })).body;
  assert.deepEqual(all.terms, ["Kiwi", "kiba", "kibana", "kit"]);
  const text = (await json(es, "POST", "/so/_terms_enum", { field: "title", string: "k" })).body;
  assert.deepEqual(text.terms, []);
  es.close();
});
