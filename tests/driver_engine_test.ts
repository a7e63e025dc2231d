// The driver's result shapes and update counts against the embedded engine: in-process through
// `engine.fetch`, and once over real HTTP (loopback) through `serve`. With ES_URL set, the same
// cases run against that cluster instead.
import assert from "node:assert/strict";
import { BulkError, DataSource, ResponseError, type Statement } from "../driver/mod.ts";
import { Engine, serve } from "../engine/mod.ts";

const ES_URL = Deno.env.get("ES_URL");

async function withStatement(
  fn: (stmt: Statement) => Promise<void>,
  indexRefresh = true,
): Promise<void> {
  const engine = ES_URL ? undefined : new Engine();
  try {
    const ds = engine
      ? new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch, indexRefresh })
      : new DataSource(ES_URL as string, { indexRefresh });
    const conn = await ds.getConnection();
    const stmt = conn.createStatement();
    // On a real cluster (ES_URL), start from nothing.
    await stmt.execute("DELETE /people,b,h?ignore_unavailable=true");
    await fn(stmt);
    await conn.close();
  } finally {
    engine?.close();
  }
}

Deno.test("engine: writes give real update counts", async () => {
  await withStatement(async (stmt) => {
    assert.equal(
      await stmt.executeUpdate(
        'PUT /people {"mappings": {"properties": {"name": {"type": "keyword"}}}}',
      ),
      1,
    );
    assert.equal(await stmt.executeUpdate('PUT /people/_doc/1 {"name": "alice", "age": 30}'), 1);
    assert.equal(await stmt.executeUpdate('POST /people/_doc {"name": "bob", "age": 25}'), 1);
    const keys = stmt.getGeneratedKeys();
    assert.ok(keys.next());
    assert.ok((keys.getString("_ID") ?? "").length > 0);
    assert.equal(await stmt.executeUpdate('PUT /people/_create/3 {"name": "carol", "age": 41}'), 1);
    assert.equal(await stmt.executeUpdate('POST /people/_update/1 {"doc": {"age": 31}}'), 1);
    assert.equal(await stmt.executeUpdate('POST /people/_update/1 {"doc": {"age": 31}}'), 0);
    assert.equal(await stmt.executeUpdate("DELETE /people/_doc/3"), 1);
    assert.equal(await stmt.executeUpdate("DELETE /people/_doc/3"), 0);
    await assert.rejects(
      stmt.executeUpdate('PUT /people/_create/1 {"name": "again"}'),
      (e: unknown) =>
        e instanceof ResponseError && e.status === 409 &&
        e.type === "version_conflict_engine_exception",
    );
    assert.equal(
      await stmt.executeUpdate(
        'POST /people/_update_by_query {"query": {"term": {"name": "alice"}}}',
      ),
      1,
    );
    assert.equal(await stmt.executeUpdate("POST /people/_refresh"), 1);
  });
});

Deno.test("engine: search, count, get, mget, HEAD, _cat and _mapping shapes", async () => {
  await withStatement(async (stmt) => {
    await stmt.executeUpdate(
      'PUT /people {"mappings": {"properties": {"name": {"type": "keyword"}}}}',
    );
    await stmt.executeUpdate('PUT /people/_doc/1 {"name": "alice", "age": 30}');
    await stmt.executeUpdate('PUT /people/_doc/2 {"name": "bob", "age": 25}');
    const rs = await stmt.executeQuery('POST /people/_search {"query": {"term": {"name": ?}}}', [
      "alice",
    ]);
    assert.deepEqual(rs.getColumns(), ["_ID", "_DOC"]);
    assert.deepEqual(rs.toArray(), [{ _ID: "1", _DOC: '{"name":"alice","age":30}' }]);
    assert.deepEqual(rs.total, { value: 1, relation: "eq" });
    assert.equal(typeof rs.took, "number");
    const count = await stmt.executeQuery("GET /people/_count");
    assert.deepEqual(count.toArray(), [{ COUNT: 2 }]);
    assert.deepEqual((await stmt.executeQuery("GET /people/_doc/2")).toArray(), [
      { _ID: "2", _DOC: '{"name":"bob","age":25}' },
    ]);
    assert.equal((await stmt.executeQuery("GET /people/_doc/404")).rowCount, 0);
    const mget = await stmt.executeQuery('POST /people/_mget {"ids": ["1", "404"]}');
    assert.deepEqual(mget.toArray().map((r) => r._DOC === null), [false, true]);
    assert.deepEqual((await stmt.executeQuery("HEAD /people")).toArray(), [{ STATUS: 200 }]);
    assert.deepEqual((await stmt.executeQuery("HEAD /nobody")).toArray(), [{ STATUS: 404 }]);
    const cat = await stmt.executeQuery("GET /_cat/indices");
    assert.equal(cat.getColumns()[0], "INDEX");
    assert.ok(cat.toArray().some((r) => r.INDEX === "people"));
    const mapping = (await stmt.executeQuery("GET /people/_mapping")).toArray();
    assert.ok(mapping.some((r) => r.MAPPING === "name" && r.TYPE === "keyword"));
    await assert.rejects(
      stmt.executeQuery("GET /nobody/_search"),
      (e: unknown) => e instanceof ResponseError && e.type === "index_not_found_exception",
    );
  });
});

Deno.test("engine: _msearch, multi-command text, executeBatch and a failing bulk", async () => {
  await withStatement(async (stmt) => {
    stmt.addBatch('PUT /b/_doc/1 {"n": 1}');
    stmt.addBatch('PUT /b/_doc/2 {"n": 2}');
    stmt.addBatch("DELETE /b/_doc/404");
    assert.deepEqual(await stmt.executeBatch(), [1, 1, 0]);
    assert.equal(
      await stmt.execute(
        'POST /b/_count; GET /_msearch\n{"index": "b"}\n{}\n{"index": "b"}\n{"size": 1}\n',
      ),
      true,
    );
    assert.equal(stmt.getResultSet()?.toArray()[0]?.COUNT, 2);
    assert.equal(stmt.getMoreResults(), true);
    assert.equal(stmt.getResultSet()?.rowCount, 2);
    assert.equal(stmt.getMoreResults(), true);
    assert.equal(stmt.getResultSet()?.rowCount, 1);
    assert.equal(stmt.getMoreResults(), false);
    const bad =
      'POST /_bulk\n{"index": {"_index": "b", "_id": "3"}}\n{"n": 3}\n{"update": {"_index": "b", "_id": "nope"}}\n{"doc": {"n": 0}}\n';
    const error = await stmt.executeUpdate(bad).catch((e) => e);
    assert.ok(error instanceof BulkError, String(error));
    assert.equal(error.successCount, 1);
    assert.equal(error.failed[0]!.error?.type, "document_missing_exception");
  });
});

Deno.test({
  name: "engine over HTTP: the same driver through real fetch",
  ignore: ES_URL !== undefined,
}, async () => {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  try {
    const ds = new DataSource(`${server.url}?indexRefresh=true`);
    await using conn = await ds.getConnection();
    const info = await conn.serverInfo();
    assert.equal(typeof info.major, "number");
    const stmt = conn.createStatement();
    assert.equal(await stmt.executeUpdate('PUT /h/_doc/{?} {"name": ?}', ["a/b", "x"]), 1);
    const rs = await stmt.executeQuery("GET /h/_doc/{?}", ["a/b"]);
    assert.deepEqual(rs.toArray(), [{ _ID: "a/b", _DOC: '{"name":"x"}' }]);
  } finally {
    await server.close();
    engine.close();
  }
});
