// Every JdbcTemplate method over HTTP, including dbVisitor's JdbcTemplate scenarios. Part of the
// behaviour suite: the embedded engine, or the cluster named by ES_URL (tests/README.md).
import assert from "node:assert/strict";
import { type DataSource, IncorrectResultSizeError } from "../driver/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { Column, JdbcTemplate, listMeta, Table } from "../template/mod.ts";

const USERS = suiteIndex("e2e_users");

@Table(USERS)
class User {
  @Column({ primary: true })
  id = "";
  @Column("user_name")
  name = "";
  @Column({ type: "number" })
  age = 0;
}

async function withJdbc(
  t: BackendScope,
  fn: (jdbc: JdbcTemplate, ds: DataSource) => Promise<void>,
): Promise<void> {
  const ds = t.dataSource();
  const jdbc = new JdbcTemplate(ds);
  await jdbc.execute(
    `PUT /${USERS} {"mappings": {"properties": {"user_name": {"type": "keyword"}, "age": {"type": "integer"}, "bio": {"type": "text"}}}}`,
  );
  await fn(jdbc, ds);
}

backendTest(
  "dbVisitor scenarios: three inserts + refresh, list, map by match, _update, delete, count",
  async (t) => {
    await withJdbc(t, async (jdbc) => {
      const insert =
        `POST /${USERS}/_doc/#{id} {"user_name": #{name}, "age": #{age}, "bio": #{bio}}`;
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
      await jdbc.execute(`POST /${USERS}/_refresh`);

      const all = await jdbc.queryForList(
        `POST /${USERS}/_search {"query": {"match_all": {}}, "sort": [{"age": "asc"}]}`,
      );
      assert.equal(all.length, 3);
      assert.deepEqual(all.map((r) => r._ID), ["2", "1", "3"]);
      assert.equal(listMeta(all).total?.value, 3);
      assert.equal(typeof listMeta(all).took, "number");

      const map = await jdbc.queryForMap(
        `POST /${USERS}/_search {"query": {"match": {"bio": #{word}}}}`,
        { word: "drivers" },
      );
      assert.equal(map?._ID, "2");
      assert.equal(JSON.parse(map!._DOC as string).user_name, "bob");

      assert.equal(
        await jdbc.executeUpdate(
          `POST /${USERS}/_update/#{id}?refresh=true {"doc": {"age": #{age}}}`,
          { id: "1", age: 31 },
        ),
        1,
      );
      const alice = await jdbc.queryForObject(
        `POST /${USERS}/_search {"query": {"term": {"user_name": #{n}}}}`,
        { n: "alice" },
        User,
      );
      assert.ok(alice instanceof User);
      assert.deepEqual({ ...alice }, { id: "1", name: "alice", age: 31 });

      assert.equal(await jdbc.executeUpdate(`DELETE /${USERS}/_doc/{?}?refresh=true`, ["2"]), 1);
      assert.equal(await jdbc.queryForNumber(`POST /${USERS}/_count`), 2);
      assert.equal(
        await jdbc.queryForLong(`POST /${USERS}/_count {"query": {"match": {"bio": "search"}}}`),
        2n,
      );
    });
  },
);

backendTest(
  "entities, RowMapper, extractor, callback, tagged template, rules, multipleExecute",
  async (t) => {
    await withJdbc(t, async (jdbc) => {
      const users = [
        Object.assign(new User(), { id: "a", name: "ann", age: 20 }),
        Object.assign(new User(), { id: "b", name: "ben", age: 35 }),
      ];
      for (const u of users) {
        assert.equal(
          await jdbc.executeUpdate(`PUT /${USERS}/_doc/#{u.id}?refresh=true #{u}`, { u }),
          1,
        );
      }
      const list = await jdbc.queryForList(
        `POST /${USERS}/_search {"query": {"match_all": {}}, "sort": [{"age": "desc"}]}`,
        [],
        User,
      );
      assert.deepEqual(list.map((u) => u.name), ["ben", "ann"]);
      assert.ok(list.every((u) => u instanceof User));

      const cmd =
        `POST /${USERS}/_search {"query": {"range": {"age": {"gte": ?}}}, "sort": [{"age": "asc"}]}`;
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
        (await jdbc.command`POST /${USERS}/_search {"query": {"term": {"user_name": ${name}}}}`
          .queryForObject(User))?.id,
        "b",
      );
      assert.equal(
        await jdbc.command`POST /${USERS}/_count {"query": {"term": {"user_name": ${name}}}}`
          .queryForNumber(),
        1,
      );

      const search = `POST /${USERS}/_count
{"query": {"bool": {"filter": [
  @{and, {"term": {"user_name": #{name}}}},
  @{and, {"range": {"age": {"gte": #{minAge}}}}}
]}}}`;
      assert.equal(await jdbc.queryForNumber(search, {}), 2);
      assert.equal(await jdbc.queryForNumber(search, { minAge: 30 }), 1);
      assert.equal(await jdbc.queryForNumber(search, { name: "ann", minAge: 30 }), 0);
      assert.equal(
        await jdbc.queryForNumber(
          `POST /${USERS}/_count {"query": {"terms": {"_id": @{in, :ids}}}}`,
          { ids: ["a", "b", "z"] },
        ),
        2,
      );

      await assert.rejects(
        jdbc.queryForObject(`POST /${USERS}/_search {"query": {"match_all": {}}}`),
        IncorrectResultSizeError,
      );

      const results = await jdbc.multipleExecute(
        `PUT /${USERS}/_doc/#{id}?refresh=true {"user_name": #{id}, "age": 1}\nPOST /${USERS}/_count\nPOST /${USERS}/_search {"query": {"ids": {"values": [#{id}]}}}`,
        { id: "c" },
      );
      assert.equal(results.length, 3);
      assert.equal(results[0], 1);
      assert.deepEqual(results[1], [{ COUNT: 3 }]);
      assert.equal((results[2] as Record<string, unknown>[])[0]!._ID, "c");
      assert.equal(await jdbc.execute(`HEAD /${USERS}`), true);
    });
  },
);

backendTest("a JdbcTemplate over one connection, macros, hints and generated ids", async (t) => {
  await withJdbc(t, async (_jdbc, ds) => {
    await using conn = await ds.getConnection();
    const jdbc = new JdbcTemplate(conn).addMacro("adults", '{"range": {"age": {"gte": 18}}}');
    const insert = `POST /${USERS}/_doc?refresh=true {"user_name": #{name}, "age": #{age}}`;
    for (const [name, age] of [["kid", 9], ["ada", 36], ["max", 52]] as const) {
      assert.equal(await jdbc.executeUpdate(insert, { name, age }), 1);
    }
    assert.equal(
      await jdbc.queryForNumber(`POST /${USERS}/_count {"query": @{macro, adults}}`, {}),
      2,
    );
    const page = await jdbc.queryForList(
      `/*+ overwrite_find_limit=#{size} */ POST /${USERS}/_search {"query": @{macro, adults}, "sort": [{"age": "asc"}]}`,
      { size: 1 },
      User,
    );
    assert.deepEqual(page.map((u) => u.name), ["ada"]);
    assert.equal(listMeta(page).total?.value, 2);
    assert.match(page[0]!.id, /.+/);
  });
});
