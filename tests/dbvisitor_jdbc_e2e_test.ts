// dbVisitor's JdbcTemplate and ResultSet habits (issue 24), end to end on the behaviour suite's
// backend (the embedded engine over loopback HTTP, or the cluster of `ES_URL`): field columns on
// search rows, the queryFor… names, Spring's handler shapes, epoch-second dates, and a caller's
// abort.
import assert from "node:assert/strict";
import { type DataSource, type ResultSet, TimeoutError } from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { type BackendScope, backendTest } from "./support/backend.ts";

interface Served {
  jdbc: JdbcTemplate;
  ds: DataSource;
  /** The test's own index names. */
  users: string;
  ev: string;
  /** The users sorted by age, oldest first. */
  search: string;
}

async function served(t: BackendScope): Promise<Served> {
  const ds = t.dataSource();
  const jdbc = new JdbcTemplate(ds);
  const users = t.index("users");
  await jdbc.execute(
    `PUT /${users} {"mappings": {"properties": {"name": {"type": "keyword"}, "age": {"type": "integer"}}}}`,
  );
  await jdbc.executeUpdate(`PUT /${users}/_doc/1?refresh=true {"name": "ann", "age": 41}`);
  await jdbc.executeUpdate(
    `PUT /${users}/_doc/2?refresh=true {"name": "bo", "age": 7, "address": {"city": "Oslo"}}`,
  );
  const search = `POST /${users}/_search {"sort": [{"age": "desc"}]}`;
  return { jdbc, ds, users, ev: t.index("ev"), search };
}

backendTest(
  "6. search rows expose each top-level _source key as a column; row maps keep _ID and _DOC",
  async (t) => {
    const s = await served(t);
    const ages = await s.jdbc.query(s.search, [], (rs) => [rs.getString("name"), rs.getInt("age")]);
    assert.deepEqual(ages, [["ann", 41], ["bo", 7]]);
    const rs = await s.jdbc.query(s.search, [], { extractor: (rs: ResultSet) => rs });
    assert.deepEqual(rs.getFieldColumns(), ["name", "age", "address"]);
    assert.deepEqual(rs.getColumns(), ["_ID", "_DOC"]);
    rs.next();
    assert.equal(rs.getObject("address"), null, "a row without the key reads null");
    assert.equal(rs.wasNull(), true);
    rs.next();
    assert.equal(rs.getString("address"), '{"city":"Oslo"}', "objects read as JSON text");
    assert.deepEqual(rs.getJson("address"), { city: "Oslo" });
    assert.throws(() => rs.getString("nope"), /No column "nope"; the columns are _ID, _DOC, name/);
    rs.setFieldColumns(false);
    assert.throws(() => rs.getInt("age"), /No column "age"; the columns are _ID, _DOC$/);

    const rows = await s.jdbc.queryForList(s.search);
    assert.deepEqual(Object.keys(rows[0]!), ["_ID", "_DOC"]);
    const one = await s.jdbc.queryForMap(
      `POST /${s.users}/_search {"query": {"term": {"name": "bo"}}}`,
    );
    assert.deepEqual(Object.keys(one!), ["_ID", "_DOC"]);
  },
);

backendTest(
  "7. queryForInt, queryForLong, queryForString and queryForObject(text, args, Type)",
  async (t) => {
    const s = await served(t);
    assert.equal(await s.jdbc.queryForInt(`POST /${s.users}/_count`), 2);
    assert.equal(await s.jdbc.queryForLong(`POST /${s.users}/_count`), 2n);
    assert.equal(await s.jdbc.queryForString(`POST /${s.users}/_count`), "2");
    assert.equal(await s.jdbc.queryForNumber(`POST /${s.users}/_count`), 2);
    assert.equal(await s.jdbc.queryForObject(`POST /${s.users}/_count`, [], Number), 2);
    assert.equal(await s.jdbc.queryForObject(`POST /${s.users}/_count`, [], String), "2");
    assert.equal(await s.jdbc.queryForObject(`POST /${s.users}/_count`, [], BigInt), 2n);
    const count: number | null = await s.jdbc.queryForInt(
      `POST /${s.users}/_count {"query": {"term": {"name": ?}}}`,
      ["ann"],
    );
    assert.equal(count, 1);
    await assert.rejects(
      s.jdbc.queryForInt(`POST /${s.users}/_search {"query": {"term": {"name": "bo"}}}`),
      /Expected one value column, got _ID, _DOC/,
    );
  },
);

backendTest(
  "15. Spring's { extractData }, { mapRow } and { processRow } shapes; an unknown shape is refused",
  async (t) => {
    const s = await served(t);
    class NamesExtractor {
      prefix = "n:";
      extractData(rs: ResultSet): string[] {
        const out: string[] = [];
        while (rs.next()) out.push(this.prefix + rs.getString("name"));
        return out;
      }
    }
    assert.deepEqual(await s.jdbc.query(s.search, [], new NamesExtractor()), ["n:ann", "n:bo"]);
    assert.deepEqual(
      await s.jdbc.query(s.search, [], {
        mapRow: (rs: ResultSet, n: number) => `${n}:${rs.getString("_ID")}`,
      }),
      ["0:1", "1:2"],
    );
    const seen: string[] = [];
    assert.equal(
      await s.jdbc.query(s.search, [], {
        processRow: (rs: ResultSet) => void seen.push(rs.getString("name")!),
      }),
      2,
    );
    assert.deepEqual(seen, ["ann", "bo"]);
    await assert.rejects(
      s.jdbc.query(s.search, [], { extract: () => 1 } as never),
      /the handler is an object with keys "extract" but no function under a known name; pass a RowMapper/,
    );
    await assert.rejects(
      s.jdbc.query(s.search, [], { mapRow: () => 1, extractData: () => 2 } as never),
      /has mapRow and extractData; give exactly one/,
    );
  },
);

backendTest("13. getDate on _cat's epoch-seconds columns honours the unit", async (t) => {
  const s = await served(t);
  const before = Date.now();
  const rs = await s.jdbc.query(`GET /_cat/count/${s.users}`, [], {
    extractor: (rs: ResultSet) => rs,
  });
  rs.next();
  const epoch = Number(rs.getString("EPOCH"));
  assert.ok(epoch > 1_000_000_000 && epoch < 100_000_000_000, `seconds: ${epoch}`);
  const date = rs.getDate("EPOCH")!;
  assert.equal(date.getTime(), epoch * 1000);
  assert.ok(Math.abs(date.getTime() - before) < 24 * 3600_000, date.toISOString());
  assert.equal(rs.getInt("COUNT"), 2);
  // a number in a search row stays epoch milliseconds
  await s.jdbc.executeUpdate(`PUT /${s.ev}/_doc/1?refresh=true {"epoch": 86400000}`);
  const ev = await s.jdbc.query(
    `POST /${s.ev}/_search`,
    [],
    (r) => r.getDate("epoch")!.toISOString(),
  );
  assert.deepEqual(ev, ["1970-01-02T00:00:00.000Z"]);
});

backendTest(
  "14. a caller's abort rejects with the caller's reason (AbortError), not TimeoutError",
  async (t) => {
    const s = await served(t);
    await using conn = await s.ds.getConnection();
    const controller = new AbortController();
    controller.abort();
    const error = await conn.createStatement().executeQuery(s.search, [], {
      signal: controller.signal,
    })
      .catch((e) => e);
    assert.ok(!(error instanceof TimeoutError), String(error));
    assert.equal(error.name, "AbortError");
    assert.equal(error, controller.signal.reason);
    const mine = new Error("user navigated away");
    const second = new AbortController();
    second.abort(mine);
    const failed = await conn.createStatement().executeQuery(s.search, [], {
      signal: second.signal,
    })
      .catch((e) => e);
    assert.equal(failed, mine);
    const third = new AbortController();
    const stream = conn.stream(s.search, [], {
      pageSize: 1,
      signal: third.signal,
    });
    const streamed = await (async () => {
      for await (const _ of stream) third.abort(mine);
    })().catch((e) => e);
    assert.equal(streamed, mine);
  },
);
