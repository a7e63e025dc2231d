// Property: the engine's kNN answers (knn section, knn query, script_score) are the exact cosine,
// L2 and inner-product rankings computed in plain JS, over random vectors spread across several
// segments with deletions. The mapping asks for raw-float `hnsw` vectors: the default options
// (`int8_hnsw` below 384 dims) score quantised vectors, as Elasticsearch does.
import assert from "node:assert/strict";
import { Engine } from "../engine/mod.ts";
import { cosine, dot, exactTopK, l2, randomVectors, seeded, unit } from "./support/vectors.ts";
import { call } from "./support/engine_call.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The reply of a call that must succeed. */
async function succeed(
  engine: Engine,
  method: string,
  path: string,
  body?: unknown,
): Promise<Json> {
  const r = await call(engine, method, path, body);
  assert.ok(r.code < 300, JSON.stringify(r));
  return r;
}

const SIMILARITIES = ["cosine", "l2_norm", "dot_product", "max_inner_product"] as const;
type Sim = typeof SIMILARITIES[number];

const rank: Record<Sim, (q: number[]) => (v: readonly number[]) => number> = {
  cosine: (q) => (v) => cosine(q, v),
  l2_norm: (q) => (v) => -l2(q, v),
  dot_product: (q) => (v) => dot(q, v),
  max_inner_product: (q) => (v) => dot(q, v),
};

const score: Record<Sim, (q: number[], v: readonly number[]) => number> = {
  cosine: (q, v) => (1 + cosine(q, v)) / 2,
  l2_norm: (q, v) => 1 / (1 + l2(q, v) ** 2),
  dot_product: (q, v) => (1 + dot(q, v)) / 2,
  max_inner_product: (q, v) => {
    const d = dot(q, v);
    return d < 0 ? 1 / (1 - d) : d + 1;
  },
};

interface Fixture {
  engine: Engine;
  vectors: Map<string, number[]>;
}

/** N docs in 3 refreshes (3 segments), then a tenth of them deleted. */
async function fixture(seed: number, sim: Sim, n: number, dims: number): Promise<Fixture> {
  const engine = new Engine();
  await succeed(engine, "PUT", "/p", {
    mappings: {
      properties: {
        v: { type: "dense_vector", dims, similarity: sim, index_options: { type: "hnsw" } },
        g: { type: "integer" },
      },
    },
  });
  const raw = randomVectors(n, dims, seed);
  const vectors = new Map<string, number[]>();
  for (let batch = 0; batch < 3; batch++) {
    let body = "";
    for (let i = batch; i < n; i += 3) {
      const v = sim === "dot_product" ? unit(raw[i]!) : raw[i]!;
      vectors.set(String(i), v);
      body += `{"index":{"_id":"${i}"}}\n${JSON.stringify({ v, g: i % 4 })}\n`;
    }
    await succeed(engine, "POST", "/p/_bulk?refresh=true", body);
  }
  const pick = seeded(seed + 1);
  for (let j = 0; j < n / 10; j++) {
    const id = String(Math.floor(pick() * n));
    if (!vectors.delete(id)) continue;
    await succeed(engine, "DELETE", `/p/_doc/${id}`);
  }
  await succeed(engine, "POST", "/p/_refresh");
  return { engine, vectors };
}

function expected(f: Fixture, sim: Sim, q: number[], k: number, keep = (_: string) => true) {
  const ids = [...f.vectors.keys()].filter(keep);
  const top = exactTopK(ids.map((id) => f.vectors.get(id)!), rank[sim](q), k);
  return top.map((i) => ids[i]!);
}

const RUNS = 6;
const QUERIES = 5;

for (const sim of SIMILARITIES) {
  Deno.test(`property: knn section, knn query and script_score match the exact ${sim} ranking`, async () => {
    let checked = 0;
    for (let run = 0; run < RUNS; run++) {
      const dims = 3 + run * 5;
      const f = await fixture(1000 + run, sim, 240, dims);
      const queries = randomVectors(QUERIES, dims, 77 + run)
        .map((q) => sim === "dot_product" ? unit(q) : q);
      for (const q of queries) {
        const k = 1 + (checked % 12);
        const want = expected(f, sim, q, k);
        const section = await succeed(f.engine, "POST", "/p/_search", {
          knn: { field: "v", query_vector: q, k, num_candidates: 100 },
          size: k,
        });
        const got = section.hits.hits.map((h: Json) => h._id);
        assert.deepEqual(got, want, `${sim} run ${run} k ${k}`);
        section.hits.hits.forEach((h: Json) => {
          const s = score[sim](q, f.vectors.get(h._id)!);
          assert.ok(Math.abs(h._score - s) <= 1e-5 * Math.max(1, s), `${h._score} vs ${s}`);
        });
        // The knn query, with a filter.
        const even = (id: string) => Number(id) % 4 === 0;
        const filtered = await succeed(f.engine, "POST", "/p/_search", {
          query: {
            knn: {
              field: "v",
              query_vector: q,
              k,
              num_candidates: 100,
              filter: { term: { g: 0 } },
            },
          },
          size: k,
        });
        assert.deepEqual(filtered.hits.hits.map((h: Json) => h._id), expected(f, sim, q, k, even));
        checked += 2;
      }
      // script_score ranks exactly too (cosine and l2 functions, whatever the mapping).
      const q = queries[0]!;
      for (
        const [source, by] of [
          ["cosineSimilarity(params.q, 'v') + 1.0", (v: readonly number[]) => cosine(q, v)],
          ["1 / (1 + l2norm(params.q, doc['v']))", (v: readonly number[]) => -l2(q, v)],
        ] as const
      ) {
        const res = await succeed(f.engine, "POST", "/p/_search", {
          query: { script_score: { query: { match_all: {} }, script: { source, params: { q } } } },
          size: 10,
        });
        const ids = [...f.vectors.keys()];
        const want = exactTopK(ids.map((id) => f.vectors.get(id)!), by, 10).map((i) => ids[i]!);
        assert.deepEqual(res.hits.hits.map((h: Json) => h._id), want);
        checked++;
      }
      f.engine.close();
    }
    assert.equal(checked, RUNS * (QUERIES * 2 + 2));
  });
}
