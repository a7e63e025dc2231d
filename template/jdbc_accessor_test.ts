import assert from "node:assert/strict";
import { type Connection, DataSource, IllegalStateError } from "../driver/mod.ts";
import { JdbcTemplate } from "./jdbc_template.ts";

const SEARCH = () =>
  Promise.resolve(Response.json({
    took: 1,
    hits: { total: { value: 1, relation: "eq" }, hits: [{ _id: "1", _source: { n: 1 } }] },
  }));

/** A DataSource whose connections close later than their close() call returns. */
class SlowClosing extends DataSource {
  readonly events: string[] = [];
  override async getConnection(): Promise<Connection> {
    const conn = await super.getConnection();
    const close = conn.close.bind(conn);
    conn.close = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      this.events.push("closed");
      return close();
    };
    return conn;
  }
}

Deno.test("a connection with its own close() is waited for before the call settles", async () => {
  const ds = new SlowClosing({ nodes: ["http://es"], fetch: SEARCH });
  const jdbc = new JdbcTemplate(ds);
  const rows = await jdbc.queryForList("POST /i/_search");
  ds.events.push("returned");
  assert.deepEqual(rows, [{ _ID: "1", _DOC: '{"n":1}' }]);
  await jdbc.query("POST /i/_search", [], { extractor: (rs) => Promise.resolve(rs.rowCount) });
  ds.events.push("returned");
  assert.deepEqual(ds.events, ["closed", "returned", "closed", "returned"]);
});

Deno.test("the driver's connection is closed when the call settles, without a wait", async () => {
  const opened: Connection[] = [];
  class Recording extends DataSource {
    override async getConnection(): Promise<Connection> {
      const conn = await super.getConnection();
      opened.push(conn);
      return conn;
    }
  }
  const jdbc = new JdbcTemplate(new Recording({ nodes: ["http://es"], fetch: SEARCH }));
  assert.equal((await jdbc.queryForList("POST /i/_search")).length, 1);
  await assert.rejects(jdbc.queryForList("POST /i/_refresh"), IllegalStateError);
  assert.equal(opened.length, 2);
  assert.ok(opened.every((c) => c.isClosed()));
});

Deno.test("an async reader keeps the connection open until it settles", async () => {
  const opened: Connection[] = [];
  class Recording extends DataSource {
    override async getConnection(): Promise<Connection> {
      const conn = await super.getConnection();
      opened.push(conn);
      return conn;
    }
  }
  const jdbc = new JdbcTemplate(new Recording({ nodes: ["http://es"], fetch: SEARCH }));
  const seen = await jdbc.query("POST /i/_search", [], {
    extractor: async (rs) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { open: !opened[0]!.isClosed(), rows: rs.rowCount };
    },
  });
  assert.deepEqual(seen, { open: true, rows: 1 });
  assert.equal(opened[0]!.isClosed(), true);
});
