// The npm package's smoke test, run by .ci/npm_smoke.sh from a temporary project that installed
// the packed tarball: `node smoke.mjs` and `bun smoke.mjs`. Plain JavaScript on purpose (what a
// Node user writes): a real round trip over HTTP against the engine served by the package
// (node:http on Node, Bun.serve on Bun), and thrown errors checked with `instanceof` against the
// classes of every subpath that exports them.
import assert from "node:assert/strict";
import * as root from "@searchvisitor/searchvisitor";
import * as driver from "@searchvisitor/searchvisitor/driver";
import { defineEntity, JdbcTemplate } from "@searchvisitor/searchvisitor/template";
import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
import {
  BaseMapper,
  Configuration,
  defineMapper,
  PageObject,
} from "@searchvisitor/searchvisitor/mapper";
import { Engine, serve } from "@searchvisitor/searchvisitor/engine";
import { parseMapperFile, XmlEntityError } from "@searchvisitor/searchvisitor/xml";

const runtime = typeof globalThis.Bun !== "undefined"
  ? `bun ${globalThis.Bun.version}`
  : `node ${process.version}`;
const engine = new Engine();
const server = await serve(engine, { port: 0 });
try {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const ds = new driver.DataSource(`${server.url}?user=smoke&password=s3cret-smoke`, {
    indexRefresh: true,
  });
  assert.doesNotMatch(String(ds) + JSON.stringify(ds), /s3cret-smoke/);

  // Driver: write and read back over HTTP.
  const conn = await ds.getConnection();
  const put = conn.prepareStatement('PUT /people/_doc/{?} {"name": ?, "age": ?}');
  for (const [id, name, age] of [["1", "Ada", 36], ["2", "Alan", 41], ["3", "Grace", 85]]) {
    put.setArgs([id, name, age]);
    assert.equal(await put.executeUpdate(), 1);
  }
  const rs = await conn.createStatement().executeQuery(
    'POST /people/_search {"query": {"range": {"age": {"gt": ?}}}, "sort": [{"age": "asc"}]}',
    [40],
  );
  assert.deepEqual(rs.toArray().map((row) => row._ID), ["2", "3"]);
  assert.equal(rs.total?.value, 2);

  // Template: named arguments and an entity defined without decorators.
  class Person {
    id = "";
    name = "";
    age = 0;
  }
  defineEntity(Person, { index: "people", key: "id" });
  const jdbc = new JdbcTemplate(ds);
  const people = await jdbc.queryForList(
    'POST /people/_search {"query": {"term": {"name.keyword": #{name}}}}',
    { name: "Grace" },
    Person,
  );
  assert.equal(people.length, 1);
  assert.ok(people[0] instanceof Person);
  assert.equal(people[0].age, 85);
  assert.equal(await jdbc.queryForNumber("GET /people/_count"), 3);
  const old = await new LambdaTemplate(ds).query(Person).gt("age", 40).orderBy("age", "desc")
    .queryForList();
  assert.deepEqual(old.map((p) => p.name), ["Grace", "Alan"]);
  const session = new Configuration().newSession(ds);
  assert.equal(await session.jdbc().queryForNumber("GET /people/_count"), 3);
  // Mapper without decorators (plain JavaScript): a paged statement and BaseMapper reads.
  class PersonMapper extends BaseMapper {}
  defineMapper(PersonMapper, {
    entity: Person,
    methods: {
      byAge: { query: 'POST /people/_search {"sort": [{"age": "asc"}]}', returns: "page" },
    },
  });
  const mapper = session.createMapper(PersonMapper);
  const firstPage = await mapper.byAge(new PageObject(0, 2));
  assert.deepEqual([firstPage.data.map((p) => p.name), firstPage.totalCount], [["Ada", "Alan"], 3]);
  assert.deepEqual((await mapper.selectByIds(["3", "1"])).map((p) => p.name), ["Grace", "Ada"]);

  // Mapper files: a dynamic statement run by id; a hostile entity refused with its typed error.
  const file = parseMapperFile(`<mapper namespace="people">
    <select id="older">POST /people/_search {"query": {"bool": {"filter": [<where>
      <if test="min != null">{"range": {"age": {"gt": #{min}}}},</if>
      <if test="names != null">{"terms": {"name.keyword": <foreach collection="names" item="n" open="[" separator="," close="]">#{n}</foreach>}},</if>
    </where>]}}, "sort": [{"age": "asc"}]}</select>
  </mapper>`);
  const xmlSession = new Configuration().addMapper(file).newSession(ds);
  const older = await xmlSession.queryStatement("people.older", {
    min: 40,
    names: ["Alan", "Ada"],
  });
  assert.deepEqual(older.map((row) => row._ID), ["2"]);
  assert.throws(() => parseMapperFile('<mapper namespace="x">&xxe;</mapper>'), XmlEntityError);

  // Errors keep their identity across subpaths.
  const missing = await conn.createStatement().executeQuery("GET /nowhere/_search").catch((e) => e);
  assert.ok(missing instanceof driver.ResponseError, String(missing));
  assert.ok(missing instanceof root.ResponseError);
  assert.ok(missing instanceof root.DataAccessError);
  assert.equal(missing.status, 404);
  const syntax = await jdbc.queryForList("GET /people/_search {").catch((e) => e);
  assert.ok(syntax instanceof driver.CommandSyntaxError, String(syntax));
  assert.ok(syntax instanceof root.CommandSyntaxError);
  assert.ok(syntax instanceof SyntaxError);
  assert.match(syntax.excerpt, /\^/);
  assert.equal(driver.DataSource, root.DataSource);

  // Every name exported by more than one subpath is the same object in each (one module per
  // source file, never a copy per entry point).
  const pkg = JSON.parse(
    await import("node:fs").then((fs) =>
      fs.readFileSync(new URL(import.meta.resolve("@searchvisitor/searchvisitor/package.json")))
    ),
  );
  const seen = new Map();
  let shared = 0;
  for (const subpath of Object.keys(pkg.exports)) {
    if (subpath === "./package.json" || subpath === "./cli/main") continue; // main runs the console
    const mod = await import(`@searchvisitor/searchvisitor${subpath.slice(1)}`);
    for (const [name, value] of Object.entries(mod)) {
      if (seen.has(name)) {
        assert.equal(value, seen.get(name).value, `${name}: ${subpath} vs ${seen.get(name).from}`);
        shared++;
      } else seen.set(name, { value, from: subpath });
    }
  }
  assert.ok(shared > 20, `only ${shared} shared names`);
  await conn.close();
  console.log(`npm smoke ok on ${runtime}: ${server.url}`);
} finally {
  await server.close();
  engine.close();
}
