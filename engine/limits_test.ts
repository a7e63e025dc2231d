// Elasticsearch's limits over REST: each refused with the status, type and reason Elasticsearch uses.

import assert from "node:assert/strict";
import { call } from "../tests/support/engine_call.ts";
import { Engine } from "./engine.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

async function numbers(n: number): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/n", {
    mappings: { properties: { n: { type: "long" }, d: { type: "date" }, k: { type: "keyword" } } },
  });
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({ index: { _id: String(i) } }));
    lines.push(JSON.stringify({ n: i, d: i * 86_400_000, k: `k${i}` }));
  }
  const res = await engine.fetch("http://engine/n/_bulk?refresh=true", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: lines.join("\n") + "\n",
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  return engine;
}

function rootType(r: Json): string {
  return r.error.root_cause[0].type;
}

Deno.test("search.max_buckets: histograms with tiny intervals and big terms are refused at once", async () => {
  const engine = await numbers(200);
  for (
    const agg of [
      { histogram: { field: "n", interval: 0.0001 } },
      { histogram: { field: "n", interval: 1e-300 } },
      { date_histogram: { field: "d", fixed_interval: "1ms" } },
      { date_histogram: { field: "d", calendar_interval: "minute" } },
    ]
  ) {
    const r = await call(engine, "POST", "/n/_search", { size: 0, aggs: { a: agg } });
    assert.equal(r.code, 400, JSON.stringify(agg));
    // As Elasticsearch 9.5.4 answers: found while reducing, after every shard succeeded.
    assert.deepEqual(
      [r.error.type, r.error.phase, r.error.root_cause, r.error.failed_shards],
      ["search_phase_execution_exception", "fetch", [], []],
    );
    assert.equal(r.error.caused_by.type, "too_many_buckets_exception");
    assert.equal(r.error.caused_by.max_buckets, 65536);
    assert.match(r.error.caused_by.reason, /search\.max_buckets/);
  }
  const zero = await call(engine, "POST", "/n/_search", {
    size: 0,
    aggs: { a: { date_histogram: { field: "d", fixed_interval: "0ms" } } },
  });
  assert.equal(zero.code, 400);
  await call(engine, "PUT", "/_cluster/settings", { transient: { "search.max_buckets": 150 } });
  const nested = await call(engine, "POST", "/n/_search", {
    size: 0,
    aggs: { a: { terms: { field: "k", size: 100 }, aggs: { b: { terms: { field: "n" } } } } },
  });
  assert.equal(nested.code, 400, "sub-aggregation buckets count too");
  const fine = await call(engine, "POST", "/n/_search", {
    size: 0,
    aggs: { a: { histogram: { field: "n", interval: 2 } } },
  });
  assert.equal(fine.code, 200);
  assert.equal(fine.aggregations.a.buckets.length, 100);
  assert.equal(fine.aggregations.a.buckets[99].key, 198);
  engine.close();
});

Deno.test("terms count, clause count and open scrolls are bounded", async () => {
  const engine = await numbers(3);
  const terms = await call(engine, "POST", "/n/_search", {
    query: { terms: { k: Array.from({ length: 65537 }, (_, i) => `x${i}`) } },
  });
  assert.equal(terms.code, 400);
  assert.match(JSON.stringify(terms.error), /index\.max_terms_count/);
  const clauses = await call(engine, "POST", "/n/_search", {
    query: { bool: { should: Array.from({ length: 5000 }, (_, i) => ({ term: { k: `x${i}` } })) } },
  });
  assert.equal(clauses.code, 400);
  assert.equal(rootType(clauses), "illegal_argument_exception");
  assert.match(JSON.stringify(clauses.error), /too_many_nested_clauses/);
  await call(engine, "PUT", "/_cluster/settings", {
    persistent: { "search.max_open_scroll_context": 3 },
  });
  for (let i = 0; i < 3; i++) {
    assert.equal((await call(engine, "POST", "/n/_search?scroll=1m", { size: 1 })).code, 200);
  }
  const refused = await call(engine, "POST", "/n/_search?scroll=1m", { size: 1 });
  assert.equal(refused.code, 429);
  assert.equal(rootType(refused), "too_many_scroll_contexts_exception");
  await call(engine, "DELETE", "/_search/scroll/_all");
  assert.equal((await call(engine, "POST", "/n/_search?scroll=1m", { size: 1 })).code, 200);
  engine.close();
});

Deno.test("mapping limits: depth, nested fields, nested objects", async () => {
  const engine = new Engine();
  const deep = '{"a":'.repeat(21) + "1" + "}".repeat(21);
  const r = await call(engine, "PUT", "/m/_doc/1", deep);
  assert.equal(r.code, 400);
  assert.equal(rootType(r), "document_parsing_exception");
  assert.match(r.error.reason, /Limit of mapping depth \[20\] has been exceeded/);
  assert.equal(
    (await call(engine, "PUT", "/m/_doc/2", '{"a":'.repeat(20) + "1" + "}".repeat(20))).code,
    201,
  );
  const nestedFields = Object.fromEntries(
    Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: "nested" }]),
  );
  const create = await call(engine, "PUT", "/nf", { mappings: { properties: nestedFields } });
  assert.equal(create.code, 400);
  assert.match(create.error.reason, /Limit of nested fields \[50\]/);
  await call(engine, "PUT", "/no", {
    settings: { "index.mapping.nested_objects.limit": 3 },
    mappings: { properties: { items: { type: "nested" } } },
  });
  const many = await call(engine, "PUT", "/no/_doc/1", { items: [{}, {}, {}, {}] });
  assert.equal(many.code, 400);
  assert.match(JSON.stringify(many.error), /index\.mapping\.nested_objects\.limit/);
  const depthPut = await call(
    engine,
    "PUT",
    "/m/_mapping",
    JSON.parse(
      deep.replace(/"a":/g, '"properties":{"a":').replace(/1(}+)$/, (_m, c) => "{}" + c + c),
    ),
  );
  assert.ok(depthPut.code === 400, JSON.stringify(depthPut));
  engine.close();
});

Deno.test("clause count: full-text words and fuzzy expansions count like Lucene's rewrite", async () => {
  const engine = await numbers(3);
  await call(engine, "PUT", "/n/_doc/t?refresh=true", { t: "lorem ipsum" });
  const fuzzy = await call(engine, "POST", "/n/_search", {
    query: { match: { t: { query: "lorem ".repeat(2000), fuzziness: "AUTO" } } },
  });
  assert.equal(fuzzy.code, 400);
  assert.match(JSON.stringify(fuzzy.error), /too_many_nested_clauses/);
  const plain = await call(engine, "POST", "/n/_search", {
    query: { match: { t: "lorem ".repeat(2000) } },
  });
  assert.equal(plain.code, 200);
  assert.equal(plain.hits.total.value, 1);
  engine.close();
});

Deno.test("sort: a key repeated many times is read once and still reported per key", async () => {
  const engine = await numbers(50);
  const sort = [...Array.from({ length: 3000 }, () => ({ n: "desc" })), { k: "asc" }];
  const r = await call(engine, "POST", "/n/_search", { size: 2, sort });
  assert.equal(r.code, 200);
  assert.deepEqual(r.hits.hits.map((h: Json) => h._id), ["49", "48"]);
  assert.equal(r.hits.hits[0].sort.length, 3001);
  assert.equal(r.hits.hits[0].sort[2999], 49);
  assert.equal(r.hits.hits[0].sort[3000], "k49");
  engine.close();
});

Deno.test("search.max_buckets: Elasticsearch counts a histogram's empty buckets by reports", async () => {
  // Measured with one document at 0 and extended_bounds up to N buckets: Elasticsearch 9.5.4
  // answers 35,536 buckets and refuses 35,537 (both histograms); under a limit of 100,000 it
  // answers 50,000 and refuses 50,001. OpenSearch 3.8.0 (limit 65,535) answers 65,535.
  const cases = [
    { flavour: "elasticsearch", limit: undefined, ok: 35_536 },
    { flavour: "elasticsearch", limit: 100_000, ok: 50_000 },
    { flavour: "opensearch", limit: undefined, ok: 65_535 },
  ] as const;
  for (const { flavour, limit, ok } of cases) {
    const engine = new Engine({ flavour });
    if (limit) {
      await call(engine, "PUT", "/_cluster/settings", {
        persistent: { "search.max_buckets": limit },
      });
    }
    await call(engine, "PUT", "/m", {
      mappings: { properties: { t: { type: "date" }, n: { type: "long" } } },
    });
    await call(engine, "PUT", "/m/_doc/1?refresh=true", { t: 0, n: 0 });
    const day = 86_400_000;
    for (const n of [ok, ok + 1]) {
      const h = await call(engine, "POST", "/m/_search", {
        size: 0,
        aggs: {
          a: {
            histogram: {
              field: "n",
              interval: 1,
              min_doc_count: 0,
              extended_bounds: { min: 0, max: n - 1 },
            },
          },
        },
      });
      const d = await call(engine, "POST", "/m/_search", {
        size: 0,
        aggs: {
          a: {
            date_histogram: {
              field: "t",
              fixed_interval: "1d",
              min_doc_count: 0,
              extended_bounds: { min: 0, max: (n - 1) * day },
            },
          },
        },
      });
      assert.deepEqual([h.code === 200, d.code === 200], [n === ok, n === ok], `${flavour} ${n}`);
    }
    engine.close();
  }
});
