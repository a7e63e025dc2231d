import assert from "node:assert/strict";
import { DataSource, type DataSourceOptions } from "./data_source.ts";
import { FakeEs } from "../../tests/support/fake_es.ts";
import type { Statement } from "./statement.ts";
import type { ResultSet } from "./result_set.ts";
import { BulkError, IllegalStateError, ResponseError, UnsupportedFeatureError } from "../errors.ts";

/** The edge cases these tests rely on, by id: the fake answers them as Elasticsearch would. */
const EDGE_CASES = {
  missing: ["missing"],
  noop: ["same"],
  conflict: ["dup"],
  failingBulkItems: ["bad"],
};

async function setup(
  options: Partial<DataSourceOptions> = {},
): Promise<{ fake: FakeEs; stmt: Statement }> {
  const fake = new FakeEs(EDGE_CASES);
  const ds = new DataSource({
    nodes: ["http://es:9200"],
    fetch: fake.fetch,
    retryBaseDelayMs: 1,
    ...options,
  });
  const conn = await ds.getConnection();
  return { fake, stmt: conn.createStatement() };
}

function rows(rs: ResultSet): Record<string, unknown>[] {
  return rs.toArray();
}

Deno.test("_search: _ID and _DOC rows with total, took, aggregations and raw", async () => {
  const { fake, stmt } = await setup();
  const rs = await stmt.executeQuery('GET /idx/_search {"query": {"term": {"name": ?}}}', [
    "alice",
  ]);
  assert.deepEqual(rs.getColumns(), ["_ID", "_DOC"]);
  assert.deepEqual(rows(rs), [
    { _ID: "1", _DOC: '{"name":"alice","age":30}' },
    { _ID: "2", _DOC: '{"name":"bob","tags":["a"]}' },
  ]);
  assert.deepEqual(rs.total, { value: 2, relation: "eq" });
  assert.equal(rs.took, 4);
  assert.deepEqual(rs.aggregations, { ages: { value: 30 } });
  assert.equal((rs.raw as { timed_out: boolean }).timed_out, false);
  assert.ok(rs.next());
  assert.deepEqual(rs.getJson("_DOC"), { name: "alice", age: 30 });
  assert.equal(fake.requests[0]!.method, "POST");
  assert.deepEqual(JSON.parse(fake.requests[0]!.body ?? ""), {
    query: { term: { name: "alice" } },
  });
});

Deno.test("_count, HEAD (404 is a row), _mget, GET doc found / missing, _source", async () => {
  const { stmt } = await setup();
  const count = await stmt.executeQuery("POST /idx/_count");
  assert.deepEqual(rows(count), [{ COUNT: 7 }]);
  assert.deepEqual(rows(await stmt.executeQuery("HEAD /idx")), [{ STATUS: 200 }]);
  assert.deepEqual(rows(await stmt.executeQuery("HEAD /missing")), [{ STATUS: 404 }]);
  assert.deepEqual(rows(await stmt.executeQuery('POST /idx/_mget {"ids": ["1", "9"]}')), [
    { _ID: "1", _DOC: '{"a":1}' },
    { _ID: "9", _DOC: null },
  ]);
  assert.deepEqual(rows(await stmt.executeQuery("GET /idx/_doc/{?}", ["1"])), [
    { _ID: "1", _DOC: '{"name":"alice"}' },
  ]);
  const missing = await stmt.executeQuery("GET /idx/_doc/missing");
  assert.equal(missing.rowCount, 0);
  assert.equal(missing.next(), false);
  assert.deepEqual(rows(await stmt.executeQuery("GET /idx/_source/{?}", ["a b"])), [
    { _ID: "a b", _DOC: '{"name":"alice"}' },
  ]);
});

Deno.test("_msearch gives one result set per sub-search", async () => {
  const { fake, stmt } = await setup();
  const first = await stmt.execute(
    'GET /_msearch\n{"index": "a"}\n{"query": {"match_all": {}}}\n{"index": "b"}\n{}\n',
  );
  assert.equal(first, true);
  assert.equal(fake.requests[0]!.headers.get("content-type"), "application/x-ndjson");
  assert.equal(stmt.getResultSet()?.rowCount, 2);
  assert.equal(stmt.getMoreResults(), true);
  assert.equal(stmt.getResultSet()?.total?.value, 2);
  assert.equal(stmt.getMoreResults(), false);
  assert.equal(stmt.getResultSet(), null);
  assert.equal(stmt.getUpdateCount(), -1);
});

Deno.test("_msearch sub-search error is a ResponseError naming the sub-search", async () => {
  const { fake, stmt } = await setup();
  fake.on((req) =>
    req.path.includes("_msearch")
      ? Response.json({
        responses: [{
          error: { type: "index_not_found_exception", reason: "no such index [x]" },
          status: 404,
        }],
      })
      : undefined
  );
  await assert.rejects(
    stmt.execute('POST /_msearch\n{"index":"x"}\n{}\n'),
    (e: unknown) => e instanceof ResponseError && /sub-search 1.*no such index/.test(e.message),
  );
});

Deno.test("_cat, _mapping, _settings, _aliases: the reference's tabular columns", async () => {
  const { fake, stmt } = await setup();
  const cat = await stmt.executeQuery("GET /_cat/indices");
  assert.equal(fake.requests[0]!.path, "/_cat/indices?format=json");
  assert.deepEqual(cat.getColumns(), [
    "INDEX",
    "HEALTH",
    "STATUS",
    "UUID",
    "PRI",
    "PRI.STORE.SIZE",
    "REP",
    "DOCS.COUNT",
    "DOCS.DELETED",
    "STORE.SIZE",
  ]);
  assert.ok(cat.next());
  assert.equal(cat.getString("INDEX"), "idx");
  assert.equal(cat.getNumber("DOCS.COUNT"), 2);
  const shards = await stmt.executeQuery("GET /_cat/shards");
  assert.deepEqual(shards.getColumns(), ["SHARD", "PRIREP", "STATE", "INDEX"]);
  const mapping = await stmt.executeQuery("GET /idx/_mapping");
  assert.deepEqual(mapping.getColumns(), ["NAME", "MAPPING", "FIELD", "TYPE", "NESTED", "OPTION"]);
  assert.deepEqual(rows(mapping), [
    {
      NAME: "idx",
      MAPPING: "name",
      FIELD: null,
      TYPE: "text",
      NESTED: false,
      OPTION: '{"type":"text","fields":{"keyword":{"type":"keyword","ignore_above":256}}}',
    },
    {
      NAME: "idx",
      MAPPING: "name",
      FIELD: "keyword",
      TYPE: "keyword",
      NESTED: false,
      OPTION: '{"type":"keyword","ignore_above":256}',
    },
    {
      NAME: "idx",
      MAPPING: "age",
      FIELD: null,
      TYPE: "long",
      NESTED: false,
      OPTION: '{"type":"long"}',
    },
    {
      NAME: "idx",
      MAPPING: "address",
      FIELD: null,
      TYPE: "object",
      NESTED: true,
      OPTION: '{"properties":{"city":{"type":"keyword"}}}',
    },
  ]);
  const settings = rows(await stmt.executeQuery("GET /idx/_settings"));
  assert.deepEqual(settings[0], { NAME: "idx", SETTING: "index.number_of_shards", VALUE: "1" });
  assert.deepEqual(settings.at(-1), {
    NAME: "idx",
    SETTING: "index.routing.allocation.include._tier_preference",
    VALUE: "data_content",
  });
  assert.deepEqual(rows(await stmt.executeQuery("GET /_aliases")), [
    { NAME: "idx", SOURCE: null, ALIASES: false },
    { NAME: "current", SOURCE: "idx", ALIASES: true },
    { NAME: "everything", SOURCE: "idx", ALIASES: true },
  ]);
});

Deno.test("any other GET: one row of top-level keys; arrays one row per element", async () => {
  const { fake, stmt } = await setup();
  const info = await stmt.executeQuery("GET /");
  assert.ok(info.next());
  assert.equal(info.getString("cluster_name"), "fake");
  assert.equal(info.getString("version"), '{"number":"8.15.0","build_flavor":"default"}');
  fake.on((req) => req.path === "/_list" ? Response.json([{ a: 1 }, { b: true }, 3]) : undefined);
  assert.deepEqual(rows(await stmt.executeQuery("GET /_list")), [
    { a: 1, b: null, value: null },
    { a: null, b: true, value: null },
    { a: null, b: null, value: 3 },
  ]);
});

Deno.test("update counts are the real numbers", async () => {
  const { stmt } = await setup();
  assert.equal(await stmt.executeUpdate('PUT /idx/_doc/1 {"a": 1}'), 1);
  assert.equal(await stmt.executeUpdate('PUT /idx/_create/2 {"a": 1}'), 1);
  assert.equal(await stmt.executeUpdate('POST /idx/_update/1 {"doc": {"a": 2}}'), 1);
  assert.equal(await stmt.executeUpdate('POST /idx/_update/same {"doc": {"a": 2}}'), 0);
  assert.equal(await stmt.executeUpdate("DELETE /idx/_doc/1"), 1);
  assert.equal(await stmt.executeUpdate("DELETE /idx/_doc/missing"), 0);
  assert.equal(
    await stmt.executeUpdate('POST /idx/_update_by_query {"query": {"match_all": {}}}'),
    3,
  );
  assert.equal(
    await stmt.executeUpdate('POST /idx/_delete_by_query {"query": {"match_all": {}}}'),
    2,
  );
  assert.equal(
    await stmt.executeUpdate('POST /_reindex {"source": {"index": "a"}, "dest": {"index": "b"}}'),
    5,
  );
  assert.equal(await stmt.executeUpdate('PUT /idx {"settings": {}}'), 1);
  assert.equal(await stmt.executeUpdate("DELETE /idx"), 1);
  assert.equal(await stmt.executeUpdate('PUT /idx/_mapping {"properties": {}}'), 1);
  assert.equal(await stmt.executeUpdate("POST /idx/_refresh"), 1);
  assert.equal(await stmt.executeUpdate("POST /idx/_close"), 1);
  const bulk =
    'POST /_bulk\n{"index": {"_index": "i", "_id": "1"}}\n{"a": 1}\n{"delete": {"_index": "i", "_id": "2"}}\n';
  assert.equal(await stmt.executeUpdate(bulk), 2);
});

Deno.test("_bulk with a failed item → BulkError listing every item", async () => {
  const { stmt } = await setup();
  const text =
    'POST /_bulk\n{"index": {"_index": "i", "_id": "1"}}\n{"a": 1}\n{"update": {"_index": "i", "_id": "bad"}}\n{"doc": {}}\n';
  const error = await stmt.executeUpdate(text).catch((e) => e);
  assert.ok(error instanceof BulkError);
  assert.equal(error.items.length, 2);
  assert.equal(error.successCount, 1);
  assert.equal(error.failed[0]!.error?.type, "document_missing_exception");
  assert.match(error.message, /1 successful item\(s\) were written/);
});

Deno.test("a missing index on GET doc is still an error; 409 is a ResponseError", async () => {
  const { fake, stmt } = await setup();
  fake.on((req) =>
    req.path.startsWith("/gone/")
      ? Response.json({
        error: { type: "index_not_found_exception", reason: "no such index [gone]" },
        status: 404,
      }, { status: 404 })
      : undefined
  );
  await assert.rejects(
    stmt.executeQuery("GET /gone/_doc/1"),
    (e: unknown) => e instanceof ResponseError && e.type === "index_not_found_exception",
  );
  await assert.rejects(stmt.executeUpdate("DELETE /gone/_doc/1"), ResponseError);
  await assert.rejects(
    stmt.executeUpdate('PUT /idx/_create/dup {"a": 1}'),
    (e: unknown) => e instanceof ResponseError && e.type === "version_conflict_engine_exception",
  );
});

Deno.test("executeQuery on a write and executeUpdate on rows are IllegalStateErrors", async () => {
  const { stmt } = await setup();
  await assert.rejects(stmt.executeQuery('PUT /idx/_doc/1 {"a": 1}'), IllegalStateError);
  await assert.rejects(stmt.executeUpdate("POST /idx/_search"), IllegalStateError);
  // The same for a text of several commands: its first result decides, every command has run.
  await assert.rejects(
    stmt.executeQuery('PUT /idx/_doc/2 {"a": 1}\nPOST /idx/_search'),
    (e: unknown) => e instanceof IllegalStateError && /got an update count/.test(e.message),
  );
  assert.equal(stmt.getMoreResults(), true, "the search after the write ran");
  await assert.rejects(
    stmt.executeUpdate('POST /idx/_search\nPUT /idx/_doc/3 {"a": 1}'),
    (e: unknown) => e instanceof IllegalStateError && /got rows/.test(e.message),
  );
  assert.equal(await stmt.executeUpdate('PUT /idx/_doc/4 {"a": 1}\nPOST /idx/_search'), 1);
  const rs = await stmt.executeQuery("POST /idx/_search\nGET /idx/_count");
  assert.deepEqual(rs.getColumns(), ["_ID", "_DOC"]);
});

Deno.test("getMoreResults walks a 3-command text in order", async () => {
  const { fake, stmt } = await setup();
  const first = await stmt.execute(
    'PUT /idx/_doc/{?} {"n": ?}; POST /idx/_count\nDELETE /idx/_doc/missing',
    ["7", 1],
  );
  assert.equal(first, false);
  assert.equal(stmt.getUpdateCount(), 1);
  assert.equal(stmt.getResultSet(), null);
  assert.equal(stmt.getMoreResults(), true);
  assert.equal(stmt.getUpdateCount(), -1);
  const rs = stmt.getResultSet();
  assert.ok(rs?.next());
  assert.equal(rs?.getNumber("COUNT"), 7);
  assert.equal(stmt.getMoreResults(), false);
  assert.equal(stmt.getUpdateCount(), 0);
  assert.equal(stmt.getMoreResults(), false);
  assert.equal(stmt.getUpdateCount(), -1);
  assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.path}`), [
    "PUT /idx/_doc/7",
    "POST /idx/_count",
    "DELETE /idx/_doc/missing",
  ]);
});

Deno.test("generated keys: the _id of each write", async () => {
  const { stmt } = await setup();
  await stmt.executeUpdate('POST /idx/_doc {"a": 1}');
  const keys = stmt.getGeneratedKeys();
  assert.deepEqual(keys.getColumns(), ["_ID"]);
  assert.deepEqual(keys.toArray(), [{ _ID: "gen-1" }]);
  await stmt.executeQuery("POST /idx/_search");
  assert.equal(stmt.getGeneratedKeys().rowCount, 0);
});

Deno.test("setMaxRows truncates result sets", async () => {
  const { stmt } = await setup();
  stmt.setMaxRows(1);
  assert.equal((await stmt.executeQuery("POST /idx/_search")).rowCount, 1);
  assert.throws(() => stmt.setMaxRows(-1), TypeError);
});

Deno.test("indexRefresh=true reaches document writes only", async () => {
  const { fake, stmt } = await setup({ indexRefresh: true });
  await stmt.execute('PUT /idx/_doc/1?routing=a {"a": 1}; PUT /idx {}; POST /idx/_search');
  assert.deepEqual(fake.requests.map((r) => r.path), [
    "/idx/_doc/1?routing=a&refresh=true",
    "/idx",
    "/idx/_search",
  ]);
});

Deno.test("executeBatch runs one _bulk request", async () => {
  const { fake, stmt } = await setup({ indexRefresh: true });
  stmt.addBatch('PUT /idx/_doc/{?}?routing=r {"name": ?}', ["1", "alice"]);
  stmt.addBatch('POST /idx/_doc {\n  "name": "bob"\n}');
  stmt.addBatch("PUT /idx/_create/{?} ?", ["2", { name: "carol" }]);
  stmt.addBatch('POST /idx/_update/same {"doc": {"a": 1}}');
  stmt.addBatch("DELETE /idx/_doc/{?}", ["missing"]);
  const counts = await stmt.executeBatch();
  assert.deepEqual(counts, [1, 1, 1, 0, 0]);
  assert.equal(fake.requests.length, 1);
  const req = fake.requests[0]!;
  assert.equal(req.path, "/_bulk?refresh=true");
  assert.equal(req.headers.get("content-type"), "application/x-ndjson");
  const lines = (req.body ?? "").split("\n");
  assert.equal(lines.at(-1), "");
  assert.deepEqual(lines.slice(0, -1).map((l) => JSON.parse(l)), [
    { index: { _index: "idx", _id: "1", routing: "r" } },
    { name: "alice" },
    { index: { _index: "idx" } },
    { name: "bob" },
    { create: { _index: "idx", _id: "2" } },
    { name: "carol" },
    { update: { _index: "idx", _id: "same" } },
    { doc: { a: 1 } },
    { delete: { _index: "idx", _id: "missing" } },
  ]);
  assert.deepEqual(stmt.getGeneratedKeys().toArray().map((r) => r._ID), ["1", "bulk-3", "2"]);
  assert.deepEqual(await stmt.executeBatch(), []);
});

Deno.test("executeBatch refuses anything but single-document writes, naming it", () => {
  return setup().then(async ({ stmt }) => {
    stmt.addBatch("POST /idx/_search");
    await assert.rejects(
      stmt.executeBatch(),
      (e: unknown) =>
        e instanceof UnsupportedFeatureError &&
        /batch command 1 \(POST \/idx\/_search\)/.test(e.message),
    );
    stmt.addBatch('PUT /idx/_doc/1?timeout=1s {"a": 1}');
    await assert.rejects(stmt.executeBatch(), /query parameter "timeout"/);
    assert.throws(() => stmt.addBatch("PUT /a/_doc/1 {}; PUT /a/_doc/2 {}"), IllegalStateError);
  });
});

Deno.test("executeBatch with a failed item → BulkError", async () => {
  const { stmt } = await setup();
  stmt.addBatch('PUT /idx/_doc/1 {"a": 1}');
  stmt.addBatch('POST /idx/_update/bad {"doc": {"a": 1}}');
  const error = await stmt.executeBatch().catch((e) => e);
  assert.ok(error instanceof BulkError);
  assert.equal(error.successCount, 1);
});

Deno.test("a closed statement or connection refuses work", async () => {
  const { stmt } = await setup();
  stmt.close();
  assert.equal(stmt.isClosed(), true);
  // A rejection, not a throw, for one command as for several.
  const one = stmt.execute("GET /");
  const two = stmt.executeQuery("GET /\nGET /");
  await assert.rejects(one, IllegalStateError);
  await assert.rejects(two, IllegalStateError);
  const other = await setup();
  await other.stmt.connection.close();
  await assert.rejects(other.stmt.executeQuery("GET /"), /connection is closed/);
});

Deno.test("setQueryTimeout times a hung request out (TimeoutError); a per-call signal aborts it (AbortError)", async () => {
  const ds = new DataSource({
    nodes: ["http://es:9200"],
    fetch: (_url, init) =>
      new Promise((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason))
      ),
  });
  const stmt = (await ds.getConnection()).createStatement();
  stmt.setQueryTimeout(30);
  assert.equal(stmt.getQueryTimeout(), 30);
  await assert.rejects(stmt.executeQuery("GET /"), /timed out after 30 ms/);
  stmt.setQueryTimeout(0);
  const controller = new AbortController();
  const pending = stmt.executeQuery("GET /", [], { signal: controller.signal });
  controller.abort();
  await assert.rejects(pending, { name: "AbortError" });
});

Deno.test("a text without a command is a CommandSyntaxError", async () => {
  const { fake, stmt } = await setup();
  await assert.rejects(stmt.execute("# only a comment\n"), /has no command/);
  await assert.rejects(stmt.executeUpdate(""), SyntaxError);
  assert.throws(() => stmt.connection.prepareStatement("  // nothing"), /has no command/);
  assert.equal(fake.requests.length, 0);
});

Deno.test("execute, executeQuery, executeUpdate: bad text or arguments reject, never throw synchronously", async () => {
  const { fake, stmt } = await setup();
  const calls: (() => Promise<unknown>)[] = [
    () => stmt.execute(""),
    () => stmt.executeQuery('POST /u/_search {"size": ?}', []),
    () => stmt.executeUpdate("PUT /u/_doc/{?} {}", [{ not: "a path value" }]),
  ];
  for (const call of calls) {
    let promise: Promise<unknown> | undefined;
    assert.doesNotThrow(() => void (promise = call()));
    await assert.rejects(
      promise!,
      (e: unknown) => e instanceof SyntaxError || e instanceof TypeError,
    );
  }
  assert.equal(fake.requests.length, 0);
});
