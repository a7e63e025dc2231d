// The engine against hostile single requests, over raw HTTP to a real serve() on loopback: dot
// segments routed as data, requests that would take time or memory out of proportion answered
// within bounds or refused with Elasticsearch's 4xx, and Elasticsearch's remaining limits.

import assert from "node:assert/strict";
import { RawServer } from "./support/raw_http.ts";
import { call } from "./support/engine_call.ts";

async function withServer(
  fn: (s: RawServer) => Promise<void>,
  options: ConstructorParameters<typeof RawServer>[0] = {},
): Promise<void> {
  const s = await new RawServer(options).start();
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

Deno.test("raw path: %2e%2e is a document id, never a step up to the index or another one", async () => {
  await withServer(async (s) => {
    assert.equal((await s.call("PUT", "/victim/_doc/keep?refresh=true", { a: 1 })).code, 201);
    assert.equal((await s.call("PUT", "/other")).code, 200);
    const put = await s.call("PUT", "/victim/_doc/%2e%2e?refresh=true", { a: 2 });
    assert.deepEqual([put.code, put._index, put._id], [201, "victim", ".."]);
    const got = await s.call("GET", "/victim/_doc/%2E%2e");
    assert.deepEqual([got.code, got._id, got._source], [200, "..", { a: 2 }]);
    const deleted = await s.call("DELETE", "/victim/_doc/%2e%2e");
    assert.deepEqual([deleted.code, deleted.result, deleted._id], [200, "deleted", ".."]);
    const up = await s.call("DELETE", "/victim/_doc/%2e%2e/%2e%2e/other");
    assert.equal(up.code, 400);
    assert.equal(
      up.error,
      "no handler found for uri [/victim/_doc/%2e%2e/%2e%2e/other] and method [DELETE]",
    );
    const single = await s.call("DELETE", "/victim/_doc/.");
    assert.deepEqual([single.code, single.result], [404, "not_found"]);
    assert.equal((await s.call("HEAD", "/victim")).code, 200);
    assert.equal((await s.call("HEAD", "/other")).code, 200);
    assert.equal((await s.call("GET", "/victim/_doc/keep")).found, true);
    // engine.fetch with a URL string routes on the path as written too
    const inProcess = await call(s.engine, "DELETE", "/victim/_doc/%2e%2e/%2e%2e/other");
    assert.equal(inProcess.code, 400);
    assert.equal((await call(s.engine, "PUT", "/victim/_doc/%2e%2e", {})).code, 201);
    assert.equal((await call(s.engine, "DELETE", "/victim/_doc/%2e%2e")).result, "deleted");
    assert.equal((await s.call("HEAD", "/victim")).code, 200);
  });
});

const words = (n: number, word: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => word(i)).join(" ");

Deno.test("one request never freezes or exhausts the engine: filter_path, ranges, highlight, phrases, spans", async () => {
  await withServer(async (s) => {
    const put = (path: string, body: unknown) => s.call("PUT", path, body);
    await put("/nums", { mappings: { properties: { n: { type: "long" }, d: { type: "date" } } } });
    let bulk = "";
    for (let i = 0; i < 20_000; i++) bulk += `{"index":{}}\n{"n":${i},"d":${i * 1000}}\n`;
    assert.equal((await s.call("POST", "/nums/_bulk?refresh=true", bulk)).errors, false);

    // many ** segments, included and excluded: positions are a set, not a copy per level
    const stars = Array(40).fill("**").join(".");
    // (as in Elasticsearch, 40 levels of keys are not there to match: nothing is kept, nothing cut)
    const kept = await s.call("GET", `/nums/_search?size=1&filter_path=${stars}.n`);
    assert.deepEqual(kept, { code: 200 });
    const dropped = await s.call("GET", `/nums/_search?size=1&filter_path=-${stars}.n`);
    assert.equal(dropped.hits.hits[0]._source.n, 0);

    // 50,000 overlapping ranges (under search.max_buckets): no document list per bucket
    const ranges = Array.from(
      { length: 50_000 },
      (_, i) => ({ from: i % 100, to: 20_000 - (i % 100) }),
    );
    const r = await s.call("POST", "/nums/_search?size=0", {
      aggs: { r: { range: { field: "n", ranges } } },
    });
    assert.equal(r.aggregations.r.buckets.length, 50_000);
    assert.equal(r.aggregations.r.buckets[7].doc_count, 20_000 - 14);
    const dates = Array.from(
      { length: 50_000 },
      (_, i) => ({ from: i * 1000, to: (i + 3) * 1000 }),
    );
    const dr = await s.call("POST", "/nums/_search?size=0", {
      aggs: { r: { date_range: { field: "d", ranges: dates } } },
    });
    assert.deepEqual(
      dr.aggregations.r.buckets.slice(19_998, 20_000).map((b: { doc_count: number }) =>
        b.doc_count
      ),
      [2, 1],
    );

    // highlighting a 300,000-word field in 20-character fragments
    await put("/text/_doc/1?refresh=true", { t: words(300_000, (i) => (i % 3 ? "fox" : "dog")) });
    const hl = await s.call("POST", "/text/_search", {
      query: { match: { t: "fox" } },
      highlight: { fields: { t: { fragment_size: 20, number_of_fragments: 100_000 } } },
    });
    const fragments: string[] = hl.hits.hits[0].highlight.t;
    assert.ok(fragments.length > 50_000);
    assert.ok(fragments.every((f) => f.includes("<em>fox</em>")));

    // phrases over 100,000 positions, exact and with a large slop
    await put("/text/_doc/2?refresh=true", { t: words(100_000, (i) => (i % 2 ? "b" : "a")) });
    for (
      const query of [{ query: "a b a b a b" }, { query: "a b a b a b", slop: 1000 }, {
        query: "b a a a a b",
        slop: 100_000,
      }]
    ) {
      const found = await s.call("POST", "/text/_search?filter_path=hits.hits._id", {
        query: { match_phrase: { t: query } },
      });
      assert.deepEqual(found.hits.hits, [{ _id: "2" }], JSON.stringify(query));
    }

    // span_near, span_containing and span_within over 200,000 words
    await put("/text/_doc/3?refresh=true", { t: words(200_000, (i) => ["x", "y", "z"][i % 3]!) });
    const term = (v: string) => ({ span_term: { t: v } });
    const near = (ordered: boolean) => ({
      span_near: { clauses: [term("x"), term("z")], slop: 1000, in_order: ordered },
    });
    for (
      const query of [
        near(true),
        near(false),
        { span_containing: { big: near(false), little: term("y") } },
        { span_within: { big: near(true), little: term("y") } },
        { span_not: { include: term("x"), exclude: term("y"), pre: 0, post: 0 } },
      ]
    ) {
      const found = await s.call("POST", "/text/_search?filter_path=hits.hits._id", { query });
      assert.deepEqual(found.hits.hits, [{ _id: "3" }], JSON.stringify(query));
    }
  });
});

Deno.test("query_string nested 10,000 deep is Elasticsearch's 400, not a stack overflow", async () => {
  await withServer(async (s) => {
    await s.call("PUT", "/q/_doc/1?refresh=true", { t: "x" });
    const query = "(".repeat(10_000) + "x" + ")".repeat(10_000);
    const r = await s.call("POST", "/q/_search", { query: { query_string: { query } } });
    assert.equal(r.code, 400);
    assert.equal(r.error.type, "search_phase_execution_exception");
    assert.equal(r.error.root_cause[0].type, "query_shard_exception");
    assert.equal(
      r.error.root_cause[0].reason,
      `Failed to parse query [${query}]: query is too deeply nested`,
    );
    const fine = await s.call("POST", "/q/_search", {
      query: { query_string: { query: "(".repeat(500) + "x" + ")".repeat(500) } },
    });
    assert.equal(fine.hits.total.value, 1);
  });
});

Deno.test("a bulk past indexing_pressure.memory.limit is a 429 the load can back off from", async () => {
  await withServer(async (s) => {
    let bulk = "";
    for (let i = 0; i < 1_500_000; i++) bulk += `{"index":{"_index":"b"}}\n{"a":${i % 10}}\n`;
    const refused = await s.call("POST", "/_bulk", bulk);
    assert.equal(refused.code, 429);
    assert.equal(refused.error.type, "es_rejected_execution_exception");
    const limit = Math.floor(512 * 2 ** 20 / 10);
    assert.equal(
      refused.error.reason,
      `rejected execution of coordinating operation [coordinating_and_primary_bytes=0, replica_bytes=0, all_bytes=0, coordinating_operation_bytes=${
        bulk.length + 3_000_000 * 512
      }, max_coordinating_and_primary_bytes=${limit}]`,
    );
    assert.equal((await s.call("HEAD", "/b")).code, 404, "nothing of the refused bulk was written");
    // backing off: the same documents in batches of 10,000 go in
    for (let i = 0; i < 3; i++) {
      const batch = Array.from(
        { length: 10_000 },
        (_, k) => `{"index":{"_index":"b"}}\n{"a":${(i * 10_000 + k) % 10}}\n`,
      ).join("");
      const r = await s.call("POST", "/_bulk", batch);
      assert.deepEqual([r.code, r.errors, r.items.length], [200, false, 10_000]);
    }
  }, { heapBytes: 512 * 2 ** 20 });
});

Deno.test("a served engine sizes indexing pressure from its runtime's heap", async () => {
  const { getHeapStatistics } = await import("node:v8");
  await withServer(async (s) => {
    const refused = await s.call(
      "POST",
      "/_bulk",
      `{"index":{"_index":"b"}}\n${JSON.stringify({ a: "x".repeat(2_000_000) })}\n`,
    );
    assert.equal(refused.code, 429);
    const limit = Math.floor(getHeapStatistics().heap_size_limit / 10_000);
    assert.match(
      refused.error.reason,
      new RegExp(`max_coordinating_and_primary_bytes=${limit}\\]`),
    );
  }, { indexingPressureLimit: "0.01%" });
});
