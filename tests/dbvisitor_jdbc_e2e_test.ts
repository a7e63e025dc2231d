// dbVisitor's JdbcTemplate and ResultSet habits (issue 24), end to end on the embedded engine over
// loopback HTTP: field columns on search rows, the queryFor… names, Spring's handler shapes,
// epoch-second dates, and a caller's abort.
import assert from "node:assert/strict";
import { DataSource, type ResultSet, TimeoutError } from "../driver/mod.ts";
import { Engine, serve } from "../engine/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";

async function served(): Promise<{ jdbc: JdbcTemplate; ds: DataSource } & AsyncDisposable> {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const ds = new DataSource(server.url);
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute(
    'PUT /users {"mappings": {"properties": {"name": {"type": "keyword"}, "age": {"type": "integer"}}}}',
  );
  await jdbc.executeUpdate('PUT /users/_doc/1?refresh=true {"name": "ann", "age": 41}');
  await jdbc.executeUpdate(
    'PUT /users/_doc/2?refresh=true {"name": "bo", "age": 7, "address": {"city": "Oslo"}}',
  );
  return {
    jdbc,
    ds,
    [Symbol.asyncDispose]: async () => {
      await server.close();
      engine.close();
    },
  };
}

const SEARCH = 'POST /users/_search {"sort": [{"age": "desc"}]}';

Deno.test("6. search rows expose each top-level _source key as a column; row maps keep _ID and _DOC", async () => {
  await using s = await served();
  const ages = await s.jdbc.query(SEARCH, [], (rs) => [rs.getString("name"), rs.getInt("age")]);
  assert.deepEqual(ages, [["ann", 41], ["bo", 7]]);
  const rs = await s.jdbc.query(SEARCH, [], { extractor: (rs: ResultSet) => rs });
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

  const rows = await s.jdbc.queryForList(SEARCH);
  assert.deepEqual(Object.keys(rows[0]!), ["_ID", "_DOC"]);
  const one = await s.jdbc.queryForMap('POST /users/_search {"query": {"term": {"name": "bo"}}}');
  assert.deepEqual(Object.keys(one!), ["_ID", "_DOC"]);
});

Deno.test("7. queryForInt, queryForLong, queryForString and queryForObject(text, args, Type)", async () => {
  await using s = await served();
  assert.equal(await s.jdbc.queryForInt("POST /users/_count"), 2);
  assert.equal(await s.jdbc.queryForLong("POST /users/_count"), 2n);
  assert.equal(await s.jdbc.queryForString("POST /users/_count"), "2");
  assert.equal(await s.jdbc.queryForNumber("POST /users/_count"), 2);
  assert.equal(await s.jdbc.queryForObject("POST /users/_count", [], Number), 2);
  assert.equal(await s.jdbc.queryForObject("POST /users/_count", [], String), "2");
  assert.equal(await s.jdbc.queryForObject("POST /users/_count", [], BigInt), 2n);
  const count: number | null = await s.jdbc.queryForInt(
    'POST /users/_count {"query": {"term": {"name": ?}}}',
    ["ann"],
  );
  assert.equal(count, 1);
  await assert.rejects(
    s.jdbc.queryForInt('POST /users/_search {"query": {"term": {"name": "bo"}}}'),
    /Expected one value column, got _ID, _DOC/,
  );
});

Deno.test("15. Spring's { extractData }, { mapRow } and { processRow } shapes; an unknown shape is refused", async () => {
  await using s = await served();
  class NamesExtractor {
    prefix = "n:";
    extractData(rs: ResultSet): string[] {
      const out: string[] = [];
      while (rs.next()) out.push(this.prefix + rs.getString("name"));
      return out;
    }
  }
  assert.deepEqual(await s.jdbc.query(SEARCH, [], new NamesExtractor()), ["n:ann", "n:bo"]);
  assert.deepEqual(
    await s.jdbc.query(SEARCH, [], {
      mapRow: (rs: ResultSet, n: number) => `${n}:${rs.getString("_ID")}`,
    }),
    ["0:1", "1:2"],
  );
  const seen: string[] = [];
  assert.equal(
    await s.jdbc.query(SEARCH, [], {
      processRow: (rs: ResultSet) => void seen.push(rs.getString("name")!),
    }),
    2,
  );
  assert.deepEqual(seen, ["ann", "bo"]);
  await assert.rejects(
    s.jdbc.query(SEARCH, [], { extract: () => 1 } as never),
    /the handler is an object with keys "extract" but no function under a known name; pass a RowMapper/,
  );
  await assert.rejects(
    s.jdbc.query(SEARCH, [], { mapRow: () => 1, extractData: () => 2 } as never),
    /has mapRow and extractData; give exactly one/,
  );
});

Deno.test("13. getDate on _cat's epoch-seconds columns honours the unit", async () => {
  await using s = await served();
  const before = Date.now();
  const rs = await s.jdbc.query("GET /_cat/count/users", [], { extractor: (rs: ResultSet) => rs });
  rs.next();
  const epoch = Number(rs.getString("EPOCH"));
  assert.ok(epoch > 1_000_000_000 && epoch < 100_000_000_000, `seconds: ${epoch}`);
  const date = rs.getDate("EPOCH")!;
  assert.equal(date.getTime(), epoch * 1000);
  assert.ok(Math.abs(date.getTime() - before) < 24 * 3600_000, date.toISOString());
  assert.equal(rs.getInt("COUNT"), 2);
  // a number in a search row stays epoch milliseconds
  await s.jdbc.executeUpdate('PUT /ev/_doc/1?refresh=true {"epoch": 86400000}');
  const ev = await s.jdbc.query("POST /ev/_search", [], (r) => r.getDate("epoch")!.toISOString());
  assert.deepEqual(ev, ["1970-01-02T00:00:00.000Z"]);
});

Deno.test("14. a caller's abort rejects with the caller's reason (AbortError), not TimeoutError", async () => {
  await using s = await served();
  await using conn = await s.ds.getConnection();
  const controller = new AbortController();
  controller.abort();
  const error = await conn.createStatement().executeQuery(SEARCH, [], { signal: controller.signal })
    .catch((e) => e);
  assert.ok(!(error instanceof TimeoutError), String(error));
  assert.equal(error.name, "AbortError");
  assert.equal(error, controller.signal.reason);
  const mine = new Error("user navigated away");
  const second = new AbortController();
  second.abort(mine);
  const failed = await conn.createStatement().executeQuery(SEARCH, [], { signal: second.signal })
    .catch((e) => e);
  assert.equal(failed, mine);
  const third = new AbortController();
  const stream = conn.stream(SEARCH, [], {
    pageSize: 1,
    signal: third.signal,
  });
  const streamed = await (async () => {
    for await (const _ of stream) third.abort(mine);
  })().catch((e) => e);
  assert.equal(streamed, mine);
});
