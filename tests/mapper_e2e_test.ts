// Annotation mappers, defineMapper, statements by id, result shapes and paging, end to end on every
// backend of the behaviour suite (tests/README.md), through a fetch that records requests.
import assert from "node:assert/strict";
import {
  BindError,
  CommandSyntaxError,
  IncorrectResultSizeError,
  ResponseError,
  UnsupportedFeatureError,
} from "../driver/mod.ts";
import {
  BaseMapper,
  bound,
  Call,
  defineMapper,
  Delete,
  Execute,
  Insert,
  MapperError,
  PageObject,
  type PageResult,
  Query,
  SimpleMapper,
  Update,
} from "../mapper/mod.ts";
import { Column, listMeta, Table } from "../template/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";

const PEOPLE = suiteIndex("people");
const OTHER = suiteIndex("other");
const NOPE = suiteIndex("nope");

@Table(PEOPLE)
class Person {
  @Column({ primary: true })
  id = "";
  @Column("full_name")
  name = "";
  @Column()
  age = 0;
}

const MAPPING =
  `PUT /${PEOPLE} {"mappings": {"properties": {"full_name": {"type": "keyword"}, "age": {"type": "integer"}}}}`;

@SimpleMapper({ entity: Person })
class PersonMapper extends BaseMapper<Person> {
  @Query(`POST /${PEOPLE}/_search {"query": {"term": {"full_name": #{name}}}}`, { returns: "one" })
  byName(_args: { name: string }): Promise<Person | null> {
    return bound();
  }
  @Query(
    `POST /${PEOPLE}/_search {"query": {"range": {"age": {"gte": #{min}}}}, "sort": [{"age": "asc"}]}`,
  )
  olderThan(_args: { min: number }): Promise<Person[]> {
    return bound();
  }
  @Query(`POST /${PEOPLE}/_search {"sort": [{"full_name": "asc"}]}`, { returns: "page" })
  pageByName(_page: PageObject): Promise<PageResult<Person>> {
    return bound();
  }
  @Query(
    `POST /${PEOPLE}/_search {"query": {"range": {"age": {"lt": #{max}}}}, "sort": [{"age": "desc"}]}`,
    {
      params: ["max", "page"],
    },
  )
  youngerThan(_max: number, _page?: PageObject): Promise<Person[]> {
    return bound();
  }
  @Query(`POST /${PEOPLE}/_search {"query": {"match_all": {}}, "size": 3}`, { returns: "page" })
  fixedSize(_page: PageObject): Promise<PageResult<Person>> {
    return bound();
  }
  @Query(`POST /${PEOPLE}/_count`, { returns: "number" })
  count(): Promise<number> {
    return bound();
  }
  @Query(`POST /${PEOPLE}/_count {"query": {"term": {"full_name": #{name}}}}`, { returns: "value" })
  countNamed(_args: { name: string }): Promise<unknown> {
    return bound();
  }
  @Query(`POST /${PEOPLE}/_search {"query": {"term": {"full_name": #{name}}}}`, {
    returns: "boolean",
  })
  exists(_args: { name: string }): Promise<boolean> {
    return bound();
  }
  @Query("HEAD /${index}", { returns: "boolean" })
  indexExists(_args: { index: string }): Promise<boolean> {
    return bound();
  }
  @Query(`POST /${PEOPLE}/_search {"query": {"match_all": {}}, "sort": [{"age": "asc"}]}`, {
    entity: "map",
  })
  rows(): Promise<Record<string, unknown>[]> {
    return bound();
  }
  @Insert(`PUT /${PEOPLE}/_doc/#{p.id}?refresh=true #{p}`)
  save(_args: { p: Person }): Promise<number> {
    return bound();
  }
  @Insert(`POST /${PEOPLE}/_doc?refresh=true #{p}`, { useGeneratedKeys: true, keyProperty: "p.id" })
  saveNew(_args: { p: Omit<Person, "id"> & { id?: string } }): Promise<number> {
    return bound();
  }
  @Insert(`POST /${PEOPLE}/_doc?refresh=true {"full_name": #{name}, "age": #{age}}`, {
    useGeneratedKeys: true,
  })
  saveEntity(_person: Person): Promise<number> {
    return bound();
  }
  @Update(
    `POST /${PEOPLE}/_update_by_query?refresh=true {"query": {"term": {"full_name": #{name}}}, "script": {"source": "ctx._source.age = params.age", "params": {"age": #{age}}}}`,
  )
  setAge(_args: { name: string; age: number }): Promise<number> {
    return bound();
  }
  @Delete(
    `POST /${PEOPLE}/_delete_by_query?refresh=true {"query": {"range": {"age": {"gte": #{min}}}}}`,
    { returns: "boolean" },
  )
  removeOlder(_args: { min: number }): Promise<boolean> {
    return bound();
  }
  @Execute([`POST /${PEOPLE}/_refresh`, `POST /${PEOPLE}/_count`])
  refreshAndCount(): Promise<unknown[]> {
    return bound();
  }
  @Execute("PUT /${index}", { returns: "void" })
  createIndex(_args: { index: string }): Promise<void> {
    return bound();
  }
}

const FIVE: [string, string, number][] = [
  ["1", "ann", 31],
  ["2", "bob", 25],
  ["3", "cy", 40],
  ["4", "dee", 22],
  ["5", "eve", 35],
];

function person(id: string, name: string, age: number): Person {
  return Object.assign(new Person(), { id, name, age });
}

async function withPeople(t: BackendScope) {
  const f = await mapperFixture(t, {}, [MAPPING]);
  const mapper = f.session.createMapper(PersonMapper);
  await mapper.insert(FIVE.map(([id, name, age]) => person(id, name, age)));
  f.sent.length = 0;
  return { ...f, mapper };
}

backendTest(
  "result shapes: list, one (0 → null, >1 → error naming the site), number, value, boolean, map rows",
  async (t) => {
    const { mapper, session } = await withPeople(t);
    const older = await mapper.olderThan({ min: 31 }) as Person[];
    assert.deepEqual(listMeta(older).total, { value: 3, relation: "eq" }, "hits.total rides along");
    assert.equal(JSON.stringify(Object.keys(older)), '["0","1","2"]');
    assert.ok(older.every((p) => p instanceof Person));
    assert.deepEqual(older.map((p) => [p.id, p.name]), [["1", "ann"], ["5", "eve"], ["3", "cy"]]);
    assert.equal((await mapper.byName({ name: "bob" }))?.age, 25);
    assert.equal(await mapper.byName({ name: "nobody" }), null);
    await session.jdbc().executeUpdate(
      `PUT /${PEOPLE}/_doc/6?refresh=true {"full_name": "bob", "age": 60}`,
    );
    await assert.rejects(mapper.byName({ name: "bob" }), (e: unknown) => {
      assert.ok(e instanceof IncorrectResultSizeError);
      assert.equal(e.actual, 2);
      assert.match(e.message, /^PersonMapper\.byName: Incorrect result size/);
      return true;
    });
    assert.equal(await mapper.count(), 6);
    assert.equal(await mapper.countNamed({ name: "bob" }), 2);
    assert.equal(await mapper.exists({ name: "cy" }), true);
    assert.equal(await mapper.exists({ name: "zed" }), false);
    assert.equal(await mapper.indexExists({ index: `${PEOPLE}` }), true);
    assert.equal(await mapper.indexExists({ index: `${NOPE}` }), false);
    const rows = await mapper.rows();
    assert.deepEqual(Object.keys(rows[0]!).sort(), ["_DOC", "_ID"]);
    assert.equal(rows[0]!._ID, "4");
  },
);

backendTest(
  "writes: insert returns 1, generated keys go to keyProperty, update/delete counts are real",
  { requires: ["by-query"] },
  async (t) => {
    const { mapper } = await withPeople(t);
    assert.equal(await mapper.save({ p: person("7", "gus", 50) }), 1);
    const fresh = person("", "hal", 51);
    assert.equal(await mapper.saveNew({ p: fresh }), 1);
    assert.equal(typeof fresh.id, "string");
    assert.ok(fresh.id!.length > 0);
    assert.equal((await mapper.selectById(fresh.id!))?.name, "hal");
    const ivy = person("", "ivy", 7);
    assert.equal(await mapper.saveEntity(ivy), 1);
    assert.ok(ivy.id !== "", "an entity argument takes its generated key without keyProperty");
    assert.equal((await mapper.selectById(ivy.id))?.name, "ivy");
    assert.equal(await mapper.setAge({ name: "gus", age: 52 }), 1);
    assert.equal(await mapper.setAge({ name: "nobody", age: 1 }), 0);
    assert.equal((await mapper.byName({ name: "gus" }))?.age, 52);
    assert.equal(await mapper.removeOlder({ min: 50 }), true);
    assert.equal(await mapper.removeOlder({ min: 50 }), false);
    assert.equal(await mapper.count(), 6);
    const results = await mapper.refreshAndCount();
    assert.equal(results.length, 2);
    assert.deepEqual(results[1], [{ COUNT: 6 }]);
    assert.equal(await mapper.createIndex({ index: `${OTHER}` }), undefined);
    assert.equal(await mapper.indexExists({ index: `${OTHER}` }), true);
  },
);

backendTest(
  "paging: five documents in pages of 2, 2, 1; from/size/track_total_hits in the body; one request per page",
  async (t) => {
    const { mapper, sent } = await withPeople(t);
    const page = new PageObject(0, 2);
    const sizes: number[] = [];
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      sent.length = 0;
      const result = await mapper.pageByName(page);
      assert.equal(sent.length, 1, "one request: rows and total together");
      const body = JSON.parse(sent[0]!.body);
      assert.equal(body.from, i * 2);
      assert.equal(body.size, 2);
      assert.equal(body.track_total_hits, true);
      assert.equal(result.totalCount, 5);
      assert.equal(result.getTotalPage(), 3);
      assert.equal(result.getCurrentPage(), i);
      sizes.push(result.data.length);
      names.push(...result.data.map((p) => p.name));
      page.nextPage();
    }
    assert.deepEqual(sizes, [2, 2, 1]);
    assert.deepEqual(names, ["ann", "bob", "cy", "dee", "eve"]);
    assert.equal(page.totalCount, 5, "the caller's page learns the total");

    const past = await mapper.pageByName(new PageObject(9, 2));
    assert.deepEqual(past.data, []);
    assert.equal(past.totalCount, 5);

    const off = await mapper.pageByName(new PageObject(0, 0));
    assert.equal(off.data.length, 5, "page size 0 = paging off");
    assert.equal(off.totalCount, 5);

    const oneBased = PageObject.of(2, 2, 1);
    const second = await mapper.pageByName(oneBased);
    assert.deepEqual(second.data.map((p) => p.name), ["cy", "dee"]);
  },
);

backendTest(
  "paging: a Page as a positional parameter, as a property of the argument object, or absent",
  async (t) => {
    const { mapper, sent } = await withPeople(t);
    const page = new PageObject(1, 2);
    const ages = (await mapper.youngerThan(40, page)).map((p) => p.age);
    assert.deepEqual(ages, [25, 22]);
    assert.equal(page.totalCount, 4);
    assert.equal((await mapper.youngerThan(40)).length, 4);
    const asProperty = new PageObject(0, 1);
    const list = await mapper.olderThan({ min: 0, page: asProperty } as { min: number });
    assert.equal(list.length, 1);
    assert.equal(asProperty.totalCount, 5);
    assert.match(sent.at(-1)!.body, /"from":0,"size":1/);
  },
);

backendTest(
  "paging: text that fixes size is refused, naming mapper, method and statement; no request is sent",
  async (t) => {
    const { mapper, sent } = await withPeople(t);
    await assert.rejects(mapper.fixedSize(new PageObject(0, 2)), (e: unknown) => {
      assert.ok(e instanceof MapperError);
      assert.equal(e.mapper, "PersonMapper");
      assert.equal(e.method, "fixedSize");
      assert.equal(e.statementId, "PersonMapper.fixedSize");
      assert.match(e.message, /fixes "size" \(3\)/);
      return true;
    });
    assert.equal(sent.length, 0);
    await assert.rejects(
      mapper.pageByName(undefined as unknown as PageObject),
      /returns "page" needs a Page argument/,
    );
  },
);

backendTest(
  "errors: the server's reason and a missing argument keep their class and gain the site",
  async (t) => {
    const f = await mapperFixture(t);
    const mapper = f.session.createMapper(PersonMapper);
    await assert.rejects(mapper.olderThan({ min: 1 }), (e: unknown) => {
      assert.ok(e instanceof ResponseError);
      assert.equal(e.status, 404);
      assert.match(e.message, /^PersonMapper\.olderThan: HTTP 404 .*no such index/);
      return true;
    });
    await assert.rejects(mapper.byName({} as { name: string }), (e: unknown) => {
      assert.ok(e instanceof BindError);
      assert.match(e.message, /^PersonMapper\.byName: Cannot bind named argument "name"/);
      return true;
    });
    await assert.rejects(
      (mapper.youngerThan as unknown as (a: unknown, b: unknown, c: unknown) => Promise<unknown>)(
        1,
        2,
        3,
      ),
      (e: unknown) =>
        e instanceof MapperError && /got 3 arguments, but params names 2/.test(e.message),
    );
    await assert.rejects(
      (mapper.olderThan as unknown as (a: unknown) => Promise<unknown>)(5),
      (e: unknown) => e instanceof MapperError && /params: \["name"\]/.test(e.message),
    );
  },
);

backendTest(
  "createMapper: @Call is refused at creation; unmarked classes and stray instances get clear errors",
  async (t) => {
    const f = await mapperFixture(t);
    @SimpleMapper()
    class Legacy {
      @Query("POST /x/_search")
      fine(): Promise<unknown[]> {
        return bound();
      }
      @Call("{call proc()}")
      proc(): Promise<void> {
        return bound();
      }
    }
    assert.throws(() => f.session.createMapper(Legacy), (e: unknown) => {
      assert.ok(e instanceof UnsupportedFeatureError);
      assert.match(e.message, /Legacy\.proc: @Call/);
      return true;
    });
    class Plain {}
    assert.throws(() => f.session.createMapper(Plain), /Plain: is not a mapper/);
    const stray = new PersonMapper();
    await assert.rejects(stray.count(), /not created by a session/);
    await assert.rejects(stray.selectById("1"), /not created by a session/);
    class Broken {}
    defineMapper(Broken, { methods: { q: { query: 'POST /x/_search {"query": {"term": #{a' } } });
    assert.throws(() => f.session.createMapper(Broken), (e: unknown) => {
      assert.ok(e instanceof CommandSyntaxError, String(e));
      assert.match(e.message, /^Broken\.q: /);
      return true;
    }, "a malformed text fails when the mapper is created");
    class Bad {}
    defineMapper(Bad, { methods: { x: { query: "POST /x/_search", returns: "many" as "list" } } });
    assert.throws(() => f.session.createMapper(Bad), /Bad\.x: returns "many"/);
  },
);

backendTest(
  "defineMapper gives the same mapper without decorators; statements run by id",
  async (t) => {
    const f = await mapperFixture(t, {}, [MAPPING]);
    class PeopleJs extends BaseMapper<Person> {
      declare named: (args: { name: string }) => Promise<Person | null>;
      declare all: (page?: PageObject) => Promise<Person[]>;
    }
    defineMapper(PeopleJs, {
      entity: Person,
      namespace: "people",
      methods: {
        named: {
          query: `POST /${PEOPLE}/_search {"query": {"term": {"full_name": #{name}}}}`,
          returns: "one",
        },
        all: { query: [`POST /${PEOPLE}/_search`, '{"sort": [{"age": "asc"}]}'] },
        add: { insert: `PUT /${PEOPLE}/_doc/#{id}?refresh=true #{doc}`, params: ["id", "doc"] },
      },
    });
    f.config.addMapper(PeopleJs);
    assert.deepEqual(f.config.statementIds(), ["people.named", "people.all", "people.add"]);
    const people = f.session.createMapper(PeopleJs);
    await people.insert(FIVE.map(([id, name, age]) => person(id, name, age)));
    assert.equal((await people.named({ name: "eve" }))?.id, "5");
    assert.equal(
      await f.session.executeStatement("people.add", {
        id: "9",
        doc: { full_name: "ivy", age: 9 },
      }),
      1,
    );
    const rows = await f.session.queryStatement<Person>("people.all", {}, new PageObject(0, 2));
    assert.deepEqual(rows.map((p) => p.name), ["ivy", "dee"]);
    const page = await f.session.pageStatement<Person>("people.all", {}, new PageObject(2, 2));
    assert.deepEqual(page.data.map((p) => p.name), ["eve", "cy"]);
    assert.equal(page.totalCount, 6);
    await assert.rejects(f.session.executeStatement("people.nope"), (e: unknown) => {
      assert.ok(e instanceof MapperError);
      assert.match(e.message, /statement people\.nope: no statement with this id/);
      return true;
    });
    assert.throws(
      () => defineMapper(class Two {}, { methods: { x: { query: "a", update: "b" } as never } }),
      /exactly one of/,
    );
  },
);

backendTest(
  "a subclass of a mapper is a mapper: it inherits statements and adds its own",
  async (t) => {
    const f = await mapperFixture(t, {}, [MAPPING]);
    class MorePeople extends PersonMapper {
      @Query(`POST /${PEOPLE}/_search {"query": {"term": {"age": #{age}}}}`, { returns: "one" })
      aged(_args: { age: number }): Promise<Person | null> {
        return bound();
      }
    }
    const more = f.session.createMapper(MorePeople);
    await more.insert([person("1", "ann", 31), person("2", "bob", 25)]);
    assert.equal((await more.aged({ age: 25 }))?.name, "bob");
    assert.equal((await more.byName({ name: "ann" }))?.id, "1");
    assert.ok(f.config.hasStatement("MorePeople.aged"));
    assert.ok(f.config.hasStatement("MorePeople.byName"));
  },
);
