// An engine built with a real node's identity answers as that node does: the values below were
// recorded from an Elasticsearch 9.5.4 node started with `node.name: real-es` and
// `cluster.name: searchvisitor-real`, transport on port 9330.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

const REAL = {
  id: "wRCTYewZQRGMrSMXsAhHpA",
  name: "real-es",
  ephemeralId: "i_op_vENTeGt_yH4SNfeTQ",
  transportAddress: "127.0.0.1:9330",
  clusterName: "searchvisitor-real",
};

Deno.test("a node identity names the node in every API that lists it", async () => {
  const engine = new Engine({ node: REAL });
  try {
    await json(engine, "PUT", "/my-index-000001", { settings: { number_of_shards: 3 } });
    const nodes = (await json(engine, "GET", "/_cat/nodes?v=true&h=id,ip,port,v,m&format=json"))
      .body;
    assert.deepEqual(nodes, [{ id: "wRCT", ip: "127.0.0.1", port: "9330", v: "9.5.4", m: "*" }]);
    const full = (await json(engine, "GET", "/_cat/nodes?h=id&full_id=true&format=json")).body;
    assert.deepEqual(full, [{ id: REAL.id }]);
    const shards = (await json(engine, "GET", "/my-index-000001/_search_shards")).body;
    assert.deepEqual(Object.keys(shards.nodes), [REAL.id]);
    assert.equal(shards.nodes[REAL.id].name, "real-es");
    assert.equal(shards.nodes[REAL.id].ephemeral_id, REAL.ephemeralId);
    assert.equal(shards.nodes[REAL.id].transport_address, "127.0.0.1:9330");
    assert.equal(shards.nodes[REAL.id].external_id, "real-es");
    assert.equal(shards.shards[0][0].node, REAL.id);
    const state = (await json(
      engine,
      "GET",
      "/_cluster/state?filter_path=metadata.cluster_coordination.last_committed_config",
    )).body;
    assert.deepEqual(state, {
      metadata: { cluster_coordination: { last_committed_config: [REAL.id] } },
    });
    const [health] = (await json(engine, "GET", "/_cat/health?format=json&h=cluster")).body;
    assert.deepEqual(health, { cluster: "searchvisitor-real" });
    const [pool] = (await json(engine, "GET", "/_cat/thread_pool/get?format=json")).body;
    assert.equal(pool.node_name, "real-es");
    const master = (await json(engine, "GET", "/_cluster/state/master_node")).body;
    assert.equal(master.master_node, REAL.id);
    assert.equal(master.cluster_name, "searchvisitor-real");
  } finally {
    engine.close();
  }
});

Deno.test("without an identity the node is searchvisitor, on 127.0.0.1:9300", async () => {
  const engine = new Engine();
  try {
    const [row] = (await json(engine, "GET", "/_cat/nodes?h=name,port,v&format=json")).body;
    assert.deepEqual(row, { name: "searchvisitor", port: "9300", v: "9.5.4" });
  } finally {
    engine.close();
  }
});
