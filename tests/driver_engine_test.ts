// The driver's result shapes and update counts over HTTP. Part of the behaviour suite: the embedded
// engine, or the cluster named by ES_URL (tests/README.md).
import assert from "node:assert/strict";
import { BulkError, ResponseError, type Statement } from "../driver/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";

const PEOPLE = suiteIndex("people");
const B = suiteIndex("b");
const H = suiteIndex("h");
const NOBODY = suiteIndex("nobody");

async function withStatement(
  t: BackendScope,
  fn: (stmt: Statement) => Promise<void>,
  indexRefresh = true,
): Promise<void> {
  const conn = await t.dataSource({ indexRefresh }).getConnection();
  try {
    await fn(conn.createStatement());
  } finally {
    await conn.close();
  }
}

backendTest("engine: writes give real update counts", async (t) => {
  await withStatement(t, async (stmt) => {
    assert.equal(
      await stmt.executeUpdate(
        `PUT /${PEOPLE} {"mappings": {"properties": {"name": {"type": "keyword"}}}}`,
      ),
      1,
    );
    assert.equal(await stmt.executeUpdate(`PUT /${PEOPLE}/_doc/1 {"name": "alice", "age": 30}`), 1);
    assert.equal(await stmt.executeUpdate(`POST /${PEOPLE}/_doc {"name": "bob", "age": 25}`), 1);
    const keys = stmt.getGeneratedKeys();
    assert.ok(keys.next());
    assert.ok((keys.getString("_ID") ?? "").length > 0);
    assert.equal(
      await stmt.executeUpdate(`PUT /${PEOPLE}/_create/3 {"name": "carol", "age": 41}`),
      1,
    );
    assert.equal(await stmt.executeUpdate(`POST /${PEOPLE}/_update/1 {"doc": {"age": 31}}`), 1);
    assert.equal(await stmt.executeUpdate(`POST /${PEOPLE}/_update/1 {"doc": {"age": 31}}`), 0);
    assert.equal(await stmt.executeUpdate(`DELETE /${PEOPLE}/_doc/3`), 1);
    assert.equal(await stmt.executeUpdate(`DELETE /${PEOPLE}/_doc/3`), 0);
    await assert.rejects(
      stmt.executeUpdate(`PUT /${PEOPLE}/_create/1 {"name": "again"}`),
      (e: unknown) =>
        e instanceof ResponseError && e.status === 409 &&
        e.type === "version_conflict_engine_exception",
    );
    assert.equal(await stmt.executeUpdate(`POST /${PEOPLE}/_refresh`), 1);
  });
});

backendTest("engine: _update_by_query counts what it updated", {
  requires: ["by-query"],
}, async (t) => {
  await withStatement(t, async (stmt) => {
    await stmt.executeUpdate(`PUT /${PEOPLE}/_doc/1 {"name": "alice", "age": 30}`);
    await stmt.executeUpdate(`PUT /${PEOPLE}/_doc/2 {"name": "bob", "age": 25}`);
    await stmt.executeUpdate(`POST /${PEOPLE}/_refresh`);
    assert.equal(
      await stmt.executeUpdate(
        `POST /${PEOPLE}/_update_by_query {"query": {"term": {"name": "alice"}}}`,
      ),
      1,
    );
  });
});

backendTest("engine: search, count, get, mget, HEAD, _cat and _mapping shapes", async (t) => {
  await withStatement(t, async (stmt) => {
    await stmt.executeUpdate(
      `PUT /${PEOPLE} {"mappings": {"properties": {"name": {"type": "keyword"}}}}`,
    );
    await stmt.executeUpdate(`PUT /${PEOPLE}/_doc/1 {"name": "alice", "age": 30}`);
    await stmt.executeUpdate(`PUT /${PEOPLE}/_doc/2 {"name": "bob", "age": 25}`);
    const rs = await stmt.executeQuery(`POST /${PEOPLE}/_search {"query": {"term": {"name": ?}}}`, [
      "alice",
    ]);
    assert.deepEqual(rs.getColumns(), ["_ID", "_DOC"]);
    assert.deepEqual(rs.toArray(), [{ _ID: "1", _DOC: '{"name":"alice","age":30}' }]);
    assert.deepEqual(rs.total, { value: 1, relation: "eq" });
    assert.equal(typeof rs.took, "number");
    const count = await stmt.executeQuery(`GET /${PEOPLE}/_count`);
    assert.deepEqual(count.toArray(), [{ COUNT: 2 }]);
    assert.deepEqual((await stmt.executeQuery(`GET /${PEOPLE}/_doc/2`)).toArray(), [
      { _ID: "2", _DOC: '{"name":"bob","age":25}' },
    ]);
    assert.equal((await stmt.executeQuery(`GET /${PEOPLE}/_doc/404`)).rowCount, 0);
    const mget = await stmt.executeQuery(`POST /${PEOPLE}/_mget {"ids": ["1", "404"]}`);
    assert.deepEqual(mget.toArray().map((r) => r._DOC === null), [false, true]);
    assert.deepEqual((await stmt.executeQuery(`HEAD /${PEOPLE}`)).toArray(), [{ STATUS: 200 }]);
    assert.deepEqual((await stmt.executeQuery(`HEAD /${NOBODY}`)).toArray(), [{ STATUS: 404 }]);
    const cat = await stmt.executeQuery("GET /_cat/indices");
    assert.equal(cat.getColumns()[0], "INDEX");
    assert.ok(cat.toArray().some((r) => r.INDEX === `${PEOPLE}`));
    const mapping = (await stmt.executeQuery(`GET /${PEOPLE}/_mapping`)).toArray();
    assert.ok(mapping.some((r) => r.MAPPING === "name" && r.TYPE === "keyword"));
    await assert.rejects(
      stmt.executeQuery(`GET /${NOBODY}/_search`),
      (e: unknown) => e instanceof ResponseError && e.type === "index_not_found_exception",
    );
  });
});

backendTest("engine: _msearch, multi-command text, executeBatch and a failing bulk", async (t) => {
  await withStatement(t, async (stmt) => {
    stmt.addBatch(`PUT /${B}/_doc/1 {"n": 1}`);
    stmt.addBatch(`PUT /${B}/_doc/2 {"n": 2}`);
    stmt.addBatch(`DELETE /${B}/_doc/404`);
    assert.deepEqual(await stmt.executeBatch(), [1, 1, 0]);
    assert.equal(
      await stmt.execute(
        `POST /${B}/_count; GET /_msearch\n{"index": "${B}"}\n{}\n{"index": "${B}"}\n{"size": 1}\n`,
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
      `POST /_bulk\n{"index": {"_index": "${B}", "_id": "3"}}\n{"n": 3}\n{"update": {"_index": "${B}", "_id": "nope"}}\n{"doc": {"n": 0}}\n`;
    const error = await stmt.executeUpdate(bad).catch((e) => e);
    assert.ok(error instanceof BulkError, String(error));
    assert.equal(error.successCount, 1);
    assert.equal(error.failed[0]!.error?.type, "document_missing_exception");
  });
});

backendTest("engine over HTTP: a path value with a slash is one segment", async (t) => {
  const ds = t.dataSource({ indexRefresh: true });
  await using conn = await ds.getConnection();
  const stmt = conn.createStatement();
  assert.equal(await stmt.executeUpdate(`PUT /${H}/_doc/{?} {"name": ?}`, ["a/b", "x"]), 1);
  const rs = await stmt.executeQuery(`GET /${H}/_doc/{?}`, ["a/b"]);
  assert.deepEqual(rs.toArray(), [{ _ID: "a/b", _DOC: '{"name":"x"}' }]);
});

backendTest("engine over HTTP: serverInfo reads GET /", { requires: ["root-info"] }, async (t) => {
  await using conn = await t.dataSource().getConnection();
  const info = await conn.serverInfo();
  assert.deepEqual(info, { flavour: t.info.flavour, version: t.info.version, major: t.info.major });
});
