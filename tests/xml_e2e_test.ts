// Mapper-file statements rendered by the xml room and run with the template layer's JdbcTemplate
// on every backend of the behaviour suite (tests/README.md).
import assert from "node:assert/strict";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { type MapperFile, parseMapperFile } from "../xml/mod.ts";

const INDEX = suiteIndex("xml_e2e_users");

const USERS = parseMapperFile(
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mapper PUBLIC "-//dbvisitor.net//DTD Mapper 1.0//EN"
        "https://www.dbvisitor.net/schema/dbvisitor-mapper.dtd">
<mapper namespace="xml_e2e.users">
  <resultMap id="user" type="User">
    <id column="_ID" property="id"/>
    <result column="user_name" property="name"/>
  </resultMap>

  <sql id="index">${INDEX}</sql>

  <insert id="saveUser">POST /<include refid="index"/>/_doc/#{id}?refresh=true #{info}</insert>

  <insert id="saveAll">POST /_bulk?refresh=true
<foreach collection="users" item="u" separator="&#10;">{"index": {"_index": "<include refid="index"/>", "_id": #{u.id}}}
#{u}</foreach>
</insert>

  <select id="loadUser" resultMap="user">
    POST /<include refid="index"/>/_search {"query": {"term": {"uid": #{uid}}}}
  </select>

  <select id="search">
    POST /<include refid="index"/>/_search
    {"query": {"bool": {"filter": [<where>
      <if test="name != null">{"term": {"user_name": #{name}}},</if>
      <choose>
        <when test="minAge != null and maxAge != null">{"range": {"age": {"gte": #{minAge}, "lte": #{maxAge}}}},</when>
        <when test="minAge != null">{"range": {"age": {"gte": #{minAge}}}},</when>
      </choose>
      <if test="tags != null and not tags.isEmpty()">{"terms": {"tags": <foreach collection="tags" item="t" open="[" separator="," close="]">#{t}</foreach>}},</if>
      <if test="pattern != null"><bind name="like" value="'*' + pattern + '*'"/>{"wildcard": {"user_name": #{like}}},</if>
    </where>]}},
    "sort": [{"age": "asc"}]<trim prefix=", " suffixOverrides=","><if test="size != null">"size": #{size},</if></trim>}
  </select>

  <select id="byIds">
    POST /<include refid="index"/>/_search {"query": {"ids": {"values": <foreach collection="ids" item="id" open="[" separator=", " close="]">#{id}</foreach>}}}
  </select>

  <update id="patch">
    POST /<include refid="index"/>/_update/#{id}?refresh=true {"doc": {<set>
      <if test="name != null">"user_name": #{name},</if>
      <if test="age != null">"age": #{age},</if>
    </set>}}
  </update>

  <delete id="deleteUser">
    POST /<include refid="index"/>/_delete_by_query?refresh=true {"query": {"match": {"uid": #{uid}}}}
  </delete>

  <execute id="count">POST /<include refid="index"/>/_count</execute>
</mapper>`,
  { file: "xml_e2e_users.xml" },
);

function statement(file: MapperFile, id: string) {
  const s = file.statements.get(id);
  assert.ok(s, `no statement ${id}`);
  return s;
}

async function withJdbc(
  t: BackendScope,
  fn: (jdbc: JdbcTemplate) => Promise<void>,
): Promise<void> {
  const jdbc = new JdbcTemplate(t.dataSource());
  await jdbc.execute(
    `PUT /${INDEX} {"mappings": {"properties": {"uid": {"type": "keyword"}, "user_name": {"type": "keyword"}, "age": {"type": "integer"}, "tags": {"type": "keyword"}}}}`,
  );
  await fn(jdbc);
}

const PEOPLE = [
  { id: "1", uid: "u1", user_name: "alice", age: 30, tags: ["admin", "ops"] },
  { id: "2", uid: "u2", user_name: "bob", age: 25, tags: ["dev"] },
  { id: "3", uid: "u3", user_name: "carol", age: 41, tags: ["dev", "ops"] },
  { id: "4", uid: "u4", user_name: 'mal"}}, {"match_all": {}}, {"x": "', age: 50, tags: [] },
];

async function seed(jdbc: JdbcTemplate): Promise<void> {
  const save = statement(USERS, "saveAll").render({ users: PEOPLE });
  assert.equal(save.text.split("\n").length, 1 + 2 * PEOPLE.length);
  await jdbc.executeUpdate(save.text, save.args);
}

const names = (rows: readonly Record<string, unknown>[]) =>
  rows.map((r) => JSON.parse(r._DOC as string).user_name);

backendTest(
  "xml e2e: the reference's shapes — save, load, delete by query — through JdbcTemplate",
  {
    requires: ["by-query"],
  },
  async (t) => {
    await withJdbc(t, async (jdbc) => {
      const save = statement(USERS, "saveUser");
      assert.equal(save.dynamic, false);
      const r = save.render({ id: "9", info: { uid: "u9", user_name: "zed", age: 9 } });
      assert.equal(await jdbc.executeUpdate(r.text, r.args), 1);
      const load = statement(USERS, "loadUser").render({ uid: "u9" });
      const rows = await jdbc.queryForList(load.text, load.args);
      assert.deepEqual(names(rows), ["zed"]);
      assert.equal(USERS.resultMaps.get("user")?.columns[1]?.column, "user_name");
      const del = statement(USERS, "deleteUser").render({ uid: "u9" });
      assert.equal(await jdbc.executeUpdate(del.text, del.args), 1);
      const count = statement(USERS, "count").render({});
      assert.equal(await jdbc.queryForNumber(count.text, count.args), 0);
    });
  },
);

backendTest(
  "xml e2e: one dynamic search, many argument sets, each a valid command with the right hits",
  async (t) => {
    await withJdbc(t, async (jdbc) => {
      await seed(jdbc);
      const search = statement(USERS, "search");
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ["bob", "alice", "carol", PEOPLE[3]!.user_name]],
        [{ name: "alice" }, ["alice"]],
        [{ minAge: 30 }, ["alice", "carol", PEOPLE[3]!.user_name]],
        [{ minAge: 26, maxAge: 45 }, ["alice", "carol"]],
        [{ tags: ["ops"] }, ["alice", "carol"]],
        [{ tags: [] }, ["bob", "alice", "carol", PEOPLE[3]!.user_name]],
        [{ tags: ["dev"], minAge: 30 }, ["carol"]],
        [{ pattern: "aro" }, ["carol"]],
        [{ size: 2 }, ["bob", "alice"]],
        [{ name: PEOPLE[3]!.user_name }, [PEOPLE[3]!.user_name]],
        [
          { name: "nobody", tags: ["dev", "ops"], minAge: 1, maxAge: 99, pattern: "x", size: 10 },
          [],
        ],
      ];
      for (const [args, expected] of cases) {
        const r = search.render(args);
        assert.deepEqual(
          names(await jdbc.queryForList(r.text, r.args)),
          expected,
          JSON.stringify(args),
        );
      }
    });
  },
);

backendTest(
  "xml e2e: foreach values are bound (an id list, a value that looks like JSON)",
  async (t) => {
    await withJdbc(t, async (jdbc) => {
      await seed(jdbc);
      const r = statement(USERS, "byIds").render({ ids: ["3", "1", "../_all", '"]}}'] });
      assert.match(
        r.text,
        /\[#\{__frch_id_0\}, #\{__frch_id_1\}, #\{__frch_id_2\}, #\{__frch_id_3\}\]/,
      );
      const rows = await jdbc.queryForList(r.text, r.args);
      assert.deepEqual(names(rows).sort(), ["alice", "carol"]);
    });
  },
);

backendTest("xml e2e: <set> updates only the given fields", async (t) => {
  await withJdbc(t, async (jdbc) => {
    await seed(jdbc);
    const patch = statement(USERS, "patch");
    const r = patch.render({ id: "2", age: 26 });
    assert.equal(await jdbc.executeUpdate(r.text, r.args), 1);
    const doc = await jdbc.queryForMap(`GET /${INDEX}/_doc/{?}`, ["2"]);
    assert.deepEqual(JSON.parse(doc?._DOC as string), { ...PEOPLE[1], age: 26 });
  });
});
