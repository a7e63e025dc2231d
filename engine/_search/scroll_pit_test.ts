import assert from "node:assert/strict";
import { EngineError } from "../_errors.ts";
import { clearScrollApi, closePitApi, openPitApi, scrollApi } from "./scroll_pit_api.ts";
import { parseKeepAlive, searchApi, SearchContexts, searchInputApi } from "./search_api.ts";
import { parseSearchRequest } from "./search_request.ts";
import { TestIndex } from "../../tests/support/test_index.ts";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

type Hits = { total: number | { value: number }; hits: { _id: string; sort?: unknown[] }[] };

function setup(): TestIndex {
  return new TestIndex("s", { properties: { foo: { type: "long" } } }).put({
    "42": { foo: 1 },
    "43": { foo: 2 },
  });
}

Deno.test("parseKeepAlive reads time units and rejects garbage", () => {
  assert.equal(parseKeepAlive("1m"), 60_000);
  assert.equal(parseKeepAlive("30s"), 30_000);
  assert.equal(parseKeepAlive("2h"), 7_200_000);
  assert.equal(parseKeepAlive("500ms"), 500);
  assert.throws(
    () => parseKeepAlive("abc"),
    (e) => e instanceof EngineError && e.status === 400 && e.type === "parse_exception",
  );
});

Deno.test("scroll pages through a frozen result and then returns empty pages", () => {
  const idx = setup();
  const ctx = new SearchContexts();
  const first = searchApi(
    ctx,
    [idx.target()],
    { query: { match_all: {} } },
    new URLSearchParams("size=1&scroll=1m&sort=foo&rest_total_hits_as_int=true"),
  );
  const id = first._scroll_id as string;
  assert.equal(typeof id, "string");
  assert.equal((first.hits as Hits).total, 2);
  assert.deepEqual((first.hits as Hits).hits.map((h) => h._id), ["42"]);
  idx.put({ "44": { foo: 3 } });
  const second = scrollApi(ctx, id, { keepAlive: "1m", restTotalHitsAsInt: true });
  assert.equal((second.hits as Hits).total, 2);
  assert.deepEqual((second.hits as Hits).hits.map((h) => h._id), ["43"]);
  assert.deepEqual((scrollApi(ctx, id, { restTotalHitsAsInt: true }).hits as Hits).hits, []);
  assert.deepEqual(clearScrollApi(ctx, [id]), { succeeded: true, num_freed: 1 });
  assert.throws(
    () => scrollApi(ctx, id, { keepAlive: "1m", restTotalHitsAsInt: true }),
    (e) =>
      e instanceof EngineError && e.status === 404 && e.type === "search_context_missing_exception",
  );
});

Deno.test("scroll contexts expire after keep-alive and respect max keep-alive", () => {
  let now = 1_000_000;
  const ctx = new SearchContexts(() => now);
  const res = searchApi(
    ctx,
    [setup().target()],
    undefined,
    new URLSearchParams("size=1&scroll=1m"),
  );
  now += 59_000;
  scrollApi(ctx, res._scroll_id as string, { keepAlive: "10s", restTotalHitsAsInt: false });
  now += 11_000;
  assert.throws(
    () => scrollApi(ctx, res._scroll_id as string, { keepAlive: "1m", restTotalHitsAsInt: false }),
    /No search context found/,
  );
  ctx.maxKeepAlive = 60_000;
  // real ES 9.5.4 and OS 3.8.0: search_phase_execution_exception "all shards failed", phase
  // query, caused by the illegal_argument_exception "Keep alive for request (2m) is too large…"
  assert.throws(
    () => searchApi(ctx, [setup().target()], undefined, new URLSearchParams("scroll=2m")),
    (e: EngineError) =>
      e.type === "search_phase_execution_exception" && e.extra.phase === "query" &&
      /Keep alive for request \(2m\) is too large/.test(e.causedBy?.message ?? ""),
  );
  assert.deepEqual(clearScrollApi(ctx, "_all"), { succeeded: true, num_freed: 0 });
});

Deno.test("PIT freezes state; search_after pages with the implicit _shard_doc tiebreaker", () => {
  const idx = setup();
  const ctx = new SearchContexts();
  const opened = openPitApi(ctx, [idx.target()], "1m", "elasticsearch");
  const id = opened.id as string;
  idx.put({ "44": { foo: 0 }, "42": null });
  const page1 = searchApi(ctx, [], {
    pit: { id, keep_alive: "1m" },
    sort: [{ foo: "asc" }],
    size: 1,
  }, new URLSearchParams());
  assert.equal(page1.pit_id, id);
  const hits = (page1.hits as Hits).hits;
  assert.deepEqual(hits.map((h) => h._id), ["42"]);
  assert.equal(hits[0]!.sort!.length, 2);
  const page2 = searchApi(ctx, [], {
    pit: { id },
    sort: [{ foo: "asc" }],
    size: 5,
    search_after: hits[0]!.sort,
  }, new URLSearchParams());
  assert.deepEqual((page2.hits as Hits).hits.map((h) => h._id), ["43"]);
  assert.deepEqual(closePitApi(ctx, [id], "elasticsearch"), { succeeded: true, num_freed: 1 });
  assert.throws(
    () => searchApi(ctx, [], { pit: { id } }, new URLSearchParams()),
    /No search context found/,
  );
});

Deno.test("OpenSearch PIT flavour", () => {
  const ctx = new SearchContexts(() => 5);
  const opened = openPitApi(ctx, [setup().target()], "1h", "opensearch");
  assert.equal(typeof opened.pit_id, "string");
  assert.equal(opened.creation_time, 5);
  assert.deepEqual(opened._shards, { total: 1, successful: 1, skipped: 0, failed: 0 });
  assert.deepEqual(closePitApi(ctx, "_all", "opensearch"), {
    pits: [{ pit_id: opened.pit_id, successful: true }],
  });
});

Deno.test("indices beside a point in time are refused, and a parsed request is used once", () => {
  const idx = setup();
  const ctx = new SearchContexts();
  const id = openPitApi(ctx, [idx.target()], "1m", "elasticsearch").id as string;
  assert.throws(
    () => searchApi(ctx, [idx.target()], { pit: { id } }, new URLSearchParams()),
    (e) =>
      e instanceof EngineError && e.status === 400 &&
      /\[indices\] cannot be used with point in time/.test(e.message),
  );
  // A request parsed from this very body is used as is; one parsed from another body is not.
  const params = new URLSearchParams();
  const body = { query: { match_all: {} }, size: 1 };
  const other = { query: { match_all: {} }, size: 5 };
  const parsed = { body: other, req: parseSearchRequest(other, params) };
  const hits = (r: Record<string, unknown>) => (r.hits as Hits).hits.length;
  assert.equal(hits(searchInputApi(ctx, [idx.target()], { body, params, parsed })), 1);
  assert.equal(hits(searchInputApi(ctx, [idx.target()], { body: other, params, parsed })), 2);
  assert.equal(
    hits(
      searchInputApi(ctx, [idx.target()], {
        body: other,
        params,
        parsed: { body: other, req: parseSearchRequest(body, params) },
      }),
    ),
    1,
  );
});

Deno.test("a point-in-time id that is none of the engine's fails as the real engines read it", async () => {
  // Real Elasticsearch 9.5.4 (DELETE /_pit and a search with the id):
  // {"error":{"root_cause":[{"type":"illegal_argument_exception","reason":"unknown transport
  // version [7759] reading search context id"}],…},"status":400}; real OpenSearch 3.8.0
  // (DELETE /_search/point_in_time and a search): {"error":{…,"type":
  // "unsupported_version_exception","reason":"Unsupported version [ES 0.0.77]"},"status":500}
  const es = new Engine();
  const search = await call(es, "POST", "/_search", { pit: { id: "zzzz" } });
  assert.deepEqual([search.code, search.error.type, search.error.reason], [
    400,
    "illegal_argument_exception",
    "unknown transport version [7759] reading search context id",
  ]);
  const close = await call(es, "DELETE", "/_pit", { id: "abc" });
  assert.equal(close.error.reason, "unknown transport version [105] reading search context id");
  // An id the engine made and closed is a missing context, as before.
  await call(es, "PUT", "/p");
  const opened = await call(es, "POST", "/p/_pit?keep_alive=1m");
  await call(es, "DELETE", "/_pit", { id: opened.id });
  const gone = await call(es, "POST", "/_search", { pit: { id: opened.id } });
  assert.deepEqual([gone.code, gone.error.type], [404, "search_context_missing_exception"]);
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  const osSearch = await call(os, "POST", "/_search", { pit: { id: "zzzz" } });
  assert.deepEqual([osSearch.code, osSearch.error.type, osSearch.error.reason], [
    500,
    "unsupported_version_exception",
    "Unsupported version [ES 0.0.77]",
  ]);
  const osClose = await call(os, "DELETE", "/_search/point_in_time", { pit_id: ["abc"] });
  assert.equal(osClose.error.reason, "Unsupported version [ES 0.0.1]");
  os.close();
});

Deno.test("a scroll kept too long fails on every shard (both flavours)", async () => {
  // real ES 9.5.4 and OS 3.8.0 answered POST /test_scroll/_search?scroll=2m under a 1m limit with
  // search_phase_execution_exception (phase query, grouped, one failed shard) caused by the
  // illegal_argument_exception twice over
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/_cluster/settings", {
      transient: { "search.max_keep_alive": "1m" },
    });
    await call(engine, "PUT", "/test_scroll/_doc/1?refresh=true", { foo: 1 });
    const r = await call(engine, "POST", "/test_scroll/_search?scroll=2m", {});
    const reason =
      "Keep alive for request (2m) is too large. It must be less than (1m). This limit can be set by changing the [search.max_keep_alive] cluster level setting.";
    assert.equal(r.code, 400);
    assert.equal(r.error.type, "search_phase_execution_exception");
    assert.equal(r.error.phase, "query");
    assert.equal(r.error.grouped, true);
    assert.deepEqual(r.error.root_cause, [{ type: "illegal_argument_exception", reason }]);
    assert.equal(r.error.failed_shards[0].index, "test_scroll");
    assert.deepEqual(r.error.caused_by, {
      type: "illegal_argument_exception",
      reason,
      caused_by: { type: "illegal_argument_exception", reason },
    });
    engine.close();
  }
});
