import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("_stats: docs and store per index and in _all; shard copies in _shards; metric filter", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/a", { settings: { number_of_shards: 3, number_of_replicas: 1 } });
  await call(engine, "PUT", "/a/_doc/1", { x: 1 });
  await call(engine, "PUT", "/a/_doc/2", { x: 2 });
  await call(engine, "PUT", "/b/_doc/1?refresh=true", { x: 3 });
  await call(engine, "POST", "/a/_refresh");
  const all = await call(engine, "GET", "/_stats");
  // 3 + 1 primaries, each with one replica that one node cannot assign.
  assert.deepEqual(all._shards, { total: 8, successful: 4, failed: 0 });
  assert.equal(all._all.primaries.docs.count, 3);
  assert.equal(all.indices.a.primaries.docs.count, 2);
  assert.equal(all.indices.a.total.docs.count, 2);
  assert.equal(all.indices.a.primaries.shard_stats.total_count, 3);
  assert.ok(
    all.indices.a.primaries.store.size_in_bytes > all.indices.b.primaries.store.size_in_bytes,
  );
  assert.deepEqual(Object.keys(all.indices.a), ["uuid", "health", "status", "primaries", "total"]);
  assert.equal(all.indices.a.status, "open");
  assert.deepEqual(Object.keys(all.indices.a.primaries), [
    "docs",
    "shard_stats",
    "store",
    "indexing",
    "get",
    "search",
    "merges",
    "refresh",
    "flush",
    "warmer",
    "query_cache",
    "fielddata",
    "completion",
    "segments",
    "translog",
    "request_cache",
    "recovery",
    "bulk",
    "dense_vector",
    "sparse_vector",
  ]);
  const docs = await call(engine, "GET", "/b/_stats/docs,merge");
  assert.deepEqual(Object.keys(docs.indices), ["b"]);
  assert.deepEqual(Object.keys(docs._all.total), ["docs", "merges"]);
  assert.equal((await call(engine, "GET", "/_stats/_all"))._all.total.bulk.total_operations, 0);
  const none = await call(engine, "GET", "/bla*/_stats");
  assert.deepEqual(none._shards, { total: 0, successful: 0, failed: 0 });
  assert.deepEqual(none.indices, {});
  const missing = await call(engine, "GET", "/zzz/_stats");
  assert.equal(missing.error.type, "index_not_found_exception");
  engine.close();
});

Deno.test("_stats: unknown metrics, _all mixed with others and bad levels are refused as Elasticsearch words them", async () => {
  const engine = new Engine();
  const typo = await call(engine, "GET", "/_stats/fieldata");
  assert.equal(typo.code, 400);
  assert.equal(typo.error.type, "illegal_argument_exception");
  assert.equal(
    typo.error.reason,
    "request [/_stats/fieldata] contains unrecognized metric: [fieldata] -> did you mean [fielddata]?",
  );
  const two = await call(engine, "GET", "/_stats/zzz,nope");
  assert.equal(
    two.error.reason,
    "request [/_stats/zzz,nope] contains unrecognized metrics: [nope], [zzz]",
  );
  const mixed = await call(engine, "GET", "/_stats/_all,docs");
  assert.equal(
    mixed.error.reason,
    "request [/_stats/_all,docs] contains _all and individual metrics [_all,docs]",
  );
  const level = await call(engine, "GET", "/_stats?level=node");
  assert.equal(level.error.type, "action_request_validation_exception");
  assert.equal(
    level.error.reason,
    "Validation Failed: 1: level parameter must be one of [cluster] or [indices] or [shards] but was [node];",
  );
  engine.close();
});

Deno.test("_stats: level=cluster leaves indices out; level=shards lists each shard with its documents", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/s", { settings: { number_of_shards: 2 } });
  for (let i = 0; i < 10; i++) await call(engine, "PUT", `/s/_doc/${i}`, { n: i });
  await call(engine, "POST", "/s/_refresh");
  const cluster = await call(engine, "GET", "/_stats/docs?level=cluster");
  assert.equal(cluster.indices, undefined);
  assert.equal(cluster._all.total.docs.count, 10);
  const shards = await call(engine, "GET", "/_stats/docs?level=shards");
  const list = shards.indices.s.shards;
  assert.deepEqual(Object.keys(list), ["0", "1"]);
  const counts = [list["0"][0].docs.count, list["1"][0].docs.count];
  assert.equal(counts[0] + counts[1], 10);
  assert.ok(counts[0] > 0 && counts[1] > 0);
  assert.equal(list["0"][0].routing.primary, true);
  assert.equal(list["0"][0].routing.state, "STARTED");
  assert.ok(list["0"][0].commit.id);
  assert.equal(list["1"][0].commit.num_docs, counts[1]);
  engine.close();
});

Deno.test("_stats: closed indices are refused by name, or listed as close with forbid_closed_indices=false", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/openindex");
  await call(engine, "PUT", "/closedindex");
  await call(engine, "POST", "/closedindex/_close");
  const plain = await call(engine, "GET", "/_stats");
  assert.deepEqual(Object.keys(plain.indices), ["openindex"]);
  const named = await call(engine, "GET", "/closedindex/_stats");
  assert.equal(named.error.type, "index_closed_exception");
  const both = await call(
    engine,
    "GET",
    "/_stats?expand_wildcards=open,closed&forbid_closed_indices=false",
  );
  assert.equal(both.indices.openindex.status, "open");
  assert.equal(both.indices.closedindex.status, "close");
  assert.equal(both.indices.closedindex.primaries.docs.count, 0);
  assert.equal(both.indices.closedindex.health, undefined);
  engine.close();
});

Deno.test("_stats: indexing, get, refresh, flush, translog and bulk count what happened", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/i/_doc/1", { a: 1 });
  await call(engine, "PUT", "/i/_doc/1", { a: 2 });
  await call(engine, "POST", "/i/_update/1", { doc: { a: 2 } }); // noop
  await call(engine, "PUT", "/i/_create/1", { a: 3 }); // conflict: a failed index operation
  await call(engine, "DELETE", "/i/_doc/9"); // a delete of a missing document still runs
  await call(engine, "GET", "/i/_doc/1");
  await call(engine, "GET", "/i/_source/1");
  await call(engine, "GET", "/i/_doc/2");
  await call(engine, "POST", "/i/_mget", { ids: ["1", "3"] });
  const bulk = '{"index":{"_index":"i","_id":"5"}}\n{"a":5}\n{"delete":{"_index":"i","_id":"1"}}\n';
  await engine.fetch("http://e/_bulk", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: bulk,
  });
  await call(engine, "POST", "/i/_refresh");
  const s = (await call(engine, "GET", "/i/_stats")).indices.i.primaries;
  assert.equal(s.indexing.index_total, 3);
  assert.equal(s.indexing.index_failed, 1);
  assert.equal(s.indexing.delete_total, 2);
  assert.equal(s.indexing.noop_update_total, 1);
  assert.deepEqual(
    [s.get.total, s.get.exists_total, s.get.missing_total],
    [5, 3, 2],
  );
  assert.equal(s.refresh.external_total, 1);
  assert.ok(s.refresh.total >= 1);
  assert.equal(s.bulk.total_operations, 1);
  assert.equal(s.bulk.total_size_in_bytes, '{"a":5}'.length);
  assert.equal(s.translog.operations, 5);
  assert.equal(s.docs.count, 1);
  const flushed = await call(engine, "POST", "/i/_flush");
  assert.deepEqual(flushed._shards, { total: 2, successful: 1, failed: 0 });
  const after = (await call(engine, "GET", "/i/_stats/flush,translog")).indices.i.total;
  assert.equal(after.flush.total, 1);
  assert.equal(after.translog.uncommitted_operations, 0);
  engine.close();
});

Deno.test("_stats: searches count a query per shard, fetches, groups, scrolls and open contexts", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/one");
  await call(engine, "PUT", "/three", { settings: { number_of_shards: 3 } });
  await call(engine, "PUT", "/one/_doc/1?refresh=true", { bar: "x" });
  await call(engine, "PUT", "/three/_doc/1?refresh=true", { bar: "x" });
  await call(engine, "POST", "/one/_search", { stats: ["bar", "baz"], size: 0 });
  await call(engine, "POST", "/three/_search", { stats: "bar" });
  await call(engine, "POST", "/one/_count");
  const s1 = await call(engine, "GET", "/_stats/search?groups=*r");
  const one = s1.indices.one.total.search;
  const three = s1.indices.three.total.search;
  assert.equal(one.query_total, 2);
  // A single-shard search fetches in the same round, even with size 0.
  assert.equal(one.fetch_total, 2);
  assert.equal(three.query_total, 3);
  assert.equal(three.fetch_total, 1);
  assert.deepEqual(Object.keys(one.groups), ["bar"]);
  assert.equal(one.groups.bar.query_total, 1);
  assert.equal(three.groups.bar.query_total, 3);
  assert.equal((await call(engine, "GET", "/_stats")).indices.one.total.search.groups, undefined);
  const scroll = await call(engine, "POST", "/one/_search?scroll=1m", { size: 1 });
  const pit = await call(engine, "POST", "/three/_pit?keep_alive=1m");
  let s = await call(engine, "GET", "/_stats/search");
  assert.equal(s.indices.one.total.search.open_contexts, 1);
  assert.equal(s.indices.one.total.search.scroll_current, 1);
  assert.equal(s.indices.three.total.search.open_contexts, 3);
  await call(engine, "POST", "/_search/scroll", { scroll_id: scroll._scroll_id });
  await call(engine, "DELETE", "/_search/scroll", { scroll_id: scroll._scroll_id });
  await call(engine, "DELETE", "/_pit", { id: pit.id });
  s = await call(engine, "GET", "/_stats/search");
  assert.equal(s.indices.one.total.search.open_contexts, 0);
  assert.equal(s.indices.one.total.search.scroll_current, 0);
  assert.equal(s.indices.one.total.search.scroll_total, 1);
  assert.equal(s.indices.one.total.search.query_total, 4);
  engine.close();
});

Deno.test("_stats: human=true writes readable sizes and times before the raw numbers", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/h/_doc/1?refresh=true", { text: "x".repeat(2000) });
  const s = (await call(engine, "GET", "/h/_stats/store,indexing?human=true")).indices.h.total;
  assert.deepEqual(Object.keys(s.store).slice(0, 2), ["size", "size_in_bytes"]);
  assert.match(s.store.size, /^\d+(\.\d)?kb$/);
  const kb = Math.floor((s.store.size_in_bytes / 1024) * 10) / 10;
  assert.equal(s.store.size, `${kb}kb`);
  assert.match(s.indexing.index_time, /^\d+(\.\d)?(ms|s|micros|nanos)$|^0s$/);
  const plain = (await call(engine, "GET", "/h/_stats/store")).indices.h.total;
  assert.equal(plain.store.size, undefined);
  engine.close();
});

Deno.test("_stats: completion and fielddata fields listed by pattern; vector values counted", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/v", {
    mappings: {
      properties: {
        bar: { type: "text", fielddata: true, fields: { completion: { type: "completion" } } },
        vec: { type: "dense_vector", dims: 2 },
        sv: { type: "sparse_vector" },
      },
    },
  });
  await call(engine, "PUT", "/v/_doc/1", { bar: "x", vec: [1, 2], sv: { a: 1 } });
  await call(engine, "PUT", "/v/_doc/2?refresh=true", { bar: "y", vec: [3, 4] });
  const s = (await call(engine, "GET", "/v/_stats?completion_fields=*&fielddata_fields=b*"))
    .indices.v.total;
  assert.deepEqual(Object.keys(s.completion.fields), ["bar.completion"]);
  assert.deepEqual(Object.keys(s.fielddata.fields), ["bar"]);
  assert.equal(s.dense_vector.value_count, 2);
  assert.equal(s.sparse_vector.value_count, 1);
  const none = (await call(engine, "GET", "/v/_stats")).indices.v.total;
  assert.equal(none.completion.fields, undefined);
  const sizes = (await call(engine, "GET", "/v/_stats/segments?include_segment_file_sizes"))
    .indices.v.total.segments;
  assert.ok(sizes.count >= 1);
  assert.equal(sizes.file_sizes.si.description, "Segment Info");
  engine.close();
});

Deno.test("_stats: a closed index keeps its documents, unloads its segments and has committed its translog", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/test", { settings: { number_of_replicas: 0 } });
  await call(engine, "PUT", "/test/_doc/1", { foo: "bar" });
  await call(engine, "PUT", "/test/_doc/2", { foo: "bar" });
  let t = (await call(engine, "GET", "/test/_stats/translog")).indices.test.primaries.translog;
  assert.deepEqual([t.operations, t.uncommitted_operations], [2, 2]);
  await call(engine, "POST", "/test/_flush");
  const s = (await call(engine, "GET", "/test/_stats/segments")).indices.test.primaries;
  assert.equal(s.segments.count, 1);
  await call(engine, "PUT", "/test/_doc/3", { foo: "bar" });
  await call(engine, "POST", "/test/_close");
  const q = "expand_wildcards=all&forbid_closed_indices=false";
  const closed = (await call(engine, "GET", `/_stats/docs,segments,translog?${q}`)).indices.test;
  assert.equal(closed.status, "close");
  assert.equal(closed.primaries.docs.count, 3);
  assert.equal(closed.primaries.segments.count, 0);
  t = closed.primaries.translog;
  assert.deepEqual([t.operations, t.uncommitted_operations], [0, 0]);
  const unloaded = await call(engine, "GET", `/_stats/segments?${q}&include_unloaded_segments`);
  assert.ok(unloaded.indices.test.primaries.segments.count >= 1);
  const files = await call(
    engine,
    "GET",
    "/_stats/segments?include_segment_file_sizes=true&" + q + "&include_unloaded_segments",
  );
  const si = files.indices.test.primaries.segments.file_sizes.si;
  assert.ok(
    si.count > 0 && si.min_size_in_bytes > 0 && si.max_size_in_bytes >= si.min_size_in_bytes,
  );
  engine.close();
});

Deno.test("_stats/fielddata: fields asked for are listed even when none matches; human times", async () => {
  // Real Elasticsearch 9.5.4, GET /e3x/_stats/fielddata?human&fields=my_join_field:
  // "fielddata":{"memory_size":"0b","memory_size_in_bytes":0,"evictions":0,"fields":{},
  // "global_ordinals":{"build_time":"0s","build_time_in_millis":0}}
  const engine = new Engine();
  await call(engine, "PUT", "/e3x", { settings: { number_of_shards: 1 } });
  const r = await call(engine, "GET", "/e3x/_stats/fielddata?human&fields=my_join_field");
  assert.deepEqual(r._all.primaries.fielddata, {
    memory_size: "0b",
    memory_size_in_bytes: 0,
    evictions: 0,
    fields: {},
    global_ordinals: { build_time: "0s", build_time_in_millis: 0 },
  });
  engine.close();
});
