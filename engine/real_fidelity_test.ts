// Behaviours the differential tester (tests/diff/) found where the engine differed from real
// Elasticsearch 9.5.4 and OpenSearch 3.8.0; each test states what the real engine answers.

import assert from "node:assert/strict";
import { Engine } from "./engine.ts";
import { simpleToClassic } from "./_query/query_string.ts";
import { call, exchange } from "../tests/support/engine_call.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function seeded(flavour: "elasticsearch" | "opensearch", mappings?: unknown) {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/i", {
    settings: { number_of_shards: 3, number_of_replicas: 0 },
    ...(mappings ? { mappings } : {}),
  });
  const lines = [
    { index: { _id: "1" } },
    { t: "fox", n: 1, when: "2024-01-02T03:04:05+02:00", v: [1, 2] },
    { index: { _id: "2" } },
    { t: "dog", n: 2, when: "2024-01-02", v: [3, 4] },
    { index: { _id: "3" } },
    { t: "fox dog", n: 3 },
  ];
  await call(
    engine,
    "POST",
    "/i/_bulk?refresh=true",
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  return engine;
}

Deno.test("_shards counts every primary shard of the index", async () => {
  const engine = await seeded("opensearch");
  const res = await call(engine, "POST", "/i/_search", { size: 0 });
  assert.deepEqual(res._shards, { total: 3, successful: 3, skipped: 0, failed: 0 });
  assert.equal((await call(engine, "POST", "/i/_count", {}))._shards.total, 3);
  engine.close();
});

Deno.test("Elasticsearch scores with LegacyBM25Similarity: 1 + k1 times OpenSearch 3's score", async () => {
  const es = await seeded("elasticsearch");
  const os = await seeded("opensearch");
  const q = { query: { match: { t: "fox" } } };
  // The flavours route ids to different shards; the index's statistics (dfs) compare alike.
  const dfs = "/i/_search?search_type=dfs_query_then_fetch";
  const a = (await call(es, "POST", dfs, q)).hits;
  const b = (await call(os, "POST", dfs, q)).hits;
  assert.equal(a.hits.length, 2);
  assert.ok(Math.abs(a.max_score / b.max_score - 2.2) < 1e-6);
  es.close();
  os.close();
});

Deno.test("Elasticsearch 9 leaves dense_vector values out of _source unless asked", async () => {
  const mappings = { properties: { v: { type: "dense_vector", dims: 2 } } };
  const es = await seeded("elasticsearch", mappings);
  const hit = (await call(es, "POST", "/i/_search", { query: { ids: { values: ["1"] } } })).hits
    .hits[0];
  assert.equal(hit._source.v, undefined);
  assert.equal(hit._source.t, "fox");
  assert.equal((await call(es, "GET", "/i/_doc/1"))._source.v, undefined);
  const asked = await call(es, "POST", "/i/_search", {
    query: { ids: { values: ["1"] } },
    _source: { exclude_vectors: false },
  });
  assert.deepEqual(asked.hits.hits[0]._source.v, [1, 2]);
  const named = await call(es, "GET", "/i/_doc/1?_source_includes=v");
  assert.deepEqual(named._source, { v: [1, 2] });
  es.close();
});

Deno.test("a point in time adds the _shard_doc tiebreaker on Elasticsearch only", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await seeded(flavour);
    const open = flavour === "elasticsearch"
      ? await call(engine, "POST", "/i/_pit?keep_alive=1m")
      : await call(engine, "POST", "/i/_search/point_in_time?keep_alive=1m");
    const id = open.id ?? open.pit_id;
    const page = await call(engine, "POST", "/_search", {
      size: 1,
      pit: { id, keep_alive: "1m" },
      sort: [{ n: "asc" }],
    });
    assert.equal(page.hits.hits[0].sort.length, flavour === "elasticsearch" ? 2 : 1, flavour);
    // a search_after as long as the sort leaves the tiebreaker out
    const after = await call(engine, "POST", "/_search", {
      size: 5,
      pit: { id, keep_alive: "1m" },
      sort: [{ n: "asc" }],
      search_after: [1],
    });
    assert.deepEqual(after.hits.hits.map((h: Json) => h.sort), [[2], [3]], flavour);
    engine.close();
  }
});

Deno.test("dates of the fields option come out in the field's format, in UTC", async () => {
  const engine = await seeded("opensearch");
  const res = await call(engine, "POST", "/i/_search", {
    fields: ["when"],
    _source: false,
    sort: [{ n: "asc" }],
  });
  assert.deepEqual(res.hits.hits.map((h: Json) => h.fields?.when), [
    ["2024-01-02T01:04:05.000Z"],
    ["2024-01-02T00:00:00.000Z"],
    undefined,
  ]);
  engine.close();
});

Deno.test("simple_query_string: + is a binary AND, | an OR, -x is x negated beside match-all", async () => {
  assert.equal(simpleToClassic("fox +dog", "or"), "(fox AND dog)");
  assert.equal(simpleToClassic("+fox dog", "or"), "(fox OR dog)");
  assert.equal(simpleToClassic("fox -dog", "or"), "(fox OR (*:* -dog))");
  assert.equal(simpleToClassic("a + b | c", "or"), "((a AND b) OR c)");
  assert.equal(simpleToClassic("fox dog", "and"), "(fox AND dog)");
  assert.equal(simpleToClassic('"lazy dog"~2 qu* x:y', "or"), '("lazy dog"~2 OR qu* OR x\\:y)');
  const engine = await seeded("opensearch");
  const ids = async (query: string) =>
    (await call(engine, "POST", "/i/_search", { query: { simple_query_string: { query } } })).hits
      .hits.map((h: Json) => h._id).sort();
  assert.deepEqual(await ids("fox +dog"), ["3"]);
  assert.deepEqual(await ids("fox -dog"), ["1", "3"]);
  assert.deepEqual(await ids("fox | dog"), ["1", "2", "3"]);
  engine.close();
});

Deno.test("cluster health carries each product's own fields", async () => {
  const es = new Engine();
  const os = new Engine({ flavour: "opensearch" });
  const a = await call(es, "GET", "/_cluster/health");
  const b = await call(os, "GET", "/_cluster/health");
  assert.equal(a.unassigned_primary_shards, 0);
  assert.equal(a.discovered_master, undefined);
  assert.equal(b.discovered_master, true);
  assert.equal(b.discovered_cluster_manager, true);
  assert.equal(b.unassigned_primary_shards, undefined);
  es.close();
  os.close();
});

Deno.test("a new index carries the settings each product adds at creation", async () => {
  const es = await seeded("elasticsearch");
  const os = await seeded("opensearch");
  const a = (await call(es, "GET", "/i/_settings?flat_settings=true")).i.settings;
  const b = (await call(os, "GET", "/i/_settings?flat_settings=true")).i.settings;
  assert.equal(a["index.routing.allocation.include._tier_preference"], "data_content");
  assert.equal(a["index.replication.type"], undefined);
  assert.equal(b["index.replication.type"], "DOCUMENT");
  assert.equal(b["index.routing.allocation.include._tier_preference"], undefined);
  es.close();
  os.close();
});

Deno.test("alias changes answer errors: false on Elasticsearch only", async () => {
  const es = await seeded("elasticsearch");
  const os = await seeded("opensearch");
  for (
    const [engine, expected] of [[es, { acknowledged: true, errors: false }], [os, {
      acknowledged: true,
    }]] as const
  ) {
    assert.deepEqual((await exchange(engine, "PUT", "/i/_alias/a")).body, expected);
    assert.deepEqual((await exchange(engine, "DELETE", "/i/_alias/a")).body, expected);
    assert.deepEqual(
      (await exchange(engine, "POST", "/_aliases", {
        actions: [{ add: { index: "i", alias: "b" } }],
      }))
        .body,
      expected,
    );
  }
  es.close();
  os.close();
});

Deno.test("Elasticsearch prints the defaults of a dense_vector mapping", async () => {
  const es = new Engine();
  await call(es, "PUT", "/v", {
    mappings: {
      properties: {
        small: { type: "dense_vector", dims: 3 },
        big: { type: "dense_vector", dims: 384, similarity: "l2_norm" },
        o: { properties: { flat: { type: "dense_vector", dims: 2, index: false } } },
      },
    },
  });
  const p = (await call(es, "GET", "/v/_mapping")).v.mappings.properties;
  assert.deepEqual(p.small, {
    type: "dense_vector",
    dims: 3,
    index: true,
    similarity: "cosine",
    index_options: { type: "int8_hnsw", m: 16, ef_construction: 100 },
  });
  assert.equal(p.big.index_options.type, "bbq_hnsw");
  assert.equal(p.big.similarity, "l2_norm");
  assert.deepEqual(p.o.properties.flat, { type: "dense_vector", dims: 2, index: false });
  es.close();
});

// What Elasticsearch 9.5.4 answered to these mappings (GET _mapping), key order included.
Deno.test("Elasticsearch completes given index_options and fills them in once dims are known", async () => {
  const es = new Engine();
  await call(es, "PUT", "/v", {
    mappings: {
      properties: {
        given: {
          type: "dense_vector",
          index_options: { type: "int8_hnsw", m: 8, confidence_interval: 0.9 },
          dims: 4,
        },
        flat: { type: "dense_vector", dims: 64, index_options: { type: "bbq_flat" } },
        bytes: { type: "dense_vector", element_type: "byte", dims: 4 },
        floats: { type: "dense_vector", element_type: "float", dims: 4, similarity: "l2_norm" },
        later: { type: "dense_vector" },
      },
    },
  });
  const before = (await call(es, "GET", "/v/_mapping")).v.mappings.properties;
  assert.equal(
    JSON.stringify(before.given),
    '{"type":"dense_vector","dims":4,"index":true,"similarity":"cosine","index_options":' +
      '{"type":"int8_hnsw","m":8,"ef_construction":100,"confidence_interval":0.9}}',
  );
  assert.deepEqual(before.flat.index_options, {
    type: "bbq_flat",
    rescore_vector: { oversample: 3 },
  });
  assert.equal(
    JSON.stringify(before.bytes),
    '{"type":"dense_vector","element_type":"byte","dims":4,"index":true,"similarity":"cosine"}',
  );
  assert.equal(before.floats.element_type, undefined);
  assert.equal(before.floats.index_options.type, "int8_hnsw");
  assert.deepEqual(before.later, { type: "dense_vector", index: true, similarity: "cosine" });
  await call(es, "PUT", "/v/_doc/1?refresh=true", { later: [1, 2, 3, 4] });
  const after = (await call(es, "GET", "/v/_mapping")).v.mappings.properties;
  assert.equal(
    JSON.stringify(after.later),
    '{"type":"dense_vector","dims":4,"index":true,"similarity":"cosine","index_options":' +
      '{"type":"int8_hnsw","m":16,"ef_construction":100}}',
  );
  es.close();
});

Deno.test("deleting a missing document leaves a tombstone: versions continue from it", async () => {
  const engine = await seeded("opensearch");
  assert.equal((await call(engine, "DELETE", "/i/_doc/9"))._version, 1);
  assert.equal((await call(engine, "DELETE", "/i/_doc/9"))._version, 2);
  const created = await call(engine, "PUT", "/i/_doc/9", { t: "x" });
  assert.equal(created.result, "created");
  assert.equal(created._version, 3);
  engine.close();
});

Deno.test("simple_query_string adds the scores of every field (most_fields)", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/s", {
    mappings: { properties: { a: { type: "text" }, b: { type: "text" } } },
  });
  const lines = [{ index: { _id: "1" } }, { a: "fox", b: "fox" }, { index: { _id: "2" } }, {
    a: "fox",
    b: "dog",
  }];
  await call(
    engine,
    "POST",
    "/s/_bulk?refresh=true",
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  const score = async (query: Json) =>
    (await call(engine, "POST", "/s/_search", { query })).hits.hits.find((h: Json) => h._id === "1")
      ._score;
  const both = await score({ simple_query_string: { query: "fox", fields: ["a", "b"] } });
  const a = await score({ match: { a: "fox" } });
  const b = await score({ match: { b: "fox" } });
  assert.ok(Math.abs(both - (a + b)) < 1e-6, `${both} is not ${a} + ${b}`);
  const best = await score({ query_string: { query: "fox", fields: ["a", "b"] } });
  assert.equal(best, Math.max(a, b));
  engine.close();
});

Deno.test("_cat answers JSON when the Accept header asks for JSON", async () => {
  const engine = await seeded("opensearch");
  const get = async (accept?: string) =>
    await (await engine.fetch("http://engine/_cat/count/i?h=count", {
      headers: accept ? { accept } : {},
    })).text();
  assert.deepEqual(JSON.parse(await get("application/json")), [{ count: "3" }]);
  assert.equal((await get()).trim(), "3");
  engine.close();
});

Deno.test("a missing index of a document API is an index_expression on OpenSearch", async () => {
  const es = new Engine();
  const os = new Engine({ flavour: "opensearch" });
  const type = async (engine: Engine, method: string, path: string) =>
    (await call(engine, method, path)).error["resource.type"];
  assert.equal(await type(os, "GET", "/nope/_doc/1"), "index_expression");
  assert.equal(await type(os, "GET", "/nope/_search"), "index_or_alias");
  assert.equal(await type(es, "GET", "/nope/_doc/1"), "index_or_alias");
  es.close();
  os.close();
});

Deno.test("a bad requests_per_second is an illegal_argument_exception", async () => {
  const engine = await seeded("opensearch");
  for (const v of ["", "-12", "0", "unlimited"]) {
    const res = await call(engine, "POST", `/i/_delete_by_query?requests_per_second=${v}`, {
      query: { match_all: {} },
    });
    assert.equal(res.error.type, "illegal_argument_exception", v);
  }
  engine.close();
});

Deno.test("parse errors carry the line and column the parser stood on", async () => {
  const engine = await seeded("opensearch");
  const at = async (path: string, body: string) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const e = (await res.json()).error;
    assert.deepEqual([e.root_cause[0].line, e.root_cause[0].col], [e.line, e.col]);
    return [e.line, e.col];
  };
  assert.deepEqual(await at("/i/_search", '{"query":{"match":{"title":"x"}},"sizee":1}'), [1, 42]);
  assert.deepEqual(await at("/i/_search", '{"qeury":{}}'), [1, 10]);
  assert.deepEqual(await at("/i/_search", '{"query":{"no_such_query":{"f":1}}}'), [1, 27]);
  assert.deepEqual(await at("/i/_search", '{\n  "query": {\n    "nope": {}\n  }\n}'), [3, 13]);
  assert.deepEqual(await at("/i/_count", '{"match":{"foo":"bar"}}'), [1, 2]);
  assert.deepEqual(
    await at(
      "/i/_search",
      '{"query":{"multi_match":{"query":"brown","type":"bool_prefix","fields":["a","b"],"slop":1}}}',
    ),
    [1, 90],
  );
  engine.close();
});
