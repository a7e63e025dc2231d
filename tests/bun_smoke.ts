// A plain script (no Deno APIs) that runs the library on Bun (or Deno): first the driver through a
// recording fake fetch, then JdbcTemplate with an entity class (TC39 decorators) against the
// embedded engine in-process. `npx -y bun run tests/bun_smoke.ts` prints "bun smoke ok".
import assert from "node:assert/strict";
import { DataSource, RETURN_GENERATED_KEYS } from "../driver/mod.ts";
import { Column, JdbcTemplate, Table } from "../template/mod.ts";
import { Engine } from "../engine/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";
import {
  BaseMapper,
  bound,
  Configuration,
  PageObject,
  type PageResult,
  Query,
  SimpleMapper,
} from "../mapper/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";

const seen: string[] = [];
const fetch = (url: string, init: RequestInit): Promise<Response> => {
  seen.push(`${init.method} ${url}`);
  if (url.endsWith("/_search")) {
    return Promise.resolve(Response.json({
      took: 1,
      hits: {
        total: { value: 1, relation: "eq" },
        hits: [{ _id: "1", _source: { name: "alice" } }],
      },
    }));
  }
  return Promise.resolve(
    Response.json({ _index: "users", _id: "1", result: "created" }, { status: 201 }),
  );
};

const ds = new DataSource(
  "jdbc:dbvisitor:elastic://es:9200?user=u&password=secret&indexRefresh=true",
  {
    fetch,
  },
);
assert.doesNotMatch(String(ds) + JSON.stringify(ds), /secret/);
const conn = await ds.getConnection();
const insert = conn.prepareStatement('PUT /users/_doc/{?} {"name": ?}', RETURN_GENERATED_KEYS);
insert.setArgs(["1", "alice"]);
assert.equal(await insert.executeUpdate(), 1);
const rs = await conn.createStatement().executeQuery(
  'GET /users/_search {"query": {"term": {"name": ?}}}',
  ["alice"],
);
assert.ok(rs.next());
assert.equal(rs.getString("_ID"), "1");
assert.deepEqual(rs.getJson("_DOC"), { name: "alice" });
assert.deepEqual(rs.total, { value: 1, relation: "eq" });
assert.deepEqual(seen, [
  "PUT http://es:9200/users/_doc/1?refresh=true",
  "POST http://es:9200/users/_search",
]);
await conn.close();

@Table("people")
class Person {
  @Column({ primary: true })
  id = "";
  @Column("full_name")
  name = "";
  @Column()
  age = 0;
}

const engine = new Engine();
const jdbc = new JdbcTemplate(
  new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch, indexRefresh: true }),
);
await jdbc.execute('PUT /people {"mappings": {"properties": {"full_name": {"type": "keyword"}}}}');
for (const [id, name, age] of [["1", "Ada", 36], ["2", "Alan", 41]] as const) {
  assert.equal(
    await jdbc.executeUpdate('PUT /people/_doc/#{id} {"full_name": #{name}, "age": #{age}}', {
      id,
      name,
      age,
    }),
    1,
  );
}
const people = await jdbc.queryForList(
  'POST /people/_search {"query": {"range": {"age": {"gt": ?}}}}',
  [40],
  Person,
);
assert.equal(people.length, 1);
assert.ok(people[0] instanceof Person);
assert.deepEqual({ ...people[0] }, { id: "2", name: "Alan", age: 41 });
assert.equal(await jdbc.queryForNumber("GET /people/_count"), 2);

// Mappers: a decorated @SimpleMapper with a paged @Query and BaseMapper methods.
@SimpleMapper({ entity: Person })
class PersonMapper extends BaseMapper<Person> {
  @Query('POST /people/_search {"sort": [{"age": "asc"}]}', { returns: "page" })
  byAge(_page: PageObject): Promise<PageResult<Person>> {
    return bound();
  }
}
const mapper = new Configuration()
  .newSession(new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch }))
  .createMapper(PersonMapper);
const page = await mapper.byAge(new PageObject(0, 1));
assert.deepEqual(page.data.map((p) => p.name), ["Ada"]);
assert.equal(page.totalCount, 2);
assert.deepEqual((await mapper.selectByIds(["2", "1"])).map((p) => p.id), ["2", "1"]);
// LambdaTemplate: a real OR, an exact eq, and a stream over a point in time.
const lambda = new LambdaTemplate(jdbc);
const either = lambda.query(Person).eq("name", "Ada").or().gt("age", 40).orderBy("age");
assert.deepEqual((await either.queryForList()).map((p) => p.id), ["1", "2"]);
let streamed = 0;
for await (const p of lambda.query(Person).stream({ pageSize: 1 })) streamed += p.age > 0 ? 1 : 0;
assert.equal(streamed, 2);

// Mapper files: a dynamic statement read by the xml room, run by id through a session.
const file = parseMapperFile(`<mapper namespace="people">
  <select id="named">POST /people/_search {"query": {"bool": {"filter": [<where>
    <if test="names != null">{"terms": {"full_name": <foreach collection="names" item="n" open="[" separator="," close="]">#{n}</foreach>}},</if>
  </where>]}}}</select>
</mapper>`);
const xmlSession = new Configuration().addMapper(file).newSession(
  new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch }),
);
const named = await xmlSession.queryStatement<Record<string, unknown>>("people.named", {
  names: ["Ada"],
});
assert.deepEqual(named.map((r) => r._ID), ["1"]);

// At scale: a BulkWriter fed by a ReadableStream, every hit streamed, an integer beyond 2^53.
const loaded = await jdbc.bulkWriter({ index: "many", flushDocs: 100, refresh: "true" })
  .write(ReadableStream.from(Array.from({ length: 500 }, (_, n) => ({ n }))));
assert.equal(loaded.successful, 500);
let rows = 0;
for await (const _ of jdbc.stream('POST /many/_search {"size": 64}')) rows++;
assert.equal(rows, 500);
await jdbc.executeUpdate('PUT /many/_doc/big?refresh=true {"id": 9007199254740993}');
class Big {
  id = 0n;
}
assert.equal((await jdbc.queryForObject("GET /many/_doc/big", [], Big))?.id, 9007199254740993n);
engine.close();
console.log("bun smoke ok");
