// What the driver's own work shows in the engine's statistics: writes, reads and searches sent
// through a Statement are counted in `_stats` and read back as `_cat/indices` columns.
import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";

Deno.test("stats: the driver's writes, gets and searches are counted and read back as rows", async () => {
  const engine = new Engine();
  const ds = new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch });
  const conn = await ds.getConnection();
  try {
    const stmt = conn.createStatement();
    await stmt.executeUpdate('PUT /people/_doc/1 {"name": "alice"}');
    await stmt.executeUpdate('PUT /people/_doc/2 {"name": "bob"}');
    await stmt.executeUpdate("DELETE /people/_doc/2");
    await stmt.executeUpdate("POST /people/_refresh");
    await stmt.executeQuery("GET /people/_doc/1");
    await stmt.executeQuery('POST /people/_search {"query": {"match_all": {}}}');
    const cat = await stmt.executeQuery(
      "GET /_cat/indices/people?h=index,iito,idto,gto,sqto,rto",
    );
    const [row] = cat.toArray();
    assert.equal(row?.INDEX, "people");
    assert.equal(row?.["INDEXING.INDEX_TOTAL"], "2");
    assert.equal(row?.["INDEXING.DELETE_TOTAL"], "1");
    assert.equal(row?.["GET.TOTAL"], "1");
    assert.equal(row?.["SEARCH.QUERY_TOTAL"], "1");
    const stats = await stmt.executeQuery("GET /people/_stats/docs,search");
    assert.ok(stats.next());
    const all = JSON.parse(stats.getString("_all") ?? "{}");
    assert.equal(all.primaries.docs.count, 1);
    assert.equal(all.primaries.search.fetch_total, 1);
  } finally {
    await conn.close();
    engine.close();
  }
});
