import assert from "node:assert/strict";
import { Engine } from "./engine.ts";
import { exchange } from "../tests/support/engine_call.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

Deno.test("GET / answers like Elasticsearch 9, with the product header", async () => {
  const engine = new Engine();
  const res = await exchange(engine, "GET", "/");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-elastic-product"), "Elasticsearch");
  assert.equal(res.headers.get("content-type"), "application/json; charset=UTF-8");
  assert.equal(res.body.version.number, "9.5.4");
  assert.equal(res.body.tagline, "You Know, for Search");
  engine.close();
});

Deno.test("the opensearch flavour reports its distribution and sends no product header", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  const res = await exchange(engine, "GET", "/");
  assert.equal(res.body.version.distribution, "opensearch");
  assert.equal(res.body.version.number, "3.8.0");
  assert.equal(res.headers.get("x-elastic-product"), null);
  engine.close();
});

Deno.test("documents: create, get, versions, conflicts, delete", async () => {
  const engine = new Engine();
  const put = await exchange(engine, "PUT", "/users/_doc/1", { name: "alice", age: 30 });
  assert.equal(put.status, 201);
  assert.deepEqual([put.body.result, put.body._version, put.body._seq_no], ["created", 1, 0]);
  const again = await exchange(engine, "PUT", "/users/_doc/1", { name: "alice", age: 31 });
  assert.deepEqual([again.status, again.body.result, again.body._version], [200, "updated", 2]);
  const got = await exchange(engine, "GET", "/users/_doc/1");
  assert.deepEqual(got.body._source, { name: "alice", age: 31 });
  assert.equal(got.body._seq_no, 1);
  const create = await exchange(engine, "PUT", "/users/_create/1", { name: "x" });
  assert.equal(create.status, 409);
  assert.equal(create.body.error.type, "version_conflict_engine_exception");
  assert.equal(
    create.body.error.reason,
    "[1]: version conflict, document already exists (current version [2])",
  );
  const cas = await exchange(engine, "PUT", "/users/_doc/1?if_seq_no=0&if_primary_term=1", {
    name: "y",
  });
  assert.equal(cas.status, 409);
  assert.match(
    cas.body.error.reason,
    /required seqNo \[0\], primary term \[1\]\. current document has seqNo \[1\]/,
  );
  const internal = await exchange(engine, "PUT", "/users/_doc/1?version=2", { name: "y" });
  assert.equal(internal.status, 400);
  assert.equal(internal.body.error.type, "action_request_validation_exception");
  const del = await exchange(engine, "DELETE", "/users/_doc/1");
  assert.deepEqual([del.status, del.body.result, del.body._version], [200, "deleted", 3]);
  const gone = await exchange(engine, "DELETE", "/users/_doc/1");
  assert.deepEqual([gone.status, gone.body.result], [404, "not_found"]);
  const missing = await exchange(engine, "GET", "/users/_doc/1");
  assert.deepEqual(missing.body, { _index: "users", _id: "1", found: false });
  engine.close();
});

Deno.test("near-real-time: writes are searchable only after a refresh", async () => {
  let now = 1_000_000;
  const engine = new Engine({ now: () => now });
  await exchange(engine, "PUT", "/idx/_doc/1", { f: "a" });
  assert.equal((await exchange(engine, "POST", "/idx/_count")).body.count, 0);
  now += 1000;
  assert.equal((await exchange(engine, "POST", "/idx/_count")).body.count, 1);
  const forced = await exchange(engine, "PUT", "/idx/_doc/2?refresh=true", { f: "b" });
  assert.equal(forced.body.forced_refresh, true);
  assert.equal((await exchange(engine, "POST", "/idx/_count")).body.count, 2);
  engine.close();
});

Deno.test("refresh=wait_for resolves at the next scheduled refresh", async () => {
  const engine = new Engine({ refreshIntervalMs: 20 });
  const res = await exchange(engine, "PUT", "/idx/_doc/1?refresh=wait_for", { f: 1 });
  assert.equal(res.status, 201);
  assert.equal(res.body.forced_refresh, undefined);
  const search = await exchange(engine, "POST", "/idx/_search", { query: { match_all: {} } });
  assert.equal(search.body.hits.total.value, 1);
  engine.close();
});

Deno.test("dynamic mapping follows Elasticsearch", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/m/_doc/1", {
    s: "text",
    d: "2024-01-02",
    n: 3,
    x: 1.5,
    b: true,
    o: { inner: "v" },
    a: [null, 7],
    z: null,
  });
  const res = await exchange(engine, "GET", "/m/_mapping");
  const props = res.body.m.mappings.properties;
  assert.deepEqual(props.s, {
    type: "text",
    fields: { keyword: { type: "keyword", ignore_above: 256 } },
  });
  assert.deepEqual(props.d, { type: "date" });
  assert.deepEqual(props.n, { type: "long" });
  assert.deepEqual(props.x, { type: "float" });
  assert.deepEqual(props.b, { type: "boolean" });
  assert.equal(props.o.properties.inner.type, "text");
  assert.deepEqual(props.a, { type: "long" });
  assert.equal(props.z, undefined);
  const bad = await exchange(engine, "PUT", "/m/_doc/2", { n: "abc" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, "document_parsing_exception");
  assert.match(bad.body.error.reason, /failed to parse field \[n\] of type \[long\]/);
  engine.close();
});

Deno.test("mapping conflicts and strict mappings are refused", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/s", {
    mappings: { dynamic: "strict", properties: { n: { type: "long" } } },
  });
  const conflict = await exchange(engine, "PUT", "/s/_mapping", {
    properties: { n: { type: "text" } },
  });
  assert.equal(conflict.status, 400);
  assert.equal(
    conflict.body.error.reason,
    "mapper [n] cannot be changed from type [long] to [text]",
  );
  const strict = await exchange(engine, "PUT", "/s/_doc/1", { other: 1 });
  assert.equal(strict.body.error.type, "strict_dynamic_mapping_exception");
  engine.close();
});

Deno.test("update: partial doc, noop, upsert, scripts", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/u/_doc/1", { n: 1, o: { a: 1 } });
  const merged = await exchange(engine, "POST", "/u/_update/1", { doc: { o: { b: 2 } } });
  assert.equal(merged.body.result, "updated");
  const noop = await exchange(engine, "POST", "/u/_update/1", { doc: { n: 1 } });
  assert.equal(noop.body.result, "noop");
  const script = await exchange(engine, "POST", "/u/_update/1?_source=true", {
    script: {
      source: "ctx._source.n += params.k; ctx._source.t = 'x'; ctx._source.remove('o')",
      params: { k: 5 },
    },
  });
  assert.deepEqual(script.body.get._source, { n: 6, t: "x" });
  const missing = await exchange(engine, "POST", "/u/_update/2", { doc: { n: 1 } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, "document_missing_exception");
  const upsert = await exchange(engine, "POST", "/u/_update/2", {
    doc: { n: 1 },
    doc_as_upsert: true,
  });
  assert.deepEqual([upsert.status, upsert.body.result], [201, "created"]);
  const bad = await exchange(engine, "POST", "/u/_update/1", { script: "System.exit(0)" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, "script_exception");
  const del = await exchange(engine, "POST", "/u/_update/1", { script: "ctx.op = 'delete'" });
  assert.equal(del.body.result, "deleted");
  engine.close();
});

Deno.test("bulk: items in order, per-item errors, malformed lines", async () => {
  const engine = new Engine();
  const body = [
    { index: { _index: "b", _id: "1" } },
    { f: 1 },
    { create: { _index: "b", _id: "1" } },
    { f: 2 },
    { update: { _index: "b", _id: "1" } },
    { doc: { g: 1 } },
    { delete: { _index: "b", _id: "9" } },
  ].map((l) => JSON.stringify(l)).join("\n") + "\n";
  const res = await exchange(engine, "POST", "/_bulk?refresh=true", body);
  assert.equal(res.status, 200);
  assert.equal(res.body.errors, true);
  assert.deepEqual(res.body.items.map((i: Json) => Object.values(i)[0].status), [
    201,
    409,
    200,
    404,
  ]);
  const bad = await exchange(engine, "POST", "/_bulk", '{"foo":{}}\n');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, "illegal_argument_exception");
  engine.close();
});

Deno.test("errors: unknown URL, wrong method, bad JSON, missing index", async () => {
  const engine = new Engine();
  const unknown = await exchange(engine, "GET", "/_nope/x/y/z");
  assert.deepEqual(unknown.body, {
    error: "no handler found for uri [/_nope/x/y/z] and method [GET]",
  });
  const wrong = await exchange(engine, "DELETE", "/_refresh");
  assert.equal(wrong.status, 405);
  assert.ok(wrong.headers.get("allow")?.includes("POST"));
  const json = await exchange(engine, "POST", "/_search", "{bad");
  assert.equal(json.status, 400);
  const missing = await exchange(engine, "GET", "/nope/_search");
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, "index_not_found_exception");
  assert.equal(missing.body.error["resource.id"], "nope");
  const created = await exchange(engine, "PUT", "/Bad");
  assert.equal(created.body.error.type, "invalid_index_name_exception");
  engine.close();
});

Deno.test("aliases resolve for reads, writes and searches", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/a1", { aliases: { al: {} } });
  await exchange(engine, "PUT", "/al/_doc/1?refresh=true", { f: 1 });
  assert.equal((await exchange(engine, "GET", "/al/_doc/1")).body._index, "a1");
  assert.equal((await exchange(engine, "GET", "/al/_count")).body.count, 1);
  const aliases = await exchange(engine, "GET", "/_alias/al");
  assert.deepEqual(aliases.body, { a1: { aliases: { al: {} } } });
  await exchange(engine, "POST", "/_aliases", {
    actions: [{ remove: { index: "a1", alias: "al" } }],
  });
  assert.equal((await exchange(engine, "GET", "/_alias/al")).status, 404);
  engine.close();
});

Deno.test("fetch can be handed to a server directly: a second, non-RequestInit argument is ignored", async () => {
  const engine = new Engine();
  const request = new Request("http://e/_cluster/health");
  const res = await engine.fetch(request, { remoteAddr: {} } as unknown as RequestInit);
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const viaInit = await engine.fetch(request, { method: "HEAD" });
  assert.equal(viaInit.status, 405);
  await viaInit.body?.cancel();
  engine.close();
});

Deno.test("a filtered alias filters searches and counts through it", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/f", {
    aliases: { reds: { filter: { term: { color: "red" } } } },
  });
  await exchange(
    engine,
    "POST",
    "/f/_bulk?refresh=true",
    [
      { index: { _id: "1" } },
      { color: "red" },
      { index: { _id: "2" } },
      { color: "blue" },
    ].map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  assert.equal((await exchange(engine, "POST", "/reds/_count")).body.count, 1);
  assert.equal((await exchange(engine, "POST", "/f/_count")).body.count, 2);
  const hits =
    (await exchange(engine, "POST", "/reds/_search", { query: { match_all: {} } })).body.hits;
  assert.deepEqual(hits.hits.map((h: Json) => h._id), ["1"]);
  engine.close();
});

Deno.test("index deletion by wildcard needs action.destructive_requires_name=false on Elasticsearch 8", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/w1");
  const refused = await exchange(engine, "DELETE", "/w*");
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.reason, "Wildcard expressions or all indices are not allowed");
  await exchange(engine, "PUT", "/_cluster/settings", {
    transient: { action: { destructive_requires_name: false } },
  });
  assert.equal((await exchange(engine, "DELETE", "/w*")).status, 200);
  assert.equal((await exchange(engine, "HEAD", "/w1")).status, 404);
  engine.close();
});

Deno.test("OpenSearch points in time: create, list, search, delete all", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  await exchange(engine, "PUT", "/p/_doc/1?refresh=true", { n: 1 });
  const created = await exchange(engine, "POST", "/p/_search/point_in_time?keep_alive=1m");
  assert.equal(typeof created.body.pit_id, "string");
  const listed = await exchange(engine, "GET", "/_search/point_in_time/_all");
  assert.deepEqual(listed.body.pits.map((p: Json) => p.pit_id), [created.body.pit_id]);
  const search = await exchange(engine, "POST", "/_search", {
    pit: { id: created.body.pit_id },
    sort: [{ n: "asc" }],
  });
  assert.equal(search.body.hits.hits[0]._id, "1");
  const closed = await exchange(engine, "DELETE", "/_search/point_in_time/_all");
  assert.equal(closed.status, 200);
  assert.deepEqual((await exchange(engine, "GET", "/_search/point_in_time/_all")).body.pits, []);
  engine.close();
});

Deno.test("action.auto_create_index=false stops writes from creating indices", async () => {
  const engine = new Engine();
  await exchange(engine, "PUT", "/_cluster/settings", {
    persistent: { "action.auto_create_index": "false" },
  });
  const res = await exchange(engine, "PUT", "/nope/_doc/1", { a: 1 });
  assert.equal(res.status, 404);
  assert.equal(
    res.body.error.reason,
    "no such index [nope] and [action.auto_create_index] is [false]",
  );
  await exchange(engine, "PUT", "/_cluster/settings", {
    persistent: { "action.auto_create_index": null },
  });
  assert.equal((await exchange(engine, "PUT", "/nope/_doc/1", { a: 1 })).status, 201);
  engine.close();
});

Deno.test("each flavour only has its own point-in-time API", async () => {
  const es = new Engine();
  await exchange(es, "PUT", "/p");
  const osRoute = await exchange(es, "POST", "/p/_search/point_in_time?keep_alive=1m");
  assert.deepEqual(osRoute.body, {
    error: "no handler found for uri [/p/_search/point_in_time?keep_alive=1m] and method [POST]",
  });
  assert.equal((await exchange(es, "POST", "/p/_pit?keep_alive=1m")).status, 200);
  es.close();
  const os = new Engine({ flavour: "opensearch" });
  await exchange(os, "PUT", "/p");
  assert.equal((await exchange(os, "POST", "/p/_pit?keep_alive=1m")).status, 400);
  os.close();
});

Deno.test("docvalue_fields and script_fields are bounded by the index settings", async () => {
  const engine = new Engine();
  // mapped fields: Elasticsearch 9.5.4 counts only those (_search/docvalue_limit_test.ts)
  await exchange(engine, "PUT", "/l", {
    settings: { "index.max_docvalue_fields_search": 1 },
    mappings: { properties: { a: { type: "keyword" }, b: { type: "keyword" } } },
  });
  const res = await exchange(engine, "POST", "/l/_search", { docvalue_fields: ["a", "b"] });
  assert.equal(res.status, 400);
  // A shard-level failure, as in Elasticsearch: "all shards failed" with the cause as root_cause.
  assert.match(
    res.body.error.root_cause[0].reason,
    /Trying to retrieve too many docvalue_fields\. Must be less than or equal to: \[1\] but was \[2\]/,
  );
  engine.close();
});

Deno.test("fetch: a string body reads as its UTF-8 bytes would (lone surrogates, a BOM)", async () => {
  const engine = new Engine();
  try {
    const bodies = [
      '{"t":"caf\u00e9 \ud83c\udf38"}',
      '{"t":"lone \ud800 surrogate"}',
      '\ufeff{"t":"after a BOM"}',
      '{"t":"x\u0000y"}',
    ];
    const answers = async (body: string | Uint8Array<ArrayBuffer>, id: number) => {
      const put = await engine.fetch(`http://engine/s/_doc/${id}?refresh=true`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body,
      });
      const putText = await put.text();
      if (put.status >= 300) return { status: put.status, error: putText };
      const get = await engine.fetch(`http://engine/s/_doc/${id}`);
      return { status: put.status, source: (await get.json())._source };
    };
    for (const [i, body] of bodies.entries()) {
      const asText = await answers(body, 2 * i);
      const asBytes = await answers(new TextEncoder().encode(body), 2 * i + 1);
      assert.deepEqual(asText, asBytes, body);
    }
  } finally {
    engine.close();
  }
});
