// Nested objects and time zones through the driver and the template, on every backend of the
// suite (tests/README.md): a nested query matches per object (never across two objects of one document), inner hits
// come back per row, and a named time zone moves date buckets and date math to the local clock.
import assert from "node:assert/strict";
import type { DataSource } from "../driver/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { JdbcTemplate } from "../template/mod.ts";

const PEOPLE = suiteIndex("people");

async function withServer(
  t: BackendScope,
  run: (jdbc: JdbcTemplate, ds: DataSource) => Promise<void>,
) {
  {
    const ds = t.dataSource();
    const jdbc = new JdbcTemplate(ds);
    await jdbc.execute(`PUT /${PEOPLE} {"mappings": {"properties": {
      "group": {"type": "keyword"}, "joined": {"type": "date"},
      "user": {"type": "nested", "properties": {"first": {"type": "keyword"}, "last": {"type": "keyword"}}}}}}`);
    await jdbc.executeUpdate(`POST /${PEOPLE}/_bulk?refresh=true
{"index": {"_id": "1"}}
{"group": "a", "joined": "2024-03-30T23:30:00Z", "user": [{"first": "John", "last": "White"}, {"first": "Alice", "last": "Smith"}]}
{"index": {"_id": "2"}}
{"group": "b", "joined": "2024-03-30T22:30:00Z", "user": [{"first": "John", "last": "Smith"}]}
`);
    await run(jdbc, ds);
  }
}

backendTest(
  "nested over HTTP: John Smith is one object, never John from one and Smith from another",
  async (t) => {
    await withServer(t, async (jdbc, ds) => {
      const rows = await jdbc.queryForList(
        `POST /${PEOPLE}/_search {"query": {"nested": {"path": "user", "query": {"bool": {"must": [
        {"term": {"user.first": #{first}}}, {"term": {"user.last": #{last}}}]}},
        "inner_hits": {"name": "who"}}}}`,
        { first: "John", last: "Smith" },
      );
      assert.deepEqual(rows.map((r) => r._ID), ["2"]);
      await using conn = await ds.getConnection();
      const rs = await conn.createStatement().executeQuery(
        `POST /${PEOPLE}/_search {"query": {"nested": {"path": "user", "query": {"term": {"user.last": ?}},
        "inner_hits": {"name": "who"}}}}`,
        ["Smith"],
      );
      const found: Record<string, unknown> = {};
      while (rs.next()) {
        const inner = rs.getInnerHits("who");
        assert.equal(inner.rowCount, 1);
        inner.next();
        found[rs.getString("_ID")!] = JSON.parse(inner.getString("_DOC")!);
      }
      assert.deepEqual(found, {
        "1": { first: "Alice", last: "Smith" },
        "2": { first: "John", last: "Smith" },
      });
    });
  },
);

backendTest(
  "time zones over HTTP: Paris days and now/d-style rounding follow the local clock",
  async (t) => {
    await withServer(t, async (jdbc, ds) => {
      // 23:30Z and 22:30Z on 30 March are 00:30 and 23:30 in Paris: two local days, one UTC day.
      await using conn = await ds.getConnection();
      const rs = await conn.createStatement().executeQuery(
        `POST /${PEOPLE}/_search {"size": 0, "aggs": {"d": {"date_histogram": {"field": "joined",
        "calendar_interval": "day", "time_zone": ?}}}}`,
        ["Europe/Paris"],
      );
      const buckets = rs.aggregations?.d?.buckets as { key_as_string: string; doc_count: number }[];
      assert.deepEqual(buckets.map((b) => [b.key_as_string, b.doc_count]), [
        ["2024-03-30T00:00:00.000+01:00", 1],
        ["2024-03-31T00:00:00.000+01:00", 1],
      ]);
      const sameDay = await jdbc.queryForList(
        `POST /${PEOPLE}/_search {"query": {"range": {"joined": {"gte": "2024-03-31||/d", "lte": "2024-03-31||/d",
        "time_zone": #{zone}}}}}`,
        { zone: "Europe/Paris" },
      );
      assert.deepEqual(sameDay.map((r) => r._ID), ["1"]);
      await assert.rejects(
        jdbc.queryForList(
          `POST /${PEOPLE}/_search {"query": {"range": {"joined": {"gte": "2024-03-31", "time_zone": #{zone}}}}}`,
          { zone: "Mars/Olympus" },
        ),
        /Unknown time-zone ID: Mars\/Olympus/,
      );
    });
  },
);
