// Mapper files end to end: the reference's tested XML shapes (saveUser, loadUser1, deleteUser,
// listByUserName with a resultMap) read by the xml room, registered with addMapper/loadMapper,
// run by id and through @RefMapper, with dynamic tags and hostile values.
import assert from "node:assert/strict";
import { ResponseError } from "../driver/mod.ts";
import { BaseMapper, PageObject, RefMapper } from "../mapper/mod.ts";
import { Column, Table } from "../template/mod.ts";
import { MapperLoadError, parseMapperFile } from "../xml/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";

const USER_INFO = suiteIndex("user_info");

@Table(USER_INFO)
class UserInfo {
  @Column({ primary: true })
  id = "";
  @Column()
  uid = "";
  @Column()
  name = "";
  @Column()
  age = 0;
}

class UserInfo5 {
  userId = "";
  userName = "";
  docId = "";
}

const USER_MAPPER = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mapper PUBLIC "-//dbvisitor.net//DTD Mapper 1.0//EN"
  "https://www.dbvisitor.net/schema/dbvisitor-mapper.dtd">
<mapper namespace="users">
  <resultMap id="userInfo5ResultMap" type="UserInfo5">
    <id column="_id" property="docId"/>
    <result column="uid" property="userId"/>
    <result column="name" property="userName"/>
  </resultMap>
  <insert id="saveUser">POST /${USER_INFO}/_doc?refresh=true #{info}</insert>
  <select id="loadUser1" resultType="UserInfo">
    POST /${USER_INFO}/_search {"query": {"match": {"uid": #{uid}}}}
  </select>
  <delete id="deleteUser">POST /${USER_INFO}/_delete_by_query?refresh=true {"query": {"match": {"uid": #{uid}}}}</delete>
  <select id="listByUserName" resultMap="userInfo5ResultMap">
    POST /${USER_INFO}/_search { "query": { "term": { "name": #{userName} } } }
  </select>
  <select id="search" resultType="UserInfo">
    POST /${USER_INFO}/_search {"query": {"bool": {"filter": [
      <if test="name != null">{"term": {"name": #{name}}},</if>
      <if test="ages != null and ages.length > 0">
        {"terms": {"age": [<foreach collection="ages" item="a" separator=",">#{a}</foreach>]}},</if>
      {"exists": {"field": "uid"}}
    ]}}, "sort": [{"age": "asc"}]}
  </select>
</mapper>`;

const MAPPING =
  `PUT /${USER_INFO} {"mappings": {"properties": {"uid": {"type": "keyword"}, "name": {"type": "keyword"}, "age": {"type": "integer"}}}}`;

function user(uid: string, name: string, age: number): UserInfo {
  return Object.assign(new UserInfo(), { uid, name, age });
}

async function withUsers(t: BackendScope) {
  const f = await mapperFixture(t, { types: { UserInfo, UserInfo5 } }, [MAPPING]);
  f.config.addMapper(parseMapperFile(USER_MAPPER, { file: "user-mapper.xml" }));
  for (
    const [uid, name, age] of [["u1", "ann", 31], ["u2", "bob", 25], ["u3", "ann", 40]] as const
  ) {
    assert.equal(
      await f.session.executeStatement("users.saveUser", { info: user(uid, name, age) }),
      1,
    );
  }
  return f;
}

backendTest(
  "the reference's XML shapes: saveUser, loadUser1, listByUserName (resultMap), deleteUser",
  { requires: ["by-query"] },
  async (t) => {
    const { session } = await withUsers(t);
    const loaded = await session.queryStatement<UserInfo>("users.loadUser1", { uid: "u2" });
    assert.equal(loaded.length, 1);
    assert.ok(loaded[0] instanceof UserInfo);
    assert.deepEqual([loaded[0].uid, loaded[0].name, loaded[0].age], ["u2", "bob", 25]);
    assert.notEqual(loaded[0].id, "", "the key takes _ID");

    const views = await session.queryStatement<UserInfo5>("users.listByUserName", {
      userName: "ann",
    });
    assert.equal(views.length, 2);
    assert.ok(views.every((v) => v instanceof UserInfo5));
    assert.deepEqual(views.map((v) => v.userId).sort(), ["u1", "u3"]);
    assert.ok(views.every((v) => v.userName === "ann" && v.docId.length > 0));

    assert.equal(await session.executeStatement("users.deleteUser", { uid: "u1" }), 1);
    assert.equal(await session.executeStatement("users.deleteUser", { uid: "u1" }), 0);
    assert.equal((await session.queryStatement("users.loadUser1", { uid: "u1" })).length, 0);
  },
);

backendTest(
  "dynamic statements: if/foreach render per call, values stay bound, paging applies",
  async (t) => {
    const { session, sent } = await withUsers(t);
    const names = async (args: object, page?: PageObject) =>
      (await session.queryStatement<UserInfo>("users.search", args, page)).map((u) => u.uid);
    assert.deepEqual(await names({ name: null, ages: null }), ["u2", "u1", "u3"]);
    assert.deepEqual(await names({ name: "ann", ages: [] }), ["u1", "u3"]);
    assert.deepEqual(await names({ name: null, ages: [25, 40] }), ["u2", "u3"]);
    const evil = '"}}]}, "match_all": {}, "x": [{"';
    assert.deepEqual(await names({ name: evil, ages: [25] }), []);
    assert.equal(JSON.parse(sent.at(-1)!.body).query.bool.filter[0].term.name, evil);
    await assert.rejects(
      names({ name: null, ages: [evil as unknown as number] }),
      (e: unknown) => e instanceof ResponseError && e.status === 400 && e.message.includes(evil),
      "a foreach item arrives as one JSON string, which the integer field refuses",
    );
    const page = new PageObject(1, 2);
    assert.deepEqual(await names({ name: null, ages: null }, page), ["u3"]);
    assert.equal(page.totalCount, 3);
    assert.match(sent.at(-1)!.body, /"from":2,"size":2,"track_total_hits":true/);
  },
);

backendTest("@RefMapper by file name after loadMapper; load errors name the file", async (t) => {
  const f = await mapperFixture(t, { types: { UserInfo, UserInfo5 } }, [MAPPING]);
  const file = await f.config.loadMapper("mem:/mappers/user-mapper.xml", {
    loader: (url) => Promise.resolve(url.pathname.endsWith("user-mapper.xml") ? USER_MAPPER : ""),
  });
  assert.equal(file.file, "mem:/mappers/user-mapper.xml");

  @RefMapper("./user-mapper.xml", { entity: UserInfo, returns: { loadUser1: "one" } })
  class UserMapper extends BaseMapper<UserInfo> {
    declare saveUser: (args: { info: UserInfo }) => Promise<number>;
    declare loadUser1: (args: { uid: string }) => Promise<UserInfo | null>;
    declare listByUserName: (args: { userName: string }) => Promise<UserInfo5[]>;
  }
  const users = f.session.createMapper(UserMapper);
  const info = user("u9", "cy", 50);
  assert.equal(await users.saveUser({ info }), 1);
  const read = await users.loadUser1({ uid: "u9" });
  assert.equal(read?.name, "cy");
  assert.equal((await users.selectById(read!.id))?.uid, "u9", "BaseMapper methods too");
  assert.equal((await users.listByUserName({ userName: "cy" }))[0]?.userId, "u9");

  await assert.rejects(
    f.config.loadMapper("mem:/missing.xml", { loader: () => Promise.reject(new Error("ENOENT")) }),
    (e: unknown) => e instanceof MapperLoadError && /mem:\/missing\.xml/.test(e.message),
  );
  await assert.rejects(
    f.config.loadMapper("mem:/bad.xml", {
      loader: () => Promise.resolve("<mapper namespace='x'><select id='a'>"),
    }),
    /bad\.xml/,
  );
  assert.ok(!f.config.hasStatement("x.a"), "a broken file registers nothing");
});
