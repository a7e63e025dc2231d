// Mapper files end to end through the mapper layer: a real XML file read by the xml room,
// registered with Configuration (addMapper / loadMapper), run by id with session.queryStatement /
// executeStatement / pageStatement and through @RefMapper methods, on every backend of the behaviour suite (tests/README.md).
import assert from "node:assert/strict";
import { BindError } from "../driver/mod.ts";
import { BaseMapper, PageObject, RefMapper } from "../mapper/mod.ts";
import { Column, Table } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";

const XML_PEOPLE = suiteIndex("xml_people");

@Table(XML_PEOPLE)
class Person {
  @Column({ primary: true })
  id = "";
  @Column("full_name")
  name = "";
  @Column({ type: "number" })
  age = 0;
  @Column()
  tags: string[] = [];
}

class PersonCard {
  key = "";
  label = "";
}

const PEOPLE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
<mapper namespace="people">
  <resultMap id="card" type="PersonCard">
    <id column="_id" property="key"/>
    <result column="full_name" property="label"/>
  </resultMap>

  <insert id="save">PUT /${XML_PEOPLE}/_doc/#{p.id}?refresh=true #{p}</insert>

  <insert id="saveAll">POST /_bulk?refresh=true
<foreach collection="people" item="p" separator="&#10;">{"index": {"_index": "${XML_PEOPLE}", "_id": #{p.id}}}
#{p}</foreach>
</insert>

  <select id="find" resultType="Person">
    POST /${XML_PEOPLE}/_search
    {"query": {"bool": {"filter": [<where>
      <if test="name != null">{"term": {"full_name": #{name}}},</if>
      <if test="minAge != null">{"range": {"age": {"gte": #{minAge}}}},</if>
      <if test="tags != null and tags.size() > 0">{"terms": {"tags": <foreach collection="tags" item="t" open="[" separator="," close="]">#{t}</foreach>}},</if>
    </where>]}}, "sort": [{"age": "asc"}]}
  </select>

  <select id="cards" resultMap="people.card">
    POST /${XML_PEOPLE}/_search {"sort": [{"age": "asc"}]}
  </select>

  <update id="rename">
    POST /${XML_PEOPLE}/_update/#{id}?refresh=true {"doc": {<set><if test="name != null">"full_name": #{name},</if></set>}}
  </update>

  <delete id="olderThan">
    POST /${XML_PEOPLE}/_delete_by_query?refresh=true {"query": {"range": {"age": {"gt": #{age}}}}}
  </delete>
</mapper>`;

const MAPPING =
  `PUT /${XML_PEOPLE} {"mappings": {"properties": {"full_name": {"type": "keyword"}, "age": {"type": "integer"}, "tags": {"type": "keyword"}}}}`;

function person(id: string, name: string, age: number, tags: string[]): Person {
  return Object.assign(new Person(), { id, name, age, tags });
}

const PEOPLE = [
  person("1", "Ann", 31, ["ops"]),
  person("2", "Bob", 25, ["dev"]),
  person("3", "Cy", 47, ["dev", "ops"]),
];

async function withPeople(t: BackendScope, load = false) {
  const f = await mapperFixture(t, { types: { Person, PersonCard } }, [MAPPING]);
  if (load) {
    await f.config.loadMapper("file:///mappers/people.xml", {
      loader: (url) => Promise.resolve(url.pathname === "/mappers/people.xml" ? PEOPLE_XML : ""),
    });
  } else f.config.addMapper(parseMapperFile(PEOPLE_XML, { file: "people.xml" }));
  return f;
}

backendTest(
  "xml + mapper: session.queryStatement renders the dynamic statement per call",
  async (t) => {
    const { session, config } = await withPeople(t);
    assert.ok(config.hasStatement("people.find"));
    assert.equal(await session.executeStatement("people.saveAll", { people: PEOPLE }), 3);
    const all = await session.queryStatement<Person>("people.find", {});
    assert.ok(all[0] instanceof Person);
    assert.deepEqual(all.map((p) => p.name), ["Bob", "Ann", "Cy"]);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ name: "Ann" }, ["Ann"]],
      [{ minAge: 30 }, ["Ann", "Cy"]],
      [{ tags: ["dev"] }, ["Bob", "Cy"]],
      [{ tags: [] }, ["Bob", "Ann", "Cy"]],
      [{ tags: ["ops"], minAge: 40 }, ["Cy"]],
    ];
    for (const [args, names] of cases) {
      const found = await session.queryStatement<Person>("people.find", args);
      assert.deepEqual(found.map((p) => p.name), names, JSON.stringify(args));
    }
    const page = await session.pageStatement<Person>("people.find", {}, new PageObject(1, 2));
    assert.equal(page.totalCount, 3);
    assert.deepEqual(page.data.map((p) => p.name), ["Cy"]);
    const cards = await session.queryStatement<PersonCard>("people.cards");
    assert.ok(cards[0] instanceof PersonCard);
    assert.deepEqual({ ...cards[0] }, { key: "2", label: "Bob" });
  },
);

backendTest("xml + mapper: <set> update and delete by query report real counts", {
  requires: ["by-query"],
}, async (t) => {
  const { session } = await withPeople(t);
  await session.executeStatement("people.saveAll", { people: PEOPLE });
  assert.equal(await session.executeStatement("people.rename", { id: "2", name: "Rob" }), 1);
  const [rob] = await session.queryStatement<Person>("people.find", { name: "Rob" });
  assert.equal(rob?.id, "2");
  assert.equal(await session.executeStatement("people.olderThan", { age: 30 }), 2);
  assert.deepEqual((await session.queryStatement<Person>("people.find")).map((p) => p.id), ["2"]);
});

backendTest(
  "xml + mapper: loadMapper and @RefMapper by URL; render errors keep their type",
  async (t) => {
    const { session } = await withPeople(t, true);
    @RefMapper("file:///mappers/people.xml", { entity: Person })
    class PeopleMapper extends BaseMapper<Person> {
      declare save: (args: { p: Person }) => Promise<number>;
      declare find: (
        args: { name?: string; minAge?: number; tags?: string[] },
      ) => Promise<Person[]>;
    }
    const people = session.createMapper(PeopleMapper);
    for (const p of PEOPLE) assert.equal(await people.save({ p }), 1);
    assert.deepEqual((await people.find({ minAge: 30 })).map((p) => p.name), ["Ann", "Cy"]);
    assert.equal((await people.selectById("3"))?.name, "Cy");
    await assert.rejects(
      people.find({ tags: "dev" as unknown as string[] }),
      (e: unknown) => {
        const error = e instanceof BindError ? e : (e as { cause?: unknown }).cause;
        return error instanceof BindError &&
          /statement "people\.find", .*people\.xml, line 21/.test(error.message);
      },
    );
  },
);
