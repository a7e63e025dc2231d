// dbVisitor's mapper-file habits (issue 24), end to end on the embedded engine over loopback HTTP:
// positional parameters of @RefMapper methods, the key field read back the same on every path.
import assert from "node:assert/strict";
import { BaseMapper, MapperError, PageObject, RefMapper } from "../mapper/mod.ts";
import { Column, Table } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { httpMapperFixture } from "./support/http_mapper_fixture.ts";

@Table("user_info")
class UserInfo {
  @Column({ primary: true })
  uid = "";
  @Column()
  name = "";
}

class UserInfo5 {
  userId = "";
  userName = "";
}

const FILE = `<mapper namespace="users">
  <resultMap id="userInfo5ResultMap" type="UserInfo5">
    <id column="uid" property="userId"/>
    <result column="name" property="userName"/>
  </resultMap>
  <insert id="saveUser" useGeneratedKeys="true">POST /user_info/_doc?refresh=true #{info}</insert>
  <select id="listByUserName" resultMap="userInfo5ResultMap">
    POST /user_info/_search {"query": {"term": {"name": #{userName}}}, "sort": [{"name": "asc"}]}
  </select>
  <select id="loadByName" resultType="UserInfo">
    POST /user_info/_search {"query": {"term": {"name": #{userName}}}}
  </select>
</mapper>`;

const MAPPING =
  'PUT /user_info {"mappings": {"properties": {"uid": {"type": "keyword"}, "name": {"type": "keyword"}}}}';

@RefMapper("users", {
  entity: UserInfo,
  params: { listByUserName: ["userName"], loadByName: ["userName"] },
})
class UserInfoMapper extends BaseMapper<UserInfo> {
  declare saveUser: (args: { info: object }) => Promise<number>;
  declare listByUserName: (userName: string, page?: PageObject) => Promise<UserInfo5[]>;
  declare loadByName: (userName: string) => Promise<UserInfo[]>;
}

@RefMapper("users")
class Unnamed {
  declare listByUserName: (userName: string, page?: PageObject) => Promise<UserInfo5[]>;
}

async function fixture() {
  return await httpMapperFixture({ types: { UserInfo, UserInfo5 } }, [MAPPING], (config) => {
    config.addMapper(parseMapperFile(FILE));
  });
}

Deno.test("8. positional parameters of mapper-file methods: @RefMapper(file, { params })", async () => {
  await using f = await fixture();
  const users = f.session.createMapper(UserInfoMapper);
  for (const name of ["ann", "ann", "bob"]) {
    assert.equal(await users.saveUser({ info: { uid: `stored-${name}`, name } }), 1);
  }
  const page = new PageObject(0, 1);
  const first = await users.listByUserName("ann", page);
  assert.equal(first.length, 1);
  assert.equal(page.totalCount, 2);
  assert.equal((await users.listByUserName("bob")).length, 1);

  const unnamed = f.session.createMapper(Unnamed);
  await assert.rejects(unnamed.listByUserName("ann", page), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(
      e.message,
      /Unnamed\.listByUserName.*name them in the mapper class: @RefMapper\(file, \{ params: \{ listByUserName: \["name"\] \} \}\)/,
    );
    return true;
  });
  assert.throws(() => {
    @RefMapper("users", { params: { nope: ["x"] } })
    class Wrong {}
    f.session.createMapper(Wrong);
  }, /params names "nope", but users has no statement with that id/);
});

Deno.test("11. the key field is the generated _id on every path, result maps included", async () => {
  await using f = await fixture();
  const users = f.session.createMapper(UserInfoMapper);
  await users.saveUser({ info: { uid: "in-source", name: "ann" } });
  const [doc] = await f.session.jdbc().queryForList("POST /user_info/_search");
  const id = String(doc!._ID);
  assert.notEqual(id, "in-source");

  const viaResultMap = await users.listByUserName("ann");
  assert.deepEqual(viaResultMap.map((u) => [u.userId, u.userName]), [[id, "ann"]]);
  assert.equal((await users.loadByName("ann"))[0]!.uid, id);
  assert.equal((await users.selectById(id))!.uid, id);
  assert.equal((await users.listBySample({ name: "ann" }))[0]!.uid, id);
  assert.equal((await users.query().eq("name", "ann").queryForList())[0]!.uid, id);
  const streamed: string[] = [];
  for await (const u of f.session.lambda().query(UserInfo).eq("name", "ann").stream()) {
    streamed.push(u.uid);
  }
  assert.deepEqual(streamed, [id]);
});
