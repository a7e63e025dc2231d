// Search core benchmarks: 100,000 generated documents loaded through Shard, then term, match,
// range and bool queries; MiniSearch indexing and searching the same titles is the baseline.
//
//   deno bench -A bench/engine_bench.ts

import MiniSearch from "npm:minisearch@7";
import { Shard } from "../engine/_search/shard.ts";
import { searchApi, SearchContexts } from "../engine/_search/search_api.ts";
import type { Mappings, SearchTarget, StoredDoc } from "../engine/_search/types.ts";

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
  ];
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
};

/** MiniSearch over the same titles. */
export function loadMiniSearch(docs: StoredDoc[]): MiniSearch {
  const ms = new MiniSearch({ fields: ["title"], idField: "id" });
  ms.addAll(docs.map((d) => ({ id: d.id, title: d.source.title as string })));
  return ms;
}

if (import.meta.main) {
  const docs = generate();
  const shard = load(docs);
  const mini = loadMiniSearch(docs);
  const ctx = new SearchContexts();
  const target: SearchTarget = {
    index: "bench",
    snapshot: shard.snapshot(),
    mappings,
    maxResultWindow: 10000,
  };
  const params = new URLSearchParams();
  const small = docs.slice(0, 10_000);

  Deno.bench(
    { name: "load 10k docs (Shard.refresh)", group: "load", baseline: false, n: 5 },
    () => {
      load(small);
    },
  );
  Deno.bench(
    { name: "load 10k docs (MiniSearch.addAll)", group: "load", baseline: true, n: 5 },
    () => {
      loadMiniSearch(small);
    },
  );
  const matchText = `${VOCAB[40]} ${VOCAB[300]}`;
  Deno.bench({ name: "match: MiniSearch search", group: "match", baseline: true }, () => {
    mini.search(matchText).slice(0, 10);
  });
  Deno.bench({ name: "match: engine searchApi", group: "match" }, () => {
    searchApi(ctx, [target], QUERIES.match, params);
  });
  for (const name of ["term", "range", "bool"]) {
    Deno.bench({ name: `${name}: engine searchApi`, group: "queries" }, () => {
      searchApi(ctx, [target], QUERIES[name], params);
    });
  }
}
