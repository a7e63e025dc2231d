// What the driver's own work shows in the backend's statistics: writes, reads and searches sent
// through a Statement are counted in `_stats` and read back as `_cat/indices` columns.
import assert from "node:assert/strict";
import { backendTest, suiteIndex } from "./support/backend.ts";

const PEOPLE = suiteIndex("people");

backendTest(
  "stats: the driver's writes, gets and searches are counted and read back as rows",
  async (t) => {
    const ds = t.dataSource();
    const conn = await ds.getConnection();
    try {
      const stmt = conn.createStatement();
      await stmt.executeUpdate(`PUT /${PEOPLE}/_doc/1 {"name": "alice"}`);
      await stmt.executeUpdate(`PUT /${PEOPLE}/_doc/2 {"name": "bob"}`);
      await stmt.executeUpdate(`DELETE /${PEOPLE}/_doc/2`);
      await stmt.executeUpdate(`POST /${PEOPLE}/_refresh`);
      await stmt.executeQuery(`GET /${PEOPLE}/_doc/1`);
      await stmt.executeQuery(`POST /${PEOPLE}/_search {"query": {"match_all": {}}}`);
      const cat = await stmt.executeQuery(
        `GET /_cat/indices/${PEOPLE}?h=index,iito,idto,gto,sqto,rto`,
      );
      const [row] = cat.toArray();
      assert.equal(row?.INDEX, PEOPLE);
      assert.equal(row?.IITO, "2");
      assert.equal(row?.IDTO, "1");
      assert.equal(row?.GTO, "1");
      assert.equal(row?.SQTO, "1");
      const stats = await stmt.executeQuery(`GET /${PEOPLE}/_stats/docs,search`);
      assert.ok(stats.next());
      const all = JSON.parse(stats.getString("_all") ?? "{}");
      assert.equal(all.primaries.docs.count, 1);
      assert.equal(all.primaries.search.fetch_total, 1);
    } finally {
      await conn.close();
    }
  },
);
