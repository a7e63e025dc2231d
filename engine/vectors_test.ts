import assert from "node:assert/strict";
import { Engine } from "./engine.ts";
import { float32 } from "./_query/score.ts";
import { exchange } from "../tests/support/engine_call.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function vectorIndex(
  similarity: string,
  docs: Record<string, number[]>,
  extra: Json = {},
): Promise<Engine> {
  const engine = new Engine();
  const dims = Object.values(docs)[0]!.length;
  const created = await exchange(engine, "PUT", "/vec", {
    mappings: {
      properties: {
        emb: { type: "dense_vector", dims, similarity, ...extra },
        cat: { type: "keyword" },
      },
    },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  let bulk = "";
  for (const [id, emb] of Object.entries(docs)) {
    bulk += JSON.stringify({ index: { _id: id } }) + "\n" +
      JSON.stringify({ emb, cat: Number(id) % 2 ? "odd" : "even" }) + "\n";
  }
  const res = await exchange(engine, "POST", "/vec/_bulk?refresh=true", bulk);
  assert.equal(res.body.errors, false, JSON.stringify(res.body));
  return engine;
}

/** A score as the engine prints it: the shortest decimal of the 32-bit float. */
const f32 = float32;

Deno.test("knn section: cosine scores (1 + cos) / 2 and returns the k nearest", async () => {
  const engine = await vectorIndex("cosine", {
    "1": [1, 0],
    "2": [0, 1],
    "3": [1, 1],
    "4": [-1, 0],
  });
  const res = await exchange(engine, "POST", "/vec/_search", {
    knn: { field: "emb", query_vector: [1, 0], k: 2, num_candidates: 10 },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.hits.hits.map((h: Json) => h._id), ["1", "3"]);
  assert.equal(res.body.hits.total.value, 2);
  assert.equal(res.body.hits.hits[0]._score, 1);
  assert.equal(res.body.hits.hits[1]._score, f32((1 + Math.SQRT1_2) / 2));
  engine.close();
});

Deno.test("knn section: l2_norm scores 1 / (1 + d²); max_inner_product per Elasticsearch", async () => {
  const l2 = await vectorIndex("l2_norm", { "1": [0, 0], "2": [3, 4], "3": [1, 0] });
  const res = await exchange(l2, "POST", "/vec/_search", {
    knn: { field: "emb", query_vector: [0, 0], k: 3, num_candidates: 3 },
  });
  assert.deepEqual(res.body.hits.hits.map((h: Json) => [h._id, h._score]), [
    ["1", 1],
    ["3", 0.5],
    ["2", f32(1 / 26)],
  ]);
  l2.close();
  const mip = await vectorIndex("max_inner_product", { "1": [2, 0], "2": [-3, 0] });
  const r2 = await exchange(mip, "POST", "/vec/_search", {
    knn: { field: "emb", query_vector: [1, 0], k: 2, num_candidates: 2 },
  });
  assert.deepEqual(r2.body.hits.hits.map((h: Json) => [h._id, h._score]), [
    ["1", 3],
    ["2", 0.25],
  ]);
  mip.close();
});

Deno.test("knn section: dot_product on unit vectors, filter, similarity and boost", async () => {
  const engine = await vectorIndex("dot_product", {
    "1": [1, 0],
    "2": [0.6, 0.8],
    "3": [0, 1],
    "4": [-0.6, 0.8],
  });
  const filtered = await exchange(engine, "POST", "/vec/_search", {
    knn: {
      field: "emb",
      query_vector: [1, 0],
      k: 2,
      num_candidates: 4,
      filter: { term: { cat: "odd" } },
      boost: 2,
    },
  });
  assert.deepEqual(filtered.body.hits.hits.map((h: Json) => [h._id, h._score]), [
    ["1", 2],
    ["3", 1],
  ]);
  const near = await exchange(engine, "POST", "/vec/_search", {
    knn: { field: "emb", query_vector: [1, 0], k: 4, num_candidates: 4, similarity: 0.5 },
  });
  assert.deepEqual(near.body.hits.hits.map((h: Json) => h._id), ["1", "2"]);
  engine.close();
});

Deno.test("knn section with query: union of both, scores summed", async () => {
  const engine = await vectorIndex("l2_norm", { "1": [0, 0], "2": [5, 5], "3": [1, 0] });
  const res = await exchange(engine, "POST", "/vec/_search", {
    knn: { field: "emb", query_vector: [0, 0], k: 1, num_candidates: 3 },
    query: { term: { cat: { value: "even", boost: 3 } } },
  });
  const byId = Object.fromEntries(res.body.hits.hits.map((h: Json) => [h._id, h._score]));
  assert.deepEqual(Object.keys(byId).sort(), ["1", "2"]);
  assert.equal(res.body.hits.total.value, 2);
  // Doc 1: knn score only; doc 2: term score only. The default index_options (int8_hnsw) score
  // the quantised vectors: Elasticsearch 9.5.4 answers 0.99999905 for the exact match.
  assert.equal(byId["1"], 0.99999905);
  assert.ok(byId["2"] > 0);
  const both = await exchange(engine, "POST", "/vec/_search", {
    knn: { field: "emb", query_vector: [5, 5], k: 1, num_candidates: 3 },
    query: { term: { cat: { value: "even", boost: 3 } } },
  });
  assert.equal(both.body.hits.hits.length, 1);
  // Elasticsearch 9.5.4: 3.942484, the quantised knn score (0.9999963) plus the term score.
  assert.equal(both.body.hits.hits[0]._score, 3.942484);
  engine.close();
});

Deno.test("knn query: Elasticsearch and OpenSearch shapes, inside bool", async () => {
  const engine = await vectorIndex("l2_norm", {
    "1": [0, 0],
    "2": [1, 0],
    "3": [2, 0],
    "4": [3, 0],
  });
  const es = await exchange(engine, "POST", "/vec/_search", {
    query: {
      bool: {
        must: [{ knn: { field: "emb", query_vector: [0, 0], k: 3, num_candidates: 3 } }],
        filter: [{ term: { cat: "odd" } }],
      },
    },
  });
  assert.deepEqual(es.body.hits.hits.map((h: Json) => h._id), ["1", "3"]);
  const os = await exchange(engine, "POST", "/vec/_search", {
    query: { knn: { emb: { vector: [3, 0], k: 2, filter: { term: { cat: "even" } } } } },
  });
  assert.deepEqual(os.body.hits.hits.map((h: Json) => [h._id, h._score]), [["4", 1], ["2", 0.2]]);
  engine.close();
});

Deno.test("script_score: vector functions and doc access, scored by the script", async () => {
  const engine = await vectorIndex("cosine", { "1": [1, 0], "2": [0, 1], "3": [3, 4] });
  const scored = async (source: string) => {
    const res = await exchange(engine, "POST", "/vec/_search", {
      query: {
        script_score: {
          query: { match_all: {} },
          script: { source, params: { v: [1, 0] } },
        },
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return Object.fromEntries(res.body.hits.hits.map((h: Json) => [h._id, h._score]));
  };
  assert.deepEqual(await scored("cosineSimilarity(params.v, 'emb') + 1.0"), {
    "1": 2,
    "2": 1,
    "3": 1.6,
  });
  assert.deepEqual(await scored("1 / (1 + l2norm(params.v, doc['emb']))"), {
    "1": 1,
    "2": f32(1 / (1 + Math.SQRT2)),
    "3": f32(1 / (1 + Math.sqrt(20))),
  });
  assert.deepEqual(await scored("dotProduct(params.v, 'emb') + l1norm(params.v, 'emb')"), {
    "1": 1,
    "2": 2,
    "3": 9,
  });
  assert.deepEqual(
    await scored("doc['emb'].size() == 0 ? 0 : doc['emb'].magnitude + doc['emb'].vectorValue[0]"),
    { "1": 2, "2": 1, "3": 8 },
  );
  const negative = await exchange(engine, "POST", "/vec/_search", {
    query: {
      script_score: {
        query: { match_all: {} },
        script: { source: "dotProduct(params.v, 'emb') - 2", params: { v: [1, 0] } },
      },
    },
  });
  assert.equal(negative.status, 400);
  assert.match(JSON.stringify(negative.body), /Must be a non-negative score/);
  engine.close();
});

Deno.test("script query: thresholds come from params", async () => {
  const engine = await vectorIndex("l2_norm", { "1": [0, 0], "2": [1, 0], "3": [2, 0] });
  const res = await exchange(engine, "POST", "/vec/_search", {
    query: {
      bool: {
        filter: [{
          script: {
            script: {
              source: "l2norm(params.vector, params.field) <= params.threshold",
              params: { vector: [0, 0], field: "emb", threshold: 1 },
            },
          },
        }],
      },
    },
  });
  assert.deepEqual(res.body.hits.hits.map((h: Json) => h._id).sort(), ["1", "2"]);
  engine.close();
});

Deno.test("dense_vector validation: mapping and documents, with Elasticsearch's reasons", async () => {
  const engine = new Engine();
  const bad = async (properties: Json) =>
    (await exchange(engine, "PUT", "/bad", { mappings: { properties } })).body.error?.reason;
  assert.match(await bad({ e: { type: "dense_vector", dims: 0 } }), /range \[1, 4096\]/);
  assert.match(
    await bad({ e: { type: "dense_vector", dims: 3, similarity: "manhattan" } }),
    /Unknown value \[manhattan\] for field \[similarity\]/,
  );
  assert.match(
    await bad({ e: { type: "dense_vector", dims: 3, index: false, similarity: "cosine" } }),
    /when it is indexed/,
  );
  assert.match(
    await bad({ e: { type: "dense_vector", dims: 3, element_type: "bit16" } }),
    /invalid element_type/,
  );
  await exchange(engine, "PUT", "/v", {
    mappings: {
      properties: {
        c: { type: "dense_vector", dims: 3, similarity: "cosine" },
        d: { type: "dense_vector", dims: 2, similarity: "dot_product" },
        b: { type: "dense_vector", dims: 2, element_type: "byte", similarity: "l2_norm" },
      },
    },
  });
  const put = async (doc: Json) => {
    const res = await exchange(engine, "PUT", "/v/_doc/x", doc);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.type, "document_parsing_exception");
    return res.body.error.caused_by.reason as string;
  };
  assert.match(
    await put({ c: [1, 2] }),
    /different number of dimensions \[2\] than defined in the mapping \[3\]/,
  );
  assert.match(await put({ c: [1, 2, 3, 4] }), /more dimensions than defined in the mapping \[3\]/);
  assert.match(await put({ c: [0, 0, 0] }), /does not support vectors with zero magnitude/);
  assert.match(await put({ d: [1, 1] }), /only be used with unit-length vectors/);
  assert.match(await put({ b: [1, 300] }), /between \[-128, 127\] but found \[300\] at dim \[1\]/);
  assert.match(await put({ c: [1, "x", 3] }), /must hold numbers/);
  const ok = await exchange(engine, "PUT", "/v/_doc/y?refresh=true", {
    b: [-128, 127],
    d: [0.6, 0.8],
  });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  engine.close();
});

Deno.test("knn errors: dims, non-vector field, k and num_candidates", async () => {
  const engine = await vectorIndex("cosine", { "1": [1, 0], "2": [0, 1] });
  const err = async (knn: Json) => {
    const res = await exchange(engine, "POST", "/vec/_search", { knn });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    return JSON.stringify(res.body);
  };
  assert.match(
    await err({ field: "emb", query_vector: [1, 0, 0], k: 1, num_candidates: 1 }),
    /different number of dimensions \[3\] than the document vectors \[2\]/,
  );
  assert.match(
    await err({ field: "cat", query_vector: [1, 0], k: 1, num_candidates: 1 }),
    /only supported on \[dense_vector\] fields/,
  );
  assert.match(
    await err({ field: "emb", query_vector: [1, 0], k: 0 }),
    /\[k\] must be greater than 0/,
  );
  assert.match(
    await err({ field: "emb", query_vector: [1, 0], k: 5, num_candidates: 2 }),
    /cannot be less than \[k\]/,
  );
  assert.match(
    await err({ field: "emb", query_vector: [1, 0], k: 5, num_candidates: 20000 }),
    /cannot exceed \[10000\]/,
  );
  assert.match(
    await err({ field: "emb", query_vector: [0, 0], k: 1, num_candidates: 1 }),
    /zero magnitude/,
  );
  engine.close();
});

Deno.test("knn sees updates and deletes across segments", async () => {
  const engine = await vectorIndex("l2_norm", { "1": [0, 0], "2": [1, 0] });
  await exchange(engine, "PUT", "/vec/_doc/1?refresh=true", { emb: [9, 9] });
  await exchange(engine, "PUT", "/vec/_doc/3?refresh=true", { emb: [0.5, 0] });
  await exchange(engine, "DELETE", "/vec/_doc/2?refresh=true");
  const res = await exchange(engine, "POST", "/vec/_search", {
    knn: { field: "emb", query_vector: [0, 0], k: 2, num_candidates: 5 },
  });
  assert.deepEqual(res.body.hits.hits.map((h: Json) => h._id), ["3", "1"]);
  engine.close();
});

Deno.test("dense_vector without dims: the first vector sets them; dims and similarity are fixed", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/d", {
    mappings: { properties: { v: { type: "dense_vector" } } },
  });
  let bulk = "";
  for (const [id, v] of [["1", [1, 2, 3]], ["2", [3, 2, 1]], ["3", [1, 2]]] as const) {
    bulk += `{"index":{"_id":"${id}"}}\n${JSON.stringify({ v })}\n`;
  }
  const res = await exchange(engine, "POST", "/d/_bulk?refresh=true", bulk);
  assert.deepEqual(res.body.items.map((i: Json) => i.index.status), [201, 201, 400]);
  const mapping = await exchange(engine, "GET", "/d/_mapping");
  assert.equal(mapping.body.d.mappings.properties.v.dims, 3);
  const conflict = async (v: Json) =>
    (await exchange(engine, "PUT", "/d/_mapping", { properties: { v } })).body.error?.reason;
  assert.match(
    await conflict({ type: "dense_vector", dims: 4 }),
    /Cannot update parameter \[dims\] from \[3\] to \[4\]/,
  );
  assert.match(
    await conflict({ type: "dense_vector", dims: 3, similarity: "l2_norm" }),
    /Cannot update parameter \[similarity\] from \[cosine\] to \[l2_norm\]/,
  );
  const knn = await exchange(engine, "POST", "/d/_search", {
    knn: { field: "v", query_vector: [3, 2, 1], k: 1, num_candidates: 2 },
  });
  assert.deepEqual(knn.body.hits.hits.map((h: Json) => h._id), ["2"]);
  engine.close();
});

Deno.test("dynamic mapping: a long float array becomes a dense_vector (Elasticsearch only)", async () => {
  const v = Array.from({ length: 128 }, (_, i) => (i % 7) / 10 + 0.05);
  const es = new Engine();
  await exchange(es, "PUT", "/auto/_doc/1?refresh=true", { v, short: [0.5, 1.5] });
  const mapping = (await exchange(es, "GET", "/auto/_mapping")).body.auto.mappings.properties;
  assert.deepEqual(mapping.v, {
    type: "dense_vector",
    dims: 128,
    index: true,
    similarity: "cosine",
    index_options: { type: "int8_hnsw", m: 16, ef_construction: 100 },
  });
  assert.equal(mapping.short.type, "float");
  const knn = await exchange(es, "POST", "/auto/_search", {
    knn: { field: "v", query_vector: v, k: 1, num_candidates: 1 },
  });
  // Quantised (int8_hnsw, one-doc segment): Elasticsearch 9.5.4 answers 0.9999997; its SIMD
  // dot products sum in another order, so the last bit of the 32-bit score may differ.
  assert.ok(Math.abs(knn.body.hits.hits[0]._score - 0.9999997) <= 1.2e-7);
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  await exchange(os, "PUT", "/auto/_doc/1", { v });
  assert.equal(
    (await exchange(os, "GET", "/auto/_mapping")).body.auto.mappings.properties.v.type,
    "float",
  );
  os.close();
});

Deno.test("OpenSearch's knn_score script and Painless names (l2Squared, l1Norm)", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  await exchange(engine, "PUT", "/os", {
    settings: { index: { knn: true } },
    mappings: { properties: { v: { type: "knn_vector", dimension: 2 } } },
  });
  await exchange(
    engine,
    "POST",
    "/os/_bulk?refresh=true",
    [
      '{"index":{"_id":"a"}}',
      '{"v":[1,0]}',
      '{"index":{"_id":"b"}}',
      '{"v":[0,2]}',
      "",
    ].join("\n"),
  );
  const score = async (script: Json) => {
    const res = await exchange(engine, "POST", "/os/_search", {
      query: { script_score: { query: { match_all: {} }, script } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return Object.fromEntries(res.body.hits.hits.map((h: Json) => [h._id, h._score]));
  };
  const knn = (space: string) => ({
    source: "knn_score",
    lang: "knn",
    params: { field: "v", query_value: [1, 0], space_type: space },
  });
  assert.deepEqual(await score(knn("l2")), { a: 1, b: f32(1 / 6) });
  assert.deepEqual(await score(knn("cosinesimil")), { a: 2, b: 1 });
  assert.deepEqual(await score(knn("innerproduct")), { a: 2, b: 1 });
  assert.deepEqual(await score(knn("l1")), { a: 1, b: f32(1 / 4) });
  assert.deepEqual(
    await score({
      source: "1 / (1 + l2Squared(params.q, doc[params.f])) + l1Norm(params.q, doc[params.f])",
      params: { q: [1, 0], f: "v" },
    }),
    { a: 1, b: f32(1 / 6 + 3) },
  );
  const bad = await exchange(engine, "POST", "/os/_search", {
    query: { script_score: { query: { match_all: {} }, script: { ...knn("manhattan") } } },
  });
  assert.equal(bad.status, 400);
  engine.close();
});
