// Search core benchmarks: 100,000 generated documents loaded through Shard, then term, match,
// range and bool queries; MiniSearch indexing and searching the same titles is the baseline.
//
//   deno bench -A bench/engine_bench.ts
//   deno run -A bench/engine_bench.ts --scale   (engine_scale.ts: _bulk over HTTP, up to 1M docs)

import MiniSearch from "npm:minisearch@7";
import { Shard } from "../engine/_index/shard.ts";
import { searchApi, SearchContexts } from "../engine/_search/search_api.ts";
import type { Mappings, StoredDoc } from "../engine/_index/types.ts";
import type { SearchTarget } from "../engine/_index/search_target.ts";
import { heapInUse, percentile } from "./_measure.ts";

const DOCS = 100_000;
const VOCAB = Array.from({ length: 2000 }, (_, i) => "w" + i.toString(36) + "x");
const CATEGORIES = Array.from({ length: 20 }, (_, i) => "cat" + i);

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf-ish word pick: low ranks are much more frequent. */
function zipf(r: () => number): string {
  return VOCAB[
    Math.min(VOCAB.length - 1, Math.floor(Math.exp(r() * Math.log(VOCAB.length + 1)) - 1))
  ]!;
}

export const mappings: Mappings = {
  properties: {
    title: { type: "text" },
    category: { type: "keyword" },
    price: { type: "double" },
    date: { type: "date" },
  },
};

/** The generated documents. */
export function generate(n = DOCS): StoredDoc[] {
  const r = rng(42);
  const docs: StoredDoc[] = [];
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 5 + Math.floor(r() * 8) }, () => zipf(r));
    docs.push({
      id: String(i),
      source: {
        title: words.join(" "),
        category: CATEGORIES[Math.floor(r() * r() * CATEGORIES.length)],
        price: Math.round(r() * 100000) / 100,
        date: new Date(Date.UTC(2021, 0, 1) + Math.floor(r() * 3 * 365) * 86_400_000).toISOString(),
      },
      version: 1,
      seqNo: i,
      primaryTerm: 1,
    });
  }
  return docs;
}

/** A shard loaded with the docs. */
export function load(docs: StoredDoc[]): Shard {
  const shard = new Shard();
  shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), mappings);
  return shard;
}

/** The benchmark queries. */
export const QUERIES: Record<string, Record<string, unknown>> = {
  term: { query: { term: { category: "cat3" } } },
  match: { query: { match: { title: `${VOCAB[40]} ${VOCAB[300]}` } } },
  range: { query: { range: { price: { gte: 100, lt: 150 } } } },
  bool: {
    query: {
      bool: {
        must: [{ match: { title: VOCAB[12] } }],
        filter: [{ term: { category: "cat1" } }, { range: { date: { gte: "2022-01-01" } } }],
        must_not: [{ match: { title: VOCAB[3] } }],
      },
    },
  },
  sort: { query: { range: { price: { gte: 100 } } }, sort: [{ price: "asc" }] },
  aggs: { size: 0, aggs: { c: { terms: { field: "category" } }, p: { avg: { field: "price" } } } },
};

/** MiniSearch over the same titles. */
export function loadMiniSearch(docs: StoredDoc[]): MiniSearch {
  const ms = new MiniSearch({ fields: ["title"], idField: "id" });
  ms.addAll(docs.map((d) => ({ id: d.id, title: d.source.title as string })));
  return ms;
}

/** Prints load rate, heap per doc and p50/p99 latencies (`deno run -A bench/engine_bench.ts --report`). */
function report(): void {
  const used = heapInUse;
  const start = used();
  const docs = generate();
  const before = used();
  const t0 = performance.now();
  const shard = load(docs);
  const loadMs = performance.now() - t0;
  const after = used();
  const mini = loadMiniSearch(docs);
  const ctx = new SearchContexts();
  const target: SearchTarget = {
    index: "bench",
    snapshot: shard.snapshot(),
    mappings,
    maxResultWindow: 10000,
  };
  const params = new URLSearchParams();
  const time = (fn: () => void, n = 300): [number, number] => {
    for (let i = 0; i < 20; i++) fn();
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = performance.now();
      fn();
      samples.push(performance.now() - s);
    }
    samples.sort((a, b) => a - b);
    return [percentile(samples, 0.5), percentile(samples, 0.99)];
  };
  console.log(
    `load: ${DOCS} docs in ${loadMs.toFixed(0)} ms = ${(DOCS / loadMs * 1000).toFixed(0)} docs/s`,
  );
  console.log(
    `heap: ${((after - before) / DOCS).toFixed(0)} bytes/doc for the index, ${
      ((after - start) / DOCS).toFixed(0)
    } bytes/doc with the sources (heap + external, after gc)`,
  );
  const matchText = `${VOCAB[40]} ${VOCAB[300]}`;
  const [mp50, mp99] = time(() => mini.search(matchText).slice(0, 10));
  console.log(`minisearch match: p50 ${mp50.toFixed(2)} ms, p99 ${mp99.toFixed(2)} ms`);
  for (const [name, body] of Object.entries(QUERIES)) {
    const [p50, p99] = time(() => searchApi(ctx, [target], body, params));
    console.log(`engine ${name}: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
  }
}

/** Loads the docs into a full Engine through `_bulk` and times `_search` over its fetch. */
async function reportEngine(): Promise<void> {
  // Imported here so the core benches run even while the REST layer is being changed.
  const { Engine } = await import("../engine/mod.ts");
  const docs = generate();
  const engine = new Engine();
  const call = async (method: string, path: string, body?: string, type = "application/json") => {
    const res = await engine.fetch(`http://engine${path}`, {
      method,
      body,
      headers: { "content-type": type },
    });
    const text = await res.text();
    if (res.status >= 300) {
      throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    }
    return text;
  };
  await call("PUT", "/bench", JSON.stringify({ mappings }));
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += 5000) {
    const lines: string[] = [];
    for (const d of docs.slice(i, i + 5000)) {
      lines.push(JSON.stringify({ index: { _id: d.id } }), JSON.stringify(d.source));
    }
    await call("POST", "/bench/_bulk", lines.join("\n") + "\n", "application/x-ndjson");
  }
  await call("POST", "/bench/_refresh");
  const loadMs = performance.now() - t0;
  console.log(
    `engine _bulk + refresh: ${DOCS} docs in ${loadMs.toFixed(0)} ms = ${
      (DOCS / loadMs * 1000).toFixed(0)
    } docs/s`,
  );
  for (const [name, body] of Object.entries(QUERIES)) {
    const text = JSON.stringify(body);
    const samples: number[] = [];
    for (let i = 0; i < 320; i++) {
      const s = performance.now();
      await call("POST", "/bench/_search", text);
      if (i >= 20) samples.push(performance.now() - s);
    }
    samples.sort((a, b) => a - b);
    console.log(
      `engine.fetch ${name}: p50 ${percentile(samples, 0.5).toFixed(2)} ms, p99 ${
        percentile(samples, 0.99).toFixed(2)
      } ms`,
    );
  }
  engine.close();
}

if (Deno.args.includes("--scale")) {
  const { scaleReport } = await import("./engine_scale.ts");
  await scaleReport();
} else if (Deno.args.includes("--report")) {
  report();
  if (Deno.args.includes("--engine")) await reportEngine();
} else {
  registerBenches();
}

function registerBenches(): void {
  // Built on first use so that importing this module costs nothing.
  let state: { docs: StoredDoc[]; target: SearchTarget; mini: MiniSearch } | undefined;
  const setup = () => {
    if (!state) {
      const docs = generate();
      const shard = load(docs);
      const target = {
        index: "bench",
        snapshot: shard.snapshot(),
        mappings,
        maxResultWindow: 10000,
      };
      state = { docs, target, mini: loadMiniSearch(docs) };
    }
    return state;
  };
  const ctx = new SearchContexts();
  const params = new URLSearchParams();
  const matchText = `${VOCAB[40]} ${VOCAB[300]}`;
  Deno.bench({ name: "load 10k docs (Shard.refresh)", group: "load", n: 5 }, () => {
    load(setup().docs.slice(0, 10_000));
  });
  Deno.bench(
    { name: "load 10k docs (MiniSearch.addAll)", group: "load", baseline: true, n: 5 },
    () => {
      loadMiniSearch(setup().docs.slice(0, 10_000));
    },
  );
  Deno.bench({ name: "match: MiniSearch search", group: "match", baseline: true }, () => {
    setup().mini.search(matchText).slice(0, 10);
  });
  Deno.bench({ name: "match: engine searchApi", group: "match" }, () => {
    searchApi(ctx, [setup().target], QUERIES.match, params);
  });
  for (const name of ["term", "range", "bool", "sort", "aggs"]) {
    Deno.bench({ name: `${name}: engine searchApi`, group: "queries" }, () => {
      searchApi(ctx, [setup().target], QUERIES[name], params);
    });
  }
}
