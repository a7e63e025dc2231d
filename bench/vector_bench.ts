// Vector search: exact k = 10 nearest over 100,000 vectors of 384 dimensions, through the search
// core (knn section, knn query) and script_score, against a hand-written Float32Array brute-force
// loop over the same vectors in the same run.
//
//   deno bench -A bench/vector_bench.ts              (latency, against the baseline)
//   deno run -A --v8-flags=--expose-gc bench/vector_bench.ts --report
//                                                    (load rate, heap per vector, p50/p99)
//   ... --report --dims 64 --index-options int8_hnsw  (other dimensions; quantised vectors)

import { Shard } from "../engine/_index/shard.ts";
import { searchApi, searchApiSliced, SearchContexts } from "../engine/_search/search_api.ts";
import type { Mappings, StoredDoc } from "../engine/_index/types.ts";
import { withVectorDefaults } from "../engine/_index/vectors.ts";
import type { SearchTarget } from "../engine/_index/search_target.ts";
import { seeded } from "../tests/support/vectors.ts";
import { heapInUse, percentile } from "./_measure.ts";

/** The value after `--name` on the command line, if any. */
function flag(name: string): string | undefined {
  const at = Deno.args.indexOf(`--${name}`);
  return at >= 0 ? Deno.args[at + 1] : undefined;
}

const COUNT = 100_000;
const DIMS = Number(flag("dims") ?? 384);
const K = 10;
/**
 * `index_options.type` of the field, with the defaults the REST API fills in (`bbq_*` rescored
 * with oversample 3); none: the mapping as given, raw floats (through the REST API the default
 * would be `bbq_hnsw` at 384 dims).
 */
const INDEX_OPTIONS = flag("index-options");

const mappings: Mappings = {
  properties: {
    emb: INDEX_OPTIONS
      ? withVectorDefaults({
        type: "dense_vector",
        dims: DIMS,
        similarity: "cosine",
        index_options: { type: INDEX_OPTIONS },
      })
      : { type: "dense_vector", dims: DIMS, similarity: "cosine" },
  },
};

/** All vectors in one Float32Array (deterministic, about 0.5 s to make). */
function generate(count = COUNT): Float32Array {
  const next = seeded(42);
  const data = new Float32Array(count * DIMS);
  for (let i = 0; i < data.length; i++) data[i] = next() * 2 - 1;
  return data;
}

function docsOf(data: Float32Array, count: number): StoredDoc[] {
  const docs: StoredDoc[] = [];
  for (let i = 0; i < count; i++) {
    docs.push({
      id: String(i),
      source: { emb: Array.from(data.subarray(i * DIMS, (i + 1) * DIMS)) },
      version: 1,
      seqNo: i,
      primaryTerm: 1,
    });
  }
  return docs;
}

function load(docs: StoredDoc[]): Shard {
  const shard = new Shard();
  shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), mappings);
  return shard;
}

/** The baseline: cosine of every vector with the query, top k kept in a small sorted array. */
export function bruteForce(data: Float32Array, norms: Float32Array, q: Float32Array): number[] {
  let qn = 0;
  for (let i = 0; i < DIMS; i++) qn += q[i]! * q[i]!;
  qn = Math.sqrt(qn);
  const bestScore = new Float64Array(K).fill(-Infinity);
  const bestDoc = new Int32Array(K).fill(-1);
  const n = norms.length;
  for (let d = 0; d < n; d++) {
    const at = d * DIMS;
    let s = 0;
    for (let i = 0; i < DIMS; i++) s += q[i]! * data[at + i]!;
    const score = (1 + s / (qn * norms[d]!)) / 2;
    if (score <= bestScore[K - 1]!) continue;
    let j = K - 1;
    while (j > 0 && bestScore[j - 1]! < score) {
      bestScore[j] = bestScore[j - 1]!;
      bestDoc[j] = bestDoc[j - 1]!;
      j--;
    }
    bestScore[j] = score;
    bestDoc[j] = d;
  }
  return Array.from(bestDoc);
}

function normsOf(data: Float32Array): Float32Array {
  const norms = new Float32Array(data.length / DIMS);
  for (let d = 0; d < norms.length; d++) {
    let s = 0;
    for (let i = 0; i < DIMS; i++) s += data[d * DIMS + i]! ** 2;
    norms[d] = Math.sqrt(s);
  }
  return norms;
}

const QUERIES = (() => {
  const next = seeded(7);
  return Array.from({ length: 8 }, () => Float32Array.from({ length: DIMS }, () => next() * 2 - 1));
})();

let fixture:
  | { data: Float32Array; norms: Float32Array; target: SearchTarget; ctx: SearchContexts }
  | undefined;

function setup() {
  if (fixture) return fixture;
  const data = generate();
  const shard = load(docsOf(data, COUNT));
  fixture = {
    data,
    norms: normsOf(data),
    target: { index: "vec", snapshot: shard.snapshot(), mappings, maxResultWindow: 10000 },
    ctx: new SearchContexts(),
  };
  return fixture;
}

const params = new URLSearchParams();
let turn = 0;
const query = () => QUERIES[turn++ % QUERIES.length]!;
const ids = (res: unknown) =>
  (res as { hits: { hits: { _id: string }[] } }).hits.hits.map((h) => h._id);

/** The search body of each engine bench. */
function body(kind: "section" | "query" | "script", q: Float32Array): Record<string, unknown> {
  const vector = Array.from(q);
  if (kind === "section") {
    return {
      knn: { field: "emb", query_vector: vector, k: K, num_candidates: 100 },
      _source: false,
    };
  }
  if (kind === "query") {
    return {
      query: { knn: { field: "emb", query_vector: vector, k: K, num_candidates: 100 } },
      _source: false,
    };
  }
  return {
    query: {
      script_score: {
        query: { match_all: {} },
        script: { source: "cosineSimilarity(params.q, 'emb') + 1.0", params: { q: vector } },
      },
    },
    _source: false,
  };
}

if (!Deno.args.includes("--report")) {
  Deno.bench("Float32Array brute force, k=10 of 100k×384 (baseline)", {
    group: "knn",
    baseline: true,
  }, () => {
    const f = setup();
    bruteForce(f.data, f.norms, query());
  });
  Deno.bench("engine knn section, k=10 of 100k×384", { group: "knn" }, () => {
    const f = setup();
    searchApi(f.ctx, [f.target], body("section", query()), params);
  });
  Deno.bench("engine knn query, k=10 of 100k×384", { group: "knn" }, () => {
    const f = setup();
    searchApi(f.ctx, [f.target], body("query", query()), params);
  });
  Deno.bench("engine script_score cosineSimilarity, top 10 of 100k×384", {
    group: "script",
    n: 5,
  }, () => {
    const f = setup();
    searchApi(f.ctx, [f.target], body("script", query()), params);
  });
} else {
  await report();
}

/**
 * Runs `work` (started inside, after a probe that takes event-loop turns as often as it can) and
 * returns the longest time the event loop went without a turn meanwhile: how long another
 * request arriving then would have waited at most.
 */
async function longestPause(work: () => Promise<unknown>): Promise<number> {
  let done = false;
  let longest = 0;
  let last = performance.now();
  const probe = (async () => {
    while (!done) {
      await new Promise<void>((resolve) => {
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = () => {
          port1.close();
          port2.close();
          resolve();
        };
        port2.postMessage(null);
      });
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }
  })();
  await Promise.resolve();
  await work();
  done = true;
  await probe;
  return longest;
}

async function report(): Promise<void> {
  // A large refresh schedules its quantisation on a timer: the runtime's timer code (about 1 MB
  // of heap, once) is loaded first, so that it is not counted as the index's.
  clearTimeout(setTimeout(() => {}, 0));
  const used = heapInUse;
  const data = generate();
  const norms = normsOf(data);
  const start = used();
  const docs = docsOf(data, COUNT);
  const withSources = used();
  const t0 = performance.now();
  const shard = load(docs);
  const loadMs = performance.now() - t0;
  const after = used();
  console.log(`mapping: ${JSON.stringify(mappings.properties!.emb)}`);
  console.log(
    `load: ${COUNT} vectors × ${DIMS} in ${loadMs.toFixed(0)} ms = ${
      (COUNT / loadMs * 1000).toFixed(0)
    } vectors/s`,
  );
  console.log(
    `heap: ${((after - withSources) / COUNT).toFixed(0)} bytes/vector for the index (raw float32: ${
      DIMS * 4
    }), ${((after - start) / COUNT).toFixed(0)} bytes/vector with the _source arrays`,
  );
  const target: SearchTarget = {
    index: "vec",
    snapshot: shard.snapshot(),
    mappings,
    maxResultWindow: 10000,
  };
  const ctx = new SearchContexts();
  // Quantised mappings make their codes on the first kNN search: time-sliced, as the REST layer
  // runs it, while a probe measures the event loop's longest wait for a turn.
  const t1 = performance.now();
  const pauseMs = await longestPause(() =>
    searchApiSliced(ctx, [target], { body: body("section", query()), params })
  );
  const firstMs = performance.now() - t1;
  console.log(
    `first knn search (time-sliced): ${firstMs.toFixed(0)} ms, the event loop's longest wait ${
      pauseMs.toFixed(1)
    } ms; heap then ${((used() - withSources) / COUNT).toFixed(0)} bytes/vector for the index`,
  );
  // Searches after the first, time-sliced: the longest wait for a turn while each kind runs
  // (the codes are made already, so this is the scoring alone).
  for (const kind of ["section", "query"] as const) {
    let longest = 0;
    const t2 = performance.now();
    const runs = 10;
    for (let i = 0; i < runs; i++) {
      const q = query();
      longest = Math.max(
        longest,
        await longestPause(() => searchApiSliced(ctx, [target], { body: body(kind, q), params })),
      );
    }
    console.log(
      `knn ${kind} (time-sliced, ${runs} searches): ${
        ((performance.now() - t2) / runs).toFixed(1)
      } ms each, the event loop's longest wait ${longest.toFixed(1)} ms`,
    );
  }
  // Baseline and engine run alternately on the same query, so a busy machine slows both alike;
  // the ratio is the median of the per-pair ratios.
  const paired = (fn: (q: Float32Array) => unknown, n: number) => {
    const base: number[] = [];
    const engine: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < n + 3; i++) {
      const q = query();
      let s = performance.now();
      bruteForce(data, norms, q);
      const b = performance.now() - s;
      s = performance.now();
      fn(q);
      const e = performance.now() - s;
      if (i < 3) continue; // warm-up
      base.push(b);
      engine.push(e);
      ratios.push(e / b);
    }
    for (const list of [base, engine, ratios]) list.sort((x, y) => x - y);
    return { base, engine, ratio: percentile(ratios, 0.5) };
  };
  for (const kind of ["section", "query", "script"] as const) {
    const r = paired(
      (q) => searchApi(ctx, [target], body(kind, q), params),
      kind === "script" ? 8 : 40,
    );
    console.log(
      `engine ${kind}: p50 ${percentile(r.engine, 0.5).toFixed(1)} ms, p99 ${
        percentile(r.engine, 0.99).toFixed(1)
      } ms; brute force p50 ${percentile(r.base, 0.5).toFixed(1)} ms; median ratio ${
        r.ratio.toFixed(2)
      }× brute force`,
    );
  }
  // Same answers as the baseline: recall@10 of the exact search over every query.
  let found = 0;
  for (const q of QUERIES) {
    const want = new Set(bruteForce(data, norms, q).map(String));
    for (const id of ids(searchApi(ctx, [target], body("section", q), params))) {
      if (want.has(id)) found++;
    }
  }
  console.log(`recall@${K} against brute force: ${(found / (K * QUERIES.length)).toFixed(3)}`);
}
