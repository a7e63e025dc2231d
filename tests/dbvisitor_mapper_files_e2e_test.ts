// dbVisitor's mapper-file habits (issue 24), end to end on the behaviour suite's backend (the
// embedded engine over loopback HTTP, or the cluster of `ES_URL`): positional parameters of
// @RefMapper methods, the key field read back the same on every path.
import assert from "node:assert/strict";
import { BaseMapper, MapperError, PageObject, RefMapper } from "../mapper/mod.ts";
import { Column, Table } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";

const USER_INFO = suiteIndex("user_info");

@Table(USER_INFO)
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
  <insert id="saveUser" useGeneratedKeys="true">POST /${USER_INFO}/_doc?refresh=true #{info}</insert>
  <select id="listByUserName" resultMap="userInfo5ResultMap">
    POST /${USER_INFO}/_search {"query": {"term": {"name": #{userName}}}, "sort": [{"name": "asc"}]}
  </select>
  <select id="loadByName" resultType="UserInfo">
    POST /${USER_INFO}/_search {"query": {"term": {"name": #{userName}}}}
  </select>
</mapper>`;

const MAPPING =
  `PUT /${USER_INFO} {"mappings": {"properties": {"uid": {"type": "keyword"}, "name": {"type": "keyword"}}}}`;

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

async function fixture(t: BackendScope) {
  return await mapperFixture(t, { types: { UserInfo, UserInfo5 } }, [MAPPING], (config) => {
    config.addMapper(parseMapperFile(FILE));
  });
}

backendTest(
  "8. positional parameters of mapper-file methods: @RefMapper(file, { params })",
  async (t) => {
    const f = await fixture(t);
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
  },
);

backendTest(
  "11. the key field is the generated _id on every path, result maps included",
  async (t) => {
    const f = await fixture(t);
    const users = f.session.createMapper(UserInfoMapper);
    await users.saveUser({ info: { uid: "in-source", name: "ann" } });
    const [doc] = await f.session.jdbc().queryForList(`POST /${USER_INFO}/_search`);
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
  },
);

backendTest(
  '9. @RefMapper("mappers/user.xml") loads from the configuration\'s base; a missing file names the URL and the base',
  async (t) => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.mkdir(`${dir}/mappers`);
      await Deno.writeTextFile(`${dir}/mappers/user.xml`, FILE);
      @RefMapper("mappers/user.xml", { entity: UserInfo, params: { loadByName: ["userName"] } })
      class ByPath extends BaseMapper<UserInfo> {
        declare saveUser: (args: { info: object }) => Promise<number>;
        declare loadByName: (userName: string) => Promise<UserInfo[]>;
      }
      const types = { UserInfo, UserInfo5 };
      // a directory path
      const a = await mapperFixture(t, { types, mapperFiles: { base: dir } }, [MAPPING]);
      const users = a.session.createMapper(ByPath);
      assert.ok(users instanceof ByPath);
      assert.equal(await users.saveUser({ info: { uid: "x", name: "ann" } }), 1);
      assert.equal((await users.loadByName("ann")).length, 1);
      assert.equal(await users.countAll(), 1, "BaseMapper methods work too");
      assert.ok(a.config.hasStatement("users.saveUser"), "the file is registered once loaded");
      const again = a.config.newSession(a.ds).createMapper(ByPath);
      assert.equal((await again.loadByName("ann")).length, 1);

      // import.meta.url of a module in that directory, read through a loader
      const read: string[] = [];
      // (the index exists already: b writes to the one a made)
      const b = await mapperFixture(t, {
        types,
        mapperFiles: {
          base: new URL("./main.ts", `file://${dir}/`),
          loader: (url) => {
            read.push(url.pathname);
            return Deno.readTextFile(url);
          },
        },
      });
      assert.equal(await b.session.createMapper(ByPath).saveUser({ info: { name: "bo" } }), 1);
      assert.deepEqual(read, [`${dir}/mappers/user.xml`]);
      // loadMapper resolves against the same base (and finds the file registered already)
      await assert.rejects(
        b.config.loadMapper("mappers/user.xml"),
        /namespace "users" is already registered/,
      );
      assert.equal(read.length, 2);

      @RefMapper("mappers/missing.xml")
      class Missing {
        declare all: () => Promise<unknown[]>;
      }
      const c = await mapperFixture(t, { mapperFiles: { base: dir } });
      await assert.rejects(c.session.createMapper(Missing).all(), (e: unknown) => {
        assert.ok(e instanceof Error && e.name === "MapperLoadError", String(e));
        assert.match(e.message, /@RefMapper\("mappers\/missing\.xml"\) of Missing: cannot load/);
        assert.ok(e.message.includes(`file://${dir}/mappers/missing.xml`), e.message);
        assert.ok(e.message.includes(`resolved against the base file://${dir}/`), e.message);
        return true;
      });
      // without a base: the error says how to give one
      const d = await mapperFixture(t);
      assert.throws(
        () => d.session.createMapper(Missing),
        /names no registered mapper file.*mapperFiles: \{ base: import\.meta\.url \}/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
