// Every JdbcTemplate method against the embedded engine over real HTTP (loopback), including
// dbVisitor's JdbcTemplate scenarios. Set ES_URL to run the same cases against a real cluster.
import assert from "node:assert/strict";
import { DataSource, IncorrectResultSizeError } from "../driver/mod.ts";
import { Engine, serve } from "../engine/mod.ts";
import { Column, JdbcTemplate, Table } from "../template/mod.ts";

@Table("e2e_users")
class User {
  @Column({ primary: true })
  id = "";
  @Column("user_name")
  name = "";
  @Column({ type: "number" })
  age = 0;
}

async function withJdbc(
  fn: (jdbc: JdbcTemplate, ds: DataSource) => Promise<void>,
): Promise<void> {
  const external = Deno.env.get("ES_URL");
  const server = external ? undefined : await serve(new Engine(), { port: 0 });
  try {
    const ds = new DataSource({ nodes: [external ?? server!.url] });
    const jdbc = new JdbcTemplate(ds);
    await jdbc.execute("DELETE /e2e_users?ignore_unavailable=true").catch(() => {});
    await jdbc.execute(
      'PUT /e2e_users {"mappings": {"properties": {"user_name": {"type": "keyword"}, "age": {"type": "integer"}, "bio": {"type": "text"}}}}',
    );
    await fn(jdbc, ds);
  } finally {
    await server?.close();
  }
}

Deno.test("dbVisitor scenarios: three inserts + refresh, list, map by match, _update, delete, count", async () => {
  await withJdbc(async (jdbc) => {
    const insert =
      'POST /e2e_users/_doc/#{id} {"user_name": #{name}, "age": #{age}, "bio": #{bio}}';
    assert.equal(
      await jdbc.executeUpdate(insert, {
        id: "1",
        name: "alice",
        age: 30,
        bio: "likes search engines",
      }),
      1,
    );
    assert.equal(
      await jdbc.executeUpdate(insert, { id: "2", name: "bob", age: 25, bio: "writes drivers" }),
      1,
    );
    assert.equal(
      await jdbc.executeUpdate(insert, {
        id: "3",
        name: "carol",
        age: 41,
        bio: "search and rescue",
      }),
      1,
    );
    await jdbc.execute("POST /e2e_users/_refresh");

    const all = await jdbc.queryForList(
      'POST /e2e_users/_search {"query": {"match_all": {}}, "sort": [{"age": "asc"}]}',
    );
    assert.equal(all.length, 3);
    assert.deepEqual(all.map((r) => r._ID), ["2", "1", "3"]);
    assert.equal(all.total?.value, 3);
    assert.equal(typeof all.took, "number");

    const map = await jdbc.queryForMap(
      'POST /e2e_users/_search {"query": {"match": {"bio": #{word}}}}',
      { word: "drivers" },
    );
    assert.equal(map?._ID, "2");
    assert.equal(JSON.parse(map!._DOC as string).user_name, "bob");

    assert.equal(
      await jdbc.executeUpdate(
        'POST /e2e_users/_update/#{id}?refresh=true {"doc": {"age": #{age}}}',
        { id: "1", age: 31 },
      ),
      1,
    );
    const alice = await jdbc.queryForObject(
      'POST /e2e_users/_search {"query": {"term": {"user_name": #{n}}}}',
      { n: "alice" },
      User,
    );
    assert.ok(alice instanceof User);
    assert.deepEqual({ ...alice }, { id: "1", name: "alice", age: 31 });

    assert.equal(await jdbc.executeUpdate("DELETE /e2e_users/_doc/{?}?refresh=true", ["2"]), 1);
    assert.equal(await jdbc.queryForNumber("POST /e2e_users/_count"), 2);
    assert.equal(
      await jdbc.queryForLong('POST /e2e_users/_count {"query": {"match": {"bio": "search"}}}'),
      2n,
    );
  });
});

Deno.test("entities, RowMapper, extractor, callback, tagged template, rules, multipleExecute", async () => {
  await withJdbc(async (jdbc) => {
    const users = [
      Object.assign(new User(), { id: "a", name: "ann", age: 20 }),
      Object.assign(new User(), { id: "b", name: "ben", age: 35 }),
    ];
    for (const u of users) {
      assert.equal(
        await jdbc.executeUpdate("PUT /e2e_users/_doc/#{u.id}?refresh=true #{u}", { u }),
        1,
      );
    }
    const list = await jdbc.queryForList(
      'POST /e2e_users/_search {"query": {"match_all": {}}, "sort": [{"age": "desc"}]}',
      [],
      User,
    );
    assert.deepEqual(list.map((u) => u.name), ["ben", "ann"]);
    assert.ok(list.every((u) => u instanceof User));

    const cmd =
      'POST /e2e_users/_search {"query": {"range": {"age": {"gte": ?}}}, "sort": [{"age": "asc"}]}';
    assert.deepEqual(await jdbc.query(cmd, [18], (rs, n) => `${n}:${rs.getString("_ID")}`), [
      "0:a",
      "1:b",
    ]);
    assert.equal(await jdbc.query(cmd, [30], { extractor: (rs) => rs.rowCount }), 1);
    const seen: string[] = [];
    assert.equal(
      await jdbc.query(cmd, [0], { rowCallback: (rs) => void seen.push(rs.getString("_ID")!) }),
      2,
    );
    assert.deepEqual(seen, ["a", "b"]);

    const name = "ben";
    assert.equal(
      (await jdbc.command`POST /e2e_users/_search {"query": {"term": {"user_name": ${name}}}}`
        .queryForObject(User))?.id,
      "b",
    );
    assert.equal(
      await jdbc.command`POST /e2e_users/_count {"query": {"term": {"user_name": ${name}}}}`
        .queryForNumber(),
      1,
    );

    const search = `POST /e2e_users/_count
{"query": {"bool": {"filter": [
  @{and, {"term": {"user_name": #{name}}}},
  @{and, {"range": {"age": {"gte": #{minAge}}}}}
]}}}`;
    assert.equal(await jdbc.queryForNumber(search, {}), 2);
    assert.equal(await jdbc.queryForNumber(search, { minAge: 30 }), 1);
    assert.equal(await jdbc.queryForNumber(search, { name: "ann", minAge: 30 }), 0);
    assert.equal(
      await jdbc.queryForNumber(
        'POST /e2e_users/_count {"query": {"terms": {"_id": @{in, :ids}}}}',
        { ids: ["a", "b", "z"] },
      ),
      2,
    );

    await assert.rejects(
      jdbc.queryForObject('POST /e2e_users/_search {"query": {"match_all": {}}}'),
      IncorrectResultSizeError,
    );

    const results = await jdbc.multipleExecute(
      'PUT /e2e_users/_doc/#{id}?refresh=true {"user_name": #{id}, "age": 1}\nPOST /e2e_users/_count\nPOST /e2e_users/_search {"query": {"ids": {"values": [#{id}]}}}',
      { id: "c" },
    );
    assert.equal(results.length, 3);
    assert.equal(results[0], 1);
    assert.deepEqual(results[1], [{ COUNT: 3 }]);
    assert.equal((results[2] as Record<string, unknown>[])[0]!._ID, "c");
    assert.equal(await jdbc.execute("HEAD /e2e_users"), true);
  });
});

Deno.test("a JdbcTemplate over one connection, macros, hints and generated ids", async () => {
  await withJdbc(async (_jdbc, ds) => {
    await using conn = await ds.getConnection();
    const jdbc = new JdbcTemplate(conn).addMacro("adults", '{"range": {"age": {"gte": 18}}}');
    const insert = 'POST /e2e_users/_doc?refresh=true {"user_name": #{name}, "age": #{age}}';
    for (const [name, age] of [["kid", 9], ["ada", 36], ["max", 52]] as const) {
      assert.equal(await jdbc.executeUpdate(insert, { name, age }), 1);
    }
    assert.equal(
      await jdbc.queryForNumber('POST /e2e_users/_count {"query": @{macro, adults}}', {}),
      2,
    );
    const page = await jdbc.queryForList(
      '/*+ overwrite_find_limit=#{size} */ POST /e2e_users/_search {"query": @{macro, adults}, "sort": [{"age": "asc"}]}',
      { size: 1 },
      User,
    );
    assert.deepEqual(page.map((u) => u.name), ["ada"]);
    assert.equal(page.total?.value, 2);
    assert.match(page[0]!.id, /.+/);
  });
});
