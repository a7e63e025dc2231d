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

    // highlighting a 300,000-word field in 20-character fragments (1.2 million characters: past
    // the default index.highlight.max_analyzed_offset, which both real engines enforce)
    await put("/text", { settings: { "index.highlight.max_analyzed_offset": 2_000_000 } });
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

Deno.test("Elasticsearch's remaining limits, with its errors", async () => {
  await withServer(async (s) => {
    await s.call("PUT", "/lim", { mappings: { properties: { k: { type: "keyword" } } } });
    await s.call("PUT", "/lim/_doc/1?refresh=true", { k: "a" });
    // indices.query.bool.max_nested_depth: 30 query objects nest, 31 do not
    const nest = (n: number) => {
      let q: Record<string, unknown> = { match_all: {} };
      for (let i = 0; i < n; i++) {
        q = i % 2 ? { bool: { must: [q] } } : { constant_score: { filter: q } };
      }
      return q;
    };
    assert.equal((await s.call("POST", "/lim/_search", { query: nest(29) })).hits.total.value, 1);
    const deep = await s.call("POST", "/lim/_search", { query: nest(30) });
    assert.deepEqual([deep.code, deep.error.root_cause[0].type, deep.error.root_cause[0].reason], [
      400,
      "illegal_argument_exception",
      "The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]",
    ]);
    // index.max_inner_result_window for top_hits
    const top = await s.call("POST", "/lim/_search?size=0", {
      aggs: { t: { top_hits: { from: 50, size: 51 } } },
    });
    assert.equal(top.code, 400);
    assert.equal(top.error.type, "search_phase_execution_exception");
    assert.equal(
      top.error.root_cause[0].reason,
      "Top hits result window is too large, the top hits aggregator [t]'s from + size must be less than or equal to: [100] but was [101]. This limit can be set by changing the [index.max_inner_result_window] index level setting.",
    );
    const fits = await s.call("POST", "/lim/_search?size=0", {
      aggs: { t: { top_hits: { size: 100 } } },
    });
    assert.equal(fits.aggregations.t.hits.hits.length, 1);
    // action.destructive_requires_name for _close and _open
    for (const target of ["/*/_close", "/_all/_close", "/li*/_open", "/_all/_open"]) {
      const r = await s.call("POST", target);
      assert.deepEqual([r.code, r.error.type, r.error.reason], [
        400,
        "illegal_argument_exception",
        "Wildcard expressions or all indices are not allowed",
      ], target);
    }
    assert.equal((await s.call("HEAD", "/lim")).code, 200);
    assert.equal((await s.call("POST", "/lim/_search")).hits.total.value, 1, "still open");
    // a keyword term over 32,766 bytes is an immense term; ignore_above leaves it out instead
    const immense = await s.call("PUT", "/lim/_doc/2", { k: "é".repeat(20_000) });
    assert.equal(immense.code, 400);
    assert.equal(immense.error.type, "document_parsing_exception");
    assert.equal(
      immense.error.caused_by.reason,
      `Document contains at least one immense term in field="k" (whose UTF8 encoding is longer than the max length 32766), all of which were skipped. Please correct the analyzer to not produce such terms. The prefix of the first immense term is: '[${
        Array(15).fill("-61, -87").join(", ")
      }]...'`,
    );
    assert.equal((await s.call("GET", "/lim/_doc/2")).found, false);
    await s.call("PUT", "/lim2", {
      mappings: { properties: { k: { type: "keyword", ignore_above: 100 } } },
    });
    assert.equal((await s.call("PUT", "/lim2/_doc/1", { k: "x".repeat(40_000) })).code, 201);
    // unknown settings, __proto__ included, are refused and pollute nothing
    const bodies = [
      '{"settings":{"__proto__":{"x":1}}}',
      '{"settings":{"index":{"__proto__":1}}}',
      '{"settings":{"constructor":1}}',
    ];
    for (const text of bodies) {
      const r = await s.call("PUT", "/proto", new TextEncoder().encode(text));
      assert.equal(r.code, 400, text);
      assert.match(r.error.reason, /^unknown setting \[index\.(__proto__|constructor)/);
    }
    assert.equal((await s.call("HEAD", "/proto")).code, 404);
    const cluster = await s.call(
      "PUT",
      "/_cluster/settings",
      new TextEncoder().encode('{"persistent":{"__proto__":1}}'),
    );
    assert.deepEqual([cluster.code, cluster.error.reason], [
      400,
      "persistent setting [__proto__], not recognized",
    ]);
    // cluster.max_shards_per_node: primaries and replicas of open indices count
    assert.equal(
      (await s.call("PUT", "/_cluster/settings", {
        persistent: { "cluster.max_shards_per_node": 6 },
      })).code,
      200,
    );
    const many = await s.call("PUT", "/many", { settings: { number_of_shards: 2 } });
    assert.equal(many.code, 400);
    assert.equal(many.error.type, "validation_exception");
    assert.match(
      many.error.reason,
      /^Validation Failed: 1: this action would add \[4\] shards, but this cluster currently has \[4\]\/\[6\] maximum normal shards open;/,
    );
    assert.equal((await s.call("PUT", "/fits", { settings: { number_of_replicas: 0 } })).code, 200);
    assert.equal(
      (await s.call("POST", "/_bulk", '{"index":{"_index":"auto"}}\n{}\n')).items[0].index.status,
      400,
    );
  });
});

Deno.test("OpenSearch's search.max_open_pit_context", async () => {
  await withServer(async (s) => {
    await s.call("PUT", "/p/_doc/1", {});
    await s.call("PUT", "/_cluster/settings", { persistent: { "search.max_open_pit_context": 2 } });
    for (let i = 0; i < 2; i++) {
      assert.equal((await s.call("POST", "/p/_search/point_in_time?keep_alive=1m")).code, 200);
    }
    const r = await s.call("POST", "/p/_search/point_in_time?keep_alive=1m");
    assert.deepEqual([r.code, r.error.type, r.error.reason], [
      429,
      "rejected_execution_exception",
      "Trying to create too many Point In Time contexts. Must be less than or equal to: [2]. This limit can be set by changing the [search.max_open_pit_context] setting.",
    ]);
  }, { flavour: "opensearch" });
});

Deno.test("vectors: no similarity without an index, values narrowed to float32 before the finite check", async () => {
  await withServer(async (s) => {
    await s.call("PUT", "/vec", {
      mappings: {
        properties: {
          plain: { type: "dense_vector", dims: 2, index: false },
          knn: { type: "dense_vector", dims: 2 },
        },
      },
    });
    // a field that is not indexed has no (cosine) similarity: a zero vector is stored
    assert.equal((await s.call("PUT", "/vec/_doc/zero", { plain: [0, 0] })).code, 201);
    const cosine = await s.call("PUT", "/vec/_doc/z2", { knn: [0, 0] });
    assert.equal(cosine.code, 400);
    assert.match(
      cosine.error.caused_by.reason,
      /^The \[cosine\] similarity does not support vectors with zero magnitude/,
    );
    // 1e39 is no float: it is the infinity Elasticsearch refuses, never stored
    for (const field of ["plain", "knn"]) {
      const r = await s.call("PUT", "/vec/_doc/big", { [field]: [1e39, 1] });
      assert.equal(r.code, 400, field);
      assert.equal(
        r.error.caused_by.reason,
        "element_type [float] vectors do not support infinite values but found [Infinity] at dim [0]; Preview of invalid vector: [Infinity, 1.0]",
      );
    }
    const extreme = await s.call("PUT", "/vec/_doc/big", { knn: [3.4028235e38, 1] });
    assert.equal(
      extreme.error.caused_by.reason,
      "NaN or Infinite magnitude detected, this usually means the vector values are too extreme to fit within a float. Preview of invalid vector: [3.4028235E38, 1.0]",
    );
    assert.equal((await s.call("GET", "/vec/_doc/big")).found, false);
  });
});

Deno.test("requests_per_second throttles a by-query task, and _rethrottle speeds it up", async () => {
  await withServer(async (s) => {
    let bulk = "";
    for (let i = 0; i < 6; i++) bulk += `{"index":{"_index":"slow","_id":"${i}"}}\n{"n":${i}}\n`;
    await s.call("POST", "/_bulk?refresh=true", bulk);
    // one document a batch at one document per 1000 s: the task waits after its first batch
    const started = await s.call(
      "POST",
      "/slow/_delete_by_query?wait_for_completion=false&scroll_size=1&requests_per_second=0.001&refresh=true",
      { query: { match_all: {} } },
    );
    const id = started.task;
    const running = await s.call("GET", `/_tasks/${id}`);
    assert.equal(running.completed, false);
    assert.equal(running.task.status.requests_per_second, 0.001);
    assert.equal(running.task.status.deleted, 1);
    assert.ok(running.task.status.throttled_until_millis > 900_000);
    assert.equal((await s.call("GET", "/slow/_count")).count, 6, "not refreshed yet, all counted");
    assert.equal(
      (await s.call("POST", `/_delete_by_query/${id}/_rethrottle?requests_per_second=-1`)).code,
      200,
    );
    let done = await s.call("GET", `/_tasks/${id}`);
    for (let i = 0; i < 100 && !done.completed; i++) {
      await new Promise((r) => setTimeout(r, 20));
      done = await s.call("GET", `/_tasks/${id}`);
    }
    assert.equal(done.completed, true);
    assert.deepEqual([done.response.deleted, done.response.requests_per_second], [6, -1]);
    assert.equal((await s.call("GET", "/slow/_count")).count, 0);
    // unthrottled work finishes before its task id is answered, as before
    const quick = await s.call("POST", "/slow/_update_by_query?wait_for_completion=false", {});
    assert.equal((await s.call("GET", `/_tasks/${quick.task}`)).completed, true);
  });
});
