// The shard-level read APIs against answers recorded from OpenSearch 3.8.0 and Elasticsearch 9.5.4
// (one node, a three-shard index with ids 1..10 indexed).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

async function seeded(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  await json(engine, "PUT", "/rt3", { settings: { number_of_shards: 3, number_of_replicas: 0 } });
  await json(engine, "PUT", "/rt5", { settings: { number_of_shards: 5, number_of_replicas: 0 } });
  await json(engine, "POST", "/_aliases", {
    actions: [{ add: { index: "rt3", alias: "ra" } }, { add: { index: "rt5", alias: "ra" } }],
  });
  return engine;
}

Deno.test("_search_shards: every shard, or with routing the ones its values land on", async () => {
  const engine = await seeded("opensearch");
  const all = (await json(engine, "GET", "/rt3/_search_shards")).body;
  assert.deepEqual(all.indices, { rt3: {} });
  assert.deepEqual(all.shards.map((s: Array<{ shard: number }>) => s[0]!.shard), [0, 1, 2]);
  assert.equal(all.shards[0][0].searchOnly, false);
  assert.equal(Object.keys(all.nodes).length, 1);
  // OpenSearch placed id/routing "1" on shard 2 of rt3.
  const routed = (await json(engine, "GET", "/rt3/_search_shards?routing=1")).body;
  assert.deepEqual(routed.shards.map((s: Array<{ shard: number }>) => s[0]!.shard), [2]);
  const alias = (await json(engine, "GET", "/ra/_search_shards")).body;
  assert.deepEqual(alias.indices, { rt3: { aliases: ["ra"] }, rt5: { aliases: ["ra"] } });
  assert.equal(alias.shards.length, 8);
  engine.close();
  const es = new Engine();
  assert.deepEqual((await json(es, "GET", "/_search_shards")).body, {
    nodes: {},
    indices: {},
    shards: [],
  });
  es.close();
});

Deno.test("_resolve/index: indices with their aliases and attributes, aliases with indices", async () => {
  const engine = await seeded("opensearch");
  assert.deepEqual((await json(engine, "GET", "/_resolve/index/r*")).body, {
    indices: [
      { name: "rt3", aliases: ["ra"], attributes: ["open"] },
      { name: "rt5", aliases: ["ra"], attributes: ["open"] },
    ],
    aliases: [{ name: "ra", indices: ["rt3", "rt5"] }],
    data_streams: [],
  });
  assert.deepEqual((await json(engine, "GET", "/_resolve/index/missing,rt3")).body.indices, [
    { name: "rt3", aliases: ["ra"], attributes: ["open"] },
  ]);
  await json(engine, "POST", "/rt5/_close");
  const closed = (await json(engine, "GET", "/_resolve/index/rt5?expand_wildcards=all")).body;
  assert.deepEqual(closed.indices[0].attributes, ["closed"]);
  engine.close();
});

Deno.test("_cat/recovery and _recovery: each shard recovered from an empty store", async () => {
  const engine = await seeded("opensearch");
  const rows = (await json(engine, "GET", "/_cat/recovery/rt3?format=json")).body;
  assert.equal(rows.length, 3);
  assert.deepEqual(
    { ...rows[1], time: undefined },
    {
      index: "rt3",
      shard: "1",
      time: undefined,
      type: "empty_store",
      stage: "done",
      source_host: "n/a",
      source_node: "n/a",
      target_host: "127.0.0.1",
      target_node: "searchvisitor",
      repository: "n/a",
      snapshot: "n/a",
      files: "0",
      files_recovered: "0",
      files_percent: "0.0%",
      files_total: "0",
      bytes: "0b",
      bytes_recovered: "0b",
      bytes_percent: "0.0%",
      bytes_total: "0b",
      translog_ops: "0",
      translog_ops_recovered: "0",
      translog_ops_percent: "100.0%",
    },
  );
  const recovery = (await json(engine, "GET", "/rt5/_recovery")).body;
  assert.deepEqual(Object.keys(recovery), ["rt5"]);
  assert.equal(recovery.rt5.shards.length, 5);
  assert.equal(recovery.rt5.shards[4].id, 4);
  assert.equal(recovery.rt5.shards[0].type, "EMPTY_STORE");
  engine.close();
});

Deno.test("_cat/thread_pool: each product's pools, filtered by pattern", async () => {
  const os = new Engine({ flavour: "opensearch" });
  const rows = (await json(os, "GET", "/_cat/thread_pool?format=json")).body;
  assert.equal(rows.length, 30);
  assert.deepEqual(Object.keys(rows[0]), ["node_name", "name", "active", "queue", "rejected"]);
  assert.ok(rows.some((r: { name: string }) => r.name === "index_searcher"));
  os.close();
  const es = new Engine();
  const some = (await json(es, "GET", "/_cat/thread_pool/write*,get?format=json&h=name")).body;
  assert.deepEqual(some, [{ name: "get" }, { name: "write" }, { name: "write_coordination" }]);
  // An idle Elasticsearch 9.5.4 shows the management pool busy with the request itself.
  const busy = (await json(es, "GET", "/_cat/thread_pool/management,search?format=json")).body;
  assert.deepEqual(busy.map((r: { name: string; active: string }) => [r.name, r.active]), [
    ["management", "2"],
    ["search", "0"],
  ]);
  es.close();
});

Deno.test("_cat/allocation and _cat/circuit_breaker (Elasticsearch only)", async () => {
  const es = await seeded("elasticsearch");
  const [row] = (await json(es, "GET", "/_cat/allocation?format=json")).body;
  assert.equal(row.shards, "8");
  assert.equal(row["node.role"], "cdfhilmrstw");
  const breakers = (await json(es, "GET", "/_cat/circuit_breaker?format=json")).body;
  assert.deepEqual(
    breakers.map((b: { breaker: string; limit: string }) => [b.breaker, b.limit]),
    [["fielddata", "409.5mb"], ["inflight_requests", "1gb"], ["request", "614.3mb"], [
      "parent",
      "972.7mb",
    ]],
  );
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  assert.equal((await json(os, "GET", "/_cat/circuit_breaker")).status, 400);
  const [osRow] = (await json(os, "GET", "/_cat/allocation?format=json")).body;
  assert.deepEqual(Object.keys(osRow), [
    "shards",
    "disk.indices",
    "disk.used",
    "disk.avail",
    "disk.total",
    "disk.percent",
    "host",
    "ip",
    "node",
  ]);
  os.close();
});

Deno.test("_cat/segments: none without documents, a row per shard holding some", async () => {
  const engine = await seeded("opensearch");
  assert.deepEqual((await json(engine, "GET", "/_cat/segments?format=json")).body, []);
  for (const id of ["1", "2", "3"]) await json(engine, "PUT", `/rt3/_doc/${id}?refresh=true`, {});
  const rows = (await json(engine, "GET", "/_cat/segments/rt3?format=json&h=shard,docs.count"))
    .body;
  // OpenSearch places 1 on shard 2 and 2, 3 on shard 1.
  assert.deepEqual(rows, [{ shard: "1", "docs.count": "2" }, { shard: "2", "docs.count": "1" }]);
  engine.close();
  // Elasticsearch 9.5.4 writes its segments with Lucene 10.5.1.
  const es = await seeded("elasticsearch");
  await json(es, "PUT", "/rt3/_doc/1?refresh=true", {});
  const [row] = (await json(es, "GET", "/_cat/segments/rt3?format=json&h=version,compound")).body;
  assert.deepEqual(row, { version: "10.5.1", compound: "true" });
  es.close();
});

Deno.test("_resolve/cluster and remote expressions of _resolve/index, as Elasticsearch answers", async () => {
  const es = new Engine();
  await json(es, "PUT", "/e3x", { settings: { number_of_shards: 3 } });
  // Real Elasticsearch 9.5.4 (no remote clusters configured):
  const cases: [string, number, unknown][] = [
    ["/_resolve/cluster", 200, {}],
    ["/_resolve/cluster/clust*:x", 200, {}],
    ["/_resolve/cluster/e3*", 200, {
      "(local)": {
        connected: true,
        skip_unavailable: false,
        matching_indices: true,
        version: {
          number: "9.5.4",
          build_flavor: "default",
          minimum_wire_compatibility_version: "8.19.0",
          minimum_index_compatibility_version: "8.0.0",
        },
      },
    }],
    ["/_resolve/cluster/e3x,nope", 200, {
      "(local)": { connected: true, skip_unavailable: false, error: "no such index [nope]" },
    }],
  ];
  for (const [path, status, body] of cases) {
    const r = await json(es, "GET", path);
    assert.deepEqual([r.status, r.body], [status, body], path);
  }
  const nope = await json(es, "GET", "/_resolve/cluster/nope*");
  assert.equal(nope.body["(local)"].matching_indices, false);
  // {"error":{"root_cause":[{"type":"no_such_remote_cluster_exception","reason":"no such remote
  // cluster: [oldcluster]"}],"type":"no_such_remote_cluster_exception",…},"status":404}
  for (
    const path of [
      "/_resolve/cluster/not-present,clust*:my-index*,oldcluster:*",
      "/_resolve/index/f*,oldcluster:bar*",
    ]
  ) {
    const r = await json(es, "GET", path);
    assert.deepEqual([r.status, r.body.error.type], [404, "no_such_remote_cluster_exception"]);
    assert.equal(r.body.error.reason, "no such remote cluster: [oldcluster]");
  }
  es.close();
  // Real OpenSearch 3.8.0 has no _resolve/cluster and resolves no remote index (an empty answer);
  // its unknown-URL answer names the path without the query.
  const os = new Engine({ flavour: "opensearch" });
  const remote = await json(os, "GET", "/_resolve/index/f*,oldcluster:bar*");
  assert.deepEqual(remote.body, { indices: [], aliases: [], data_streams: [] });
  const none = await json(os, "GET", "/_resolve/cluster/x?ignore_unavailable=true");
  assert.deepEqual([none.status, none.body], [400, {
    error: "no handler found for uri [/_resolve/cluster/x] and method [GET]",
  }]);
  const unknown = await json(os, "POST", "/_nope/a?x=1");
  assert.equal(unknown.body.error, "no handler found for uri [/_nope/a] and method [POST]");
  os.close();
});

Deno.test("_resolve/index names indices and aliases each by its own name", async () => {
  // Real answers, indices e3x and e3y both in alias e3al. Elasticsearch 9.5.4 and OpenSearch
  // 3.8.0 alike (Elasticsearch adds "mode":"standard" to each index):
  //   e3x      → {"indices":[{"name":"e3x","aliases":["e3al"],…}],"aliases":[],…}
  //   e3al     → {"indices":[],"aliases":[{"name":"e3al","indices":["e3x","e3y"]}],…}
  //   e3x,e3al → both lists, e3y not among the indices
  // `_all` is every index on Elasticsearch and nothing on OpenSearch; a missing name is a 404 on
  // Elasticsearch and nothing on OpenSearch.
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await json(engine, "PUT", "/e3x", { aliases: { e3al: {} } });
    await json(engine, "PUT", "/e3y", { aliases: { e3al: {} } });
    const names = async (expression: string) => {
      const r = await json(engine, "GET", `/_resolve/index/${expression}`);
      if (r.status !== 200) return r.status;
      return [
        r.body.indices.map((i: { name: string }) => i.name),
        r.body.aliases.map((a: { name: string; indices: string[] }) => `${a.name}:${a.indices}`),
      ];
    };
    assert.deepEqual(await names("e3x"), [["e3x"], []]);
    assert.deepEqual(await names("e3al"), [[], ["e3al:e3x,e3y"]]);
    assert.deepEqual(await names("e3a*"), [[], ["e3al:e3x,e3y"]]);
    assert.deepEqual(await names("e3x,e3al"), [["e3x"], ["e3al:e3x,e3y"]]);
    assert.deepEqual(await names("e3*"), [["e3x", "e3y"], ["e3al:e3x,e3y"]]);
    if (flavour === "elasticsearch") {
      assert.deepEqual(await names("_all"), [["e3x", "e3y"], ["e3al:e3x,e3y"]]);
      assert.equal(await names("nope"), 404);
      assert.deepEqual(await names("nope?ignore_unavailable=true"), [[], []]);
    } else {
      assert.deepEqual(await names("_all"), [[], []]);
      assert.deepEqual(await names("nope"), [[], []]);
    }
    engine.close();
  }
});

Deno.test("the node's name and transport address, given or by default", async () => {
  // Real Elasticsearch 9.5.4 started with node.name real-es and transport.port 9380: its
  // _cat/thread_pool shows the name on every row and two active management threads, allocation
  // explain the transport address.
  const es = new Engine({ node: { name: "real-es", transportAddress: "127.0.0.1:9380" } });
  const rows = (await json(es, "GET", "/_cat/thread_pool?format=json")).body;
  assert.ok(rows.every((r: { node_name: string }) => r.node_name === "real-es"));
  const management = rows.find((r: { name: string }) => r.name === "management");
  assert.equal(management.active, "2");
  const port = (await json(es, "GET", "/_cat/thread_pool/write?format=json&h=port")).body;
  assert.deepEqual(port, [{ port: "9380" }]);
  await json(es, "PUT", "/x", { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const explain = (await json(es, "POST", "/_cluster/allocation/explain", {
    index: "x",
    shard: 0,
    primary: true,
  })).body;
  assert.deepEqual(
    [explain.current_node.name, explain.current_node.transport_address],
    ["real-es", "127.0.0.1:9380"],
  );
  const shards = (await json(es, "GET", "/x/_search_shards")).body;
  const [node] = Object.values(shards.nodes) as { name: string; external_id: string }[];
  assert.deepEqual([node!.name, node!.external_id], ["real-es", "real-es"]);
  es.close();
  const plain = new Engine({ flavour: "opensearch" });
  const os = (await json(plain, "GET", "/_cat/thread_pool/management?format=json")).body;
  assert.deepEqual(os, [
    { node_name: "searchvisitor", name: "management", active: "0", queue: "0", rejected: "0" },
  ]);
  const nodes = (await json(plain, "GET", "/_nodes/stats")).body;
  const [stats] = Object.values(nodes.nodes) as { transport_address: string }[];
  assert.equal(stats!.transport_address, "127.0.0.1:9300");
  plain.close();
});

Deno.test("_cat/allocation: replicas one node cannot hold make an UNASSIGNED row", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0, one node, an index of 2 shards and 1 replica:
  // the node's row, then {"shards":"2", every other column null, "node":"UNASSIGNED"}.
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await json(engine, "PUT", "/a", { settings: { number_of_shards: 2, number_of_replicas: 1 } });
    const rows = (await json(engine, "GET", "/_cat/allocation?format=json")).body;
    assert.equal(rows.length, 2);
    assert.equal(rows[0].shards, "2");
    const columns = Object.keys(rows[0]);
    assert.deepEqual(
      rows[1],
      Object.fromEntries(
        columns.map((c) => [c, c === "shards" ? "2" : c === "node" ? "UNASSIGNED" : null]),
      ),
    );
    if (flavour === "opensearch") {
      // its text: the count under `shards`, the name under `node`, the rest blank
      const text = await engine.fetch("http://engine/_cat/allocation?v").then((r) => r.text());
      assert.match(text.split("\n")[2]!, /^ {5}2 +UNASSIGNED$/);
    }
    await json(engine, "PUT", "/a/_settings", { index: { number_of_replicas: 0 } });
    assert.equal((await json(engine, "GET", "/_cat/allocation?format=json")).body.length, 1);
    engine.close();
  }
});
