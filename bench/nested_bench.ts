// Nested queries and aggregations against the same data mapped as plain objects (the baseline:
// flat matching, which can match across objects). 20,000 documents with 5 objects each.
//
//   deno bench -A bench/nested_bench.ts

import { Shard } from "../engine/_index/shard.ts";
import { searchApi, SearchContexts } from "../engine/_search/search_api.ts";
import type { Mappings, StoredDoc } from "../engine/_index/types.ts";
import type { SearchTarget } from "../engine/_index/search_target.ts";

const DOCS = 20_000;
const COLORS = ["red", "green", "blue", "black", "white", "grey", "pink", "gold"];
const SIZES = ["xs", "s", "m", "l", "xl"];

function mappingsOf(type: "nested" | "object"): Mappings {
  return {
    properties: {
      name: { type: "keyword" },
      variants: {
        type,
        properties: {
          color: { type: "keyword" },
          size: { type: "keyword" },
          price: { type: "double" },
        },
      },
    },
  };
}

function generate(): StoredDoc[] {
  let seed = 7;
  const r = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: DOCS }, (_, i) => ({
    id: String(i),
    source: {
      name: "p" + i,
      variants: Array.from({ length: 5 }, () => ({
        color: COLORS[Math.floor(r() * COLORS.length)],
        size: SIZES[Math.floor(r() * SIZES.length)],
        price: Math.round(r() * 10000) / 100,
      })),
    },
    version: 1,
    seqNo: i,
    primaryTerm: 1,
  }));
}

function target(type: "nested" | "object", docs: StoredDoc[]): SearchTarget {
  const mappings = mappingsOf(type);
  const shard = new Shard();
  shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), mappings);
  return { index: type, snapshot: shard.snapshot(), mappings, maxResultWindow: 10000 };
}

const docs = generate();
const flat = target("object", docs);
const nested = target("nested", docs);
const ctx = new SearchContexts();
const params = new URLSearchParams();
const redL = {
  bool: { filter: [{ term: { "variants.color": "red" } }, { term: { "variants.size": "l" } }] },
};
const query = { query: redL };
const nestedQuery = { query: { nested: { path: "variants", query: redL } } };
const aggs = {
  size: 0,
  aggs: {
    colors: {
      terms: { field: "variants.color" },
      aggs: { p: { avg: { field: "variants.price" } } },
    },
  },
};
const nestedAggs = { size: 0, aggs: { v: { nested: { path: "variants" }, aggs: aggs.aggs } } };

Deno.bench({ name: "red+l: flat bool over objects", group: "query", baseline: true }, () => {
  searchApi(ctx, [flat], query, params);
});
Deno.bench({ name: "red+l: nested query (objects cached)", group: "query" }, () => {
  searchApi(ctx, [nested], nestedQuery, params);
});
Deno.bench({ name: "red+l: nested query with inner_hits", group: "query" }, () => {
  searchApi(ctx, [nested], {
    query: { nested: { path: "variants", query: redL, inner_hits: {} } },
  }, params);
});
Deno.bench({ name: "terms+avg: flat over objects", group: "aggs", baseline: true }, () => {
  searchApi(ctx, [flat], aggs, params);
});
Deno.bench({ name: "terms+avg: under a nested aggregation", group: "aggs" }, () => {
  searchApi(ctx, [nested], nestedAggs, params);
});
Deno.bench({ name: "index 20k docs (Shard.refresh)", group: "build", baseline: true, n: 5 }, () => {
  target("nested", docs);
});
Deno.bench({ name: "index 20k docs + first nested query", group: "build", n: 5 }, () => {
  searchApi(ctx, [target("nested", docs)], nestedQuery, params);
});
