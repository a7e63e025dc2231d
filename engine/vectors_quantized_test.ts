// kNN over quantised vectors (`int8_*`, `int4_*`, the default `int8_hnsw` below 384 dims): the
// scores Elasticsearch 9.5.4 answered for the same documents and query, per segment.
import assert from "node:assert/strict";
import { Engine } from "./engine.ts";
import { exchange } from "../tests/support/engine_call.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

const DOCS = [
  [0.12, -0.5, 0.33, 0.8],
  [0.9, 0.1, -0.25, 0.05],
  [-0.4, 0.7, 0.6, -0.1],
  [0.3, 0.3, 0.3, 0.3],
  [-0.75, -0.2, 0.15, 0.55],
  [0.05, 0.95, -0.6, 0.2],
];
const QUERY = [0.5, -0.2, 0.1, 0.9];

function unit(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
}

interface Case {
  /** The `v` field's mapping. */
  readonly mapping: Json;
  /** Doc numbers per refresh (one segment each). */
  readonly segments?: readonly (readonly number[])[];
  /** More of the `knn` section. */
  readonly knn?: Json;
  /** What Elasticsearch 9.5.4 answered: [_id, _score] in order. */
  readonly real: readonly (readonly [string, number])[];
}

const vector = (similarity: string, type?: string, more: Json = {}): Json => ({
  type: "dense_vector",
  dims: 4,
  similarity,
  ...(type ? { index_options: { type, ...more } } : {}),
});

const CASES: Record<string, Case> = {
  "int8_flat cosine": {
    mapping: vector("cosine", "int8_flat"),
    real: [["0", 0.9298244], ["3", 0.8082571], ["1", 0.7297803], ["4", 0.58627546], [
      "5",
      0.48355216,
    ], ["2", 0.32550794]],
  },
  "int4_hnsw cosine": {
    mapping: vector("cosine", "int4_hnsw"),
    real: [["0", 0.9272443], ["3", 0.80508006], ["1", 0.72163564], ["4", 0.5789418], [
      "5",
      0.49101013,
    ], ["2", 0.3250746]],
  },
  "int8_flat l2_norm": {
    mapping: vector("l2_norm", "int8_flat"),
    real: [["0", 0.7719864], ["3", 0.5917884], ["1", 0.4754718], ["4", 0.37246257], [
      "5",
      0.28546348,
    ], ["2", 0.25840345]],
  },
  "int4_hnsw l2_norm": {
    mapping: vector("l2_norm", "int4_hnsw"),
    real: [["0", 0.75687397], ["3", 0.5924049], ["1", 0.47263098], ["4", 0.37333104], [
      "5",
      0.28490734,
    ], ["2", 0.25843644]],
  },
  "int8_flat dot_product": {
    mapping: vector("dot_product", "int8_flat"),
    real: [["0", 0.9298245], ["3", 0.80825704], ["1", 0.7297804], ["4", 0.5862755], [
      "5",
      0.48355216,
    ], ["2", 0.325508]],
  },
  "int4_hnsw dot_product": {
    mapping: vector("dot_product", "int4_hnsw"),
    real: [["0", 0.9272445], ["3", 0.80508006], ["1", 0.72163564], ["4", 0.57894176], [
      "5",
      0.49101013,
    ], ["2", 0.32507455]],
  },
  "int8_flat max_inner_product": {
    mapping: vector("max_inner_product", "int8_flat"),
    real: [["0", 1.9139702], ["1", 1.4459128], ["3", 1.3901035], ["4", 1.1763333], [
      "5",
      0.95781994,
    ], ["2", 0.72994894]],
  },
  "int4_hnsw max_inner_product": {
    mapping: vector("max_inner_product", "int4_hnsw"),
    real: [["0", 1.901038], ["1", 1.4395921], ["3", 1.3909826], ["4", 1.1794561], [
      "5",
      0.9546937,
    ], ["2", 0.7300806]],
  },
  "default (int8_hnsw) l2_norm in two segments": {
    mapping: vector("l2_norm"),
    segments: [[0, 1, 2], [3, 4, 5]],
    real: [["0", 0.7704928], ["3", 0.5917303], ["1", 0.47632888], ["4", 0.37232667], [
      "5",
      0.28536603,
    ], ["2", 0.25851825]],
  },
  "rescore_vector in the query: the raw scores of the best k": {
    mapping: vector("cosine", "int8_hnsw"),
    knn: { k: 2, rescore_vector: { oversample: 2 } },
    real: [["0", 0.9304377], ["3", 0.8084763]],
  },
  "rescore_vector in the mapping": {
    mapping: vector("cosine", "int8_hnsw", { rescore_vector: { oversample: 1.5 } }),
    real: [["0", 0.9304377], ["3", 0.8084763], ["1", 0.72701234], ["4", 0.5862362], [
      "5",
      0.48130542,
    ], ["2", 0.3261358]],
  },
  "oversample 0 in the query turns the mapping's rescoring off": {
    mapping: vector("cosine", "int8_hnsw", { rescore_vector: { oversample: 1.5 } }),
    knn: { rescore_vector: { oversample: 0 } },
    real: [["0", 0.9298244], ["3", 0.8082571], ["1", 0.7297803], ["4", 0.58627546], [
      "5",
      0.48355216,
    ], ["2", 0.32550794]],
  },
  "a similarity threshold on quantised scores": {
    mapping: vector("l2_norm", "int8_flat"),
    knn: { similarity: 1.2 },
    real: [["0", 0.7719864], ["3", 0.5917884], ["1", 0.4754718]],
  },
  "hnsw: raw floats": {
    mapping: vector("cosine", "hnsw"),
    real: [["0", 0.9304377], ["3", 0.8084763], ["1", 0.72701234], ["4", 0.5862362], [
      "5",
      0.48130542,
    ], ["2", 0.3261358]],
  },
};

for (const [name, c] of Object.entries(CASES)) {
  Deno.test(`quantised knn: ${name}`, async () => {
    const engine = new Engine();
    const created = await exchange(engine, "PUT", "/g", {
      mappings: { properties: { v: c.mapping } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const dot = c.mapping.similarity === "dot_product";
    for (const segment of c.segments ?? [[0, 1, 2, 3, 4, 5]]) {
      let bulk = "";
      for (const i of segment) {
        bulk += JSON.stringify({ index: { _id: String(i) } }) + "\n" +
          JSON.stringify({ v: dot ? unit(DOCS[i]!) : DOCS[i] }) + "\n";
      }
      const res = await exchange(engine, "POST", "/g/_bulk?refresh=true", bulk);
      assert.equal(res.body.errors, false, JSON.stringify(res.body));
    }
    const res = await exchange(engine, "POST", "/g/_search", {
      knn: {
        field: "v",
        query_vector: dot ? unit(QUERY) : QUERY,
        k: 6,
        num_candidates: 6,
        ...c.knn,
      },
      _source: false,
      size: 6,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const got: [string, number][] = res.body.hits.hits.map((h: Json) => [h._id, h._score]);
    assert.deepEqual(got.map(([id]) => id), c.real.map(([id]) => id));
    got.forEach(([id, score], i) => {
      const real = c.real[i]![1];
      // The real engine's SIMD sums run in another order: a 32-bit ulp or two apart at most.
      assert.ok(Math.abs(score - real) <= 2.5e-7 * Math.max(1, real), `${id}: ${score} vs ${real}`);
    });
    engine.close();
  });
}

Deno.test("quantised knn: rescore_vector refused as Elasticsearch refuses it", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/g", { mappings: { properties: { v: vector("l2_norm") } } });
  const search = (rescore: unknown) =>
    exchange(engine, "POST", "/g/_search", {
      knn: { field: "v", query_vector: QUERY, k: 2, num_candidates: 5, rescore_vector: rescore },
    });
  // Elasticsearch 9.5.4's chains of causes (less the [line:col] of each reason).
  const chain = (e: Json): string[] => e ? [`${e.type}: ${e.reason}`, ...chain(e.caused_by)] : [];
  const small = await search({ oversample: 0.5 });
  assert.equal(small.status, 400);
  assert.deepEqual(chain(small.body.error), [
    "x_content_parse_exception: [knn] failed to parse field [rescore_vector]",
    "x_content_parse_exception: [rescore_vector] failed to parse field [oversample]",
    "x_content_parse_exception: Failed to build [rescore_vector] after last required field arrived",
    "illegal_argument_exception: [oversample] must be >= 1.0 or 0",
  ]);
  const unknown = await search({ oversample: 2, x: 1 });
  assert.equal(unknown.status, 400);
  assert.deepEqual(chain(unknown.body.error), [
    "x_content_parse_exception: [knn] failed to parse field [rescore_vector]",
    "x_content_parse_exception: [rescore_vector] unknown field [x]",
  ]);
  const none = await search({});
  assert.deepEqual(chain(none.body.error), [
    "x_content_parse_exception: [knn] failed to parse field [rescore_vector]",
    "illegal_argument_exception: Required [oversample]",
  ]);
  const large = await search({ oversample: 10001 });
  assert.equal(large.status, 200);
  engine.close();
});

Deno.test("quantised knn: index_options Elasticsearch refuses", async () => {
  const engine = new Engine();
  const create = (v: Json) => exchange(engine, "PUT", "/x", { mappings: { properties: { v } } });
  // Elasticsearch 9.5.4's reasons and causes.
  const odd = await create({ type: "dense_vector", dims: 3, index_options: { type: "int4_flat" } });
  assert.equal(odd.status, 400);
  assert.equal(
    odd.body.error.reason,
    "Failed to parse mapping: int4_flat only supports even dimensions; provided=3",
  );
  assert.equal(odd.body.error.caused_by.type, "illegal_argument_exception");
  const unknown = await create({ type: "dense_vector", dims: 3, index_options: { type: "foo" } });
  assert.equal(
    unknown.body.error.root_cause[0].reason,
    "Unknown vector index options type [foo] for field [v]",
  );
  const bytes = await create({
    type: "dense_vector",
    dims: 3,
    element_type: "byte",
    index_options: { type: "int8_hnsw" },
  });
  assert.equal(
    bytes.body.error.caused_by.reason,
    "[element_type] cannot be [byte] when using index type [int8_hnsw]",
  );
  const ok = await create({
    type: "dense_vector",
    dims: 3,
    index_options: { type: "int8_flat", confidence_interval: 0.5 },
  });
  assert.equal(ok.status, 200);
  engine.close();
});

Deno.test("_stats dense_vector: values and vector file sizes per field", async () => {
  const engine = new Engine();
  const v = Array.from({ length: 64 }, (_, i) => 0.1 * (i % 7));
  const field = (dims: number, more: Json = {}) => ({ type: "dense_vector", dims, ...more });
  await exchange(engine, "PUT", "/d", {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        a: field(64, { index_options: { type: "flat" } }),
        b: field(64, { index_options: { type: "bbq_flat" } }),
        c: field(64, { index_options: { type: "hnsw" } }),
        d: field(64, { index_options: { type: "int4_flat" } }),
        e: field(4, { element_type: "byte" }),
        f: field(4, { index: false }),
        g: field(4),
        h: field(4, { similarity: "l2_norm", index_options: { type: "int8_flat" } }),
      },
    },
  });
  await exchange(engine, "POST", "/d/_doc/1?refresh=true", {
    a: v,
    b: v,
    c: v,
    d: v,
    e: [1, 2, 3, 4],
    f: [1, 2, 3, 4],
    g: [0.1, 0.2, 0.3, 0.4],
  });
  await exchange(engine, "POST", "/d/_doc/2", { g: [0.5, 0.2, 0.3, 0.4], h: [1, 2, 3, 4] });
  await exchange(engine, "POST", "/d/_doc/3?refresh=true", { h: [1, 2, 3, 5] });
  await exchange(engine, "DELETE", "/d/_doc/2?refresh=true");
  const stats = (await exchange(engine, "GET", "/d/_stats/dense_vector?level=shards")).body;
  // Elasticsearch 9.5.4's answer: deleted documents' values still count until merged away.
  const totals = {
    total_size_bytes: 1242,
    total_veb_size_bytes: 22,
    total_vec_size_bytes: 1092,
    total_veq_size_bytes: 128,
    total_vex_size_bytes: 0,
    total_cenivf_size_bytes: 0,
    total_clivf_size_bytes: 0,
  };
  assert.deepEqual(stats._all.primaries.dense_vector, { value_count: 9, off_heap: totals });
  assert.deepEqual(stats.indices.d.primaries.dense_vector, {
    value_count: 9,
    off_heap: {
      ...totals,
      fielddata: {
        a: { vec_size_bytes: 256 },
        b: { veb_size_bytes: 22, vec_size_bytes: 256 },
        c: { vec_size_bytes: 256, vex_size_bytes: 0 },
        d: { vec_size_bytes: 256, veq_size_bytes: 48 },
        e: { vec_size_bytes: 4, vex_size_bytes: 0 },
        g: { vec_size_bytes: 32, veq_size_bytes: 40, vex_size_bytes: 0 },
        h: { vec_size_bytes: 32, veq_size_bytes: 40 },
      },
    },
  });
  assert.deepEqual(stats.indices.d.shards["0"][0].dense_vector, { value_count: 9 });
  engine.close();
});

Deno.test("quantised knn: with rescoring, the similarity threshold holds the raw scores", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/r", {
    mappings: { properties: { v: { ...vector("l2_norm", "int8_flat"), dims: 3 } } },
  });
  const docs = [[1, 2, 3], [2, 1, 0.5], [-1, 0, 2], [0.3, 0.2, -1], [5, 5, 5]];
  let bulk = "";
  docs.forEach((v, i) => bulk += `{"index":{"_id":"${i}"}}\n${JSON.stringify({ v })}\n`);
  await exchange(engine, "POST", "/r/_bulk?refresh=true", bulk);
  const hits = async (extra: Json) =>
    (await exchange(engine, "POST", "/r/_search", {
      knn: { field: "v", query_vector: [1, 1, 1], k: 3, num_candidates: 5, ...extra },
      _source: false,
    })).body.hits.hits.map((h: Json) => [h._id, h._score]);
  // Elasticsearch 9.5.4: doc 1 lies 1.118034 away; its quantised score puts it at 1.117803.
  assert.deepEqual(await hits({ similarity: 1.1179 }), [["1", 0.44454715]]);
  const rescore = { rescore_vector: { oversample: 2 } };
  assert.deepEqual(await hits({ similarity: 1.1179, ...rescore }), []);
  assert.deepEqual(await hits({ similarity: 1.1181, ...rescore }), [["1", 0.44444445]]);
  engine.close();
});

/** Deterministic vectors with three decimals (the same the real engine was given). */
function seededVectors(n: number, dims: number, seed: number): number[][] {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  return Array.from(
    { length: n },
    () => Array.from({ length: dims }, () => Math.round((next() * 2 - 1) * 1000) / 1000),
  );
}

Deno.test("quantised knn: BBQ picks the candidates its rescoring ranks", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/b", {
    mappings: {
      properties: {
        v: {
          type: "dense_vector",
          dims: 64,
          similarity: "cosine",
          index_options: { type: "bbq_hnsw" },
        },
      },
    },
  });
  let bulk = "";
  seededVectors(40, 64, 99).forEach((v, i) =>
    bulk += `{"index":{"_id":"${i}"}}\n${JSON.stringify({ v })}\n`
  );
  await exchange(engine, "POST", "/b/_bulk?refresh=true", bulk);
  const q = seededVectors(1, 64, 7)[0]!;
  const hits = async (extra: Json) =>
    (await exchange(engine, "POST", "/b/_search", {
      knn: { field: "v", query_vector: q, k: 5, num_candidates: 40, ...extra },
      _source: false,
    })).body.hits.hits.map((h: Json) => [h._id, h._score] as [string, number]);
  const close = (got: [string, number][], real: [string, number][]) => {
    assert.deepEqual(got.map(([id]) => id), real.map(([id]) => id));
    got.forEach(([, s], i) => assert.ok(Math.abs(s - real[i]![1]) <= 5e-7, `${s} vs ${real[i]}`));
  };
  // Elasticsearch 9.5.4. Rescored (oversample 3 by default): the 15 best by BBQ leave out doc
  // 17, fourth by the raw vectors, so 34 comes fifth.
  close(await hits({}), [["11", 0.6425522], ["25", 0.62440306], ["13", 0.6141629], [
    "36",
    0.5794649,
  ], ["34", 0.57077837]]);
  // Without rescoring: BBQ's own scores.
  close(await hits({ rescore_vector: { oversample: 0 } }), [
    ["11", 0.6781008],
    [
      "13",
      0.63952935,
    ],
    ["36", 0.6385334],
    ["25", 0.63173115],
    ["30", 0.6119214],
  ]);
  engine.close();
});

Deno.test("quantised knn: a merge keeps deleted documents' vectors in the centroid", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/fm", {
    settings: { number_of_shards: 1 },
    mappings: { properties: { v: vector("l2_norm", "int8_flat") } },
  });
  for (const segment of [[0, 1, 2], [3, 4, 5]]) {
    let bulk = "";
    for (const i of segment) {
      bulk += `{"index":{"_id":"${i}"}}\n${JSON.stringify({ v: DOCS[i] })}\n`;
    }
    await exchange(engine, "POST", "/fm/_bulk?refresh=true", bulk);
  }
  await exchange(engine, "DELETE", "/fm/_doc/1");
  await exchange(engine, "DELETE", "/fm/_doc/4?refresh=true");
  await exchange(engine, "POST", "/fm/_forcemerge?max_num_segments=1");
  const res = await exchange(engine, "POST", "/fm/_search", {
    knn: { field: "v", query_vector: QUERY, k: 6, num_candidates: 6 },
    _source: false,
  });
  // Elasticsearch 9.5.4: the merged segment still holds the two deleted vectors (soft deletes
  // kept for history), so the scores are those of the six in one segment.
  const real = [["0", 0.7719864], ["3", 0.5917884], ["5", 0.28546348], ["2", 0.25840345]] as const;
  const got = res.body.hits.hits.map((h: Json) => [h._id, h._score]);
  assert.deepEqual(got.map(([id]: [string]) => id), real.map(([id]) => id));
  got.forEach(([, s]: [string, number], i: number) =>
    assert.ok(Math.abs(s - real[i]![1]) <= 2.5e-7, `${s} vs ${real[i]}`)
  );
  const stats = (await exchange(engine, "GET", "/fm/_stats/dense_vector")).body;
  assert.deepEqual(stats._all.primaries.dense_vector, {
    value_count: 6,
    off_heap: {
      total_size_bytes: 216,
      total_veb_size_bytes: 0,
      total_vec_size_bytes: 96,
      total_veq_size_bytes: 120,
      total_vex_size_bytes: 0,
      total_cenivf_size_bytes: 0,
      total_clivf_size_bytes: 0,
    },
  });
  engine.close();
});
