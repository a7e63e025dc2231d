// What a user coming from dbVisitor brings (issue 24), end to end on the behaviour suite's backend
// (the embedded engine over loopback HTTP, or the cluster of `ES_URL`): updates that never blank a
// field, refused missing keys, errors that name their mapper, @Column's dbVisitor spellings, `_id`
// as a key column, the lambda's mapping cache.
import assert from "node:assert/strict";
import { InvalidArgumentError } from "../driver/mod.ts";
import { BaseMapper, MapperError, SimpleMapper } from "../mapper/mod.ts";
import { Column, defineEntity, Table } from "../template/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";

const USERS_INDEX = suiteIndex("users");

@Table(USERS_INDEX)
class User {
  @Column({ primary: true })
  uid = "";
  @Column()
  name = "";
  @Column()
  age = 0;
  @Column()
  tags: string[] = [];
}

@SimpleMapper({ entity: User })
class ReaderMapper extends BaseMapper<User> {}
@SimpleMapper({ entity: User })
class WriterMapper extends BaseMapper<User> {}

const USERS =
  `PUT /${USERS_INDEX} {"mappings": {"properties": {"name": {"type": "keyword"}, "age": {"type": "integer"}, "tags": {"type": "keyword"}}}}`;

function user(fields: Partial<User>): User {
  return Object.assign(new User(), fields);
}

async function stored(
  t: BackendScope,
  index: string,
  id: string,
): Promise<Record<string, unknown>> {
  return (await t.call("GET", `/${index}/_doc/${encodeURIComponent(id)}`)).body._source;
}

backendTest(
  '1. update writes only what the caller set: a fresh instance\'s "", 0 and [] stay unset',
  async (t) => {
    const f = await mapperFixture(t, {}, [USERS]);
    const users = f.session.createMapper(ReaderMapper);
    await users.insert(user({ uid: "u1", name: "ann", age: 30, tags: ["a"] }));
    assert.equal(await users.update(user({ uid: "u1", age: 99 })), 1);
    assert.deepEqual(await stored(t, USERS_INDEX, "u1"), {
      uid: "u1",
      name: "ann",
      age: 99,
      tags: ["a"],
    });
    const sent = f.sent.find((s) => s.path.startsWith(`/${USERS_INDEX}/_update/u1`))!;
    assert.deepEqual(JSON.parse(sent.body).doc, { age: 99 }, "only the set field is sent");

    // the same rule as samples: the entity's initial values are not conditions there either
    assert.deepEqual((await users.listBySample(user({ age: 99 }))).map((u) => u.uid), ["u1"]);

    // a plain object says exactly what it holds: "" is written
    assert.equal(await users.update({ uid: "u1", name: "" } as User), 1);
    assert.equal((await stored(t, USERS_INDEX, "u1")).name, "");

    // explicit forms: updateFields writes the named fields at any value; replace writes all
    await users.update(user({ uid: "u1", name: "bea", tags: ["x"] }));
    assert.equal(await users.updateFields(user({ uid: "u1" }), ["name", "tags"]), 1);
    assert.deepEqual(await stored(t, USERS_INDEX, "u1"), {
      uid: "u1",
      name: "",
      age: 99,
      tags: [],
    });
    assert.equal(await users.replace(user({ uid: "u1", name: "cal" })), 1);
    assert.deepEqual(await stored(t, USERS_INDEX, "u1"), {
      uid: "u1",
      name: "cal",
      age: 0,
      tags: [],
    });

    // lambda's updateToSample follows the same rule
    assert.equal(
      await users.update().eq("uid", "u1").updateToSample(user({ age: 5 })).doUpdate(),
      1,
    );
    assert.deepEqual(await stored(t, USERS_INDEX, "u1"), {
      uid: "u1",
      name: "cal",
      age: 5,
      tags: [],
    });

    const before = f.sent.length;
    await assert.rejects(users.update(user({ uid: "u1" })), (e: unknown) => {
      assert.ok(e instanceof MapperError);
      assert.match(e.message, /sets no field besides its key.*updateFields.*replace/);
      return true;
    });
    await assert.rejects(
      users.updateFields(user({ uid: "u1" }), ["nope" as keyof User & string]),
      /field "nope" is not a field of User/,
    );
    await assert.rejects(
      users.updateFields(user({ uid: "u1" }), ["uid"]),
      /field "uid" is the key/,
    );
    assert.equal(f.sent.length, before, "refused before anything is sent");
  },
);

backendTest(
  "2. a missing key is refused before anything is sent, for every key-taking method",
  async (t) => {
    const f = await mapperFixture(t, {}, [USERS]);
    const users = f.session.createMapper(ReaderMapper);
    for (const id of ["null", "undefined"]) await users.insert(user({ uid: id, name: id }));
    f.sent.length = 0;
    const calls: [string, () => Promise<unknown>, RegExp][] = [
      ["selectById", () => users.selectById(null as never), /selectById: argument "id" is null/],
      [
        "selectById",
        () => users.selectById(undefined as never),
        /selectById: argument "id" is undefined/,
      ],
      ["selectById", () => users.selectById(""), /argument "id" is empty/],
      ["selectByIds", () => users.selectByIds(["a", null as never]), /argument "ids\[1\]" is null/],
      ["deleteById", () => users.deleteById(null as never), /deleteById: argument "id" is null/],
      ["deleteById", () => users.deleteById(undefined as never), /argument "id" is undefined/],
      ["deleteById", () => users.deleteById(Number.NaN), /argument "id" is NaN/],
      ["deleteByIds", () => users.deleteByIds([undefined as never]), /argument "ids\[0\]"/],
      ["update", () => users.update(user({ age: 1 })), /update: the User's key field uid is empty/],
      ["replace", () => users.replace(user({ name: "x" })), /replace: the User's key field uid/],
      ["delete", () => users.delete(user({ uid: null as never })), /delete: .*uid is null/],
      [
        "updateFields",
        () => users.updateFields(user({}), ["name"]),
        /updateFields: .*uid is empty/,
      ],
    ];
    for (const [method, call, message] of calls) {
      await assert.rejects(call(), (e: unknown) => {
        assert.ok(e instanceof InvalidArgumentError, `${method}: ${e}`);
        assert.equal(e.code, "INVALID_ARGUMENT");
        assert.match(e.message, new RegExp(`^ReaderMapper\\.${method}: `));
        assert.match(e.message, message);
        return true;
      });
    }
    assert.deepEqual(f.sent, [], "nothing was sent");
    assert.equal(await users.countAll(), 2, 'the documents "null" and "undefined" are still there');
  },
);

backendTest(
  "3. an error names the mapper it came from, whichever mapper used the entity first",
  async (t) => {
    const f = await mapperFixture(t, {}, [USERS]);
    const reader = f.session.createMapper(ReaderMapper);
    const writer = f.session.createMapper(WriterMapper);
    await reader.insert(user({ uid: "u1", name: "ann" }));
    await assert.rejects(writer.update(user({ age: 3 })), { message: /^WriterMapper\.update: / });
    await assert.rejects(reader.update(user({ age: 3 })), { message: /^ReaderMapper\.update: / });
    const base = f.session.createBaseMapper(User);
    await assert.rejects(base.deleteById(null as never), {
      message: /^BaseMapper<User>\.deleteById: /,
    });
  },
);

backendTest(
  "4. @Column({ value }) is dbVisitor's name option; unknown option keys are refused where the entity is defined",
  async (t) => {
    const PEOPLE = t.index("people");
    const SPELLED = t.index("spelled");
    @Table(PEOPLE)
    class Person {
      @Column({ value: "user_id", primary: true })
      id = "";
      @Column({ value: "user_name" })
      name = "";
    }
    const f = await mapperFixture(t);
    const people = f.session.createBaseMapper(Person);
    await people.insert(Object.assign(new Person(), { id: "p1", name: "ann" }));
    assert.deepEqual(await stored(t, PEOPLE, "p1"), { user_id: "p1", user_name: "ann" });
    assert.equal((await people.selectById("p1"))?.name, "ann");
    assert.deepEqual((await people.listBySample({ name: "ann" })).map((p) => p.id), ["p1"]);

    assert.throws(() => {
      class Bad {
        // deno-lint-ignore no-explicit-any
        @Column({ colum: "x" } as any)
        a = "";
      }
      return Bad;
    }, /@Column on a: unknown column option "colum"; the options are name, value, primary/);
    assert.throws(() => {
      class Both {
        @Column({ name: "a", value: "b" })
        a = "";
      }
      return Both;
    }, /name "a" and value "b" disagree/);
    class Plain {
      id = "";
    }
    assert.throws(
      () =>
        defineEntity(Plain, {
          index: "p",
          fields: { id: { primary: true, keyType: "auto" } as never },
        }),
      /defineEntity\(Plain\) field id: unknown column option "keyType"/,
    );
    assert.throws(
      () => defineEntity(Plain, { table: "p" } as never),
      /defineEntity\(Plain\): unknown option "table"; the options are index, fields, key, version/,
    );
    class Spelled {
      id = "";
      name = "";
    }
    defineEntity(Spelled, { index: SPELLED, key: "id", fields: { name: { value: "nm" } } });
    const spelled = f.session.createBaseMapper(Spelled);
    await spelled.insert(Object.assign(new Spelled(), { id: "s1", name: "x" }));
    assert.deepEqual(await stored(t, SPELLED, "s1"), { id: "s1", nm: "x" });
  },
);

backendTest(
  '5. @Column({ name: "_id", primary: true }): the key is _id, never written into _source',
  async (t) => {
    const BLOG = t.index("blog");
    @Table(BLOG)
    class Post {
      @Column({ name: "_id", primary: true })
      id = "";
      @Column()
      title = "";
    }
    const f = await mapperFixture(t, {}, [
      `PUT /${BLOG} {"mappings": {"properties": {"title": {"type": "keyword"}}}}`,
    ]);
    const posts = f.session.createBaseMapper(Post);
    const generated = Object.assign(new Post(), { title: "first" });
    assert.equal(
      await posts.insert([Object.assign(new Post(), { id: "p1", title: "hello" }), generated]),
      2,
    );
    assert.notEqual(generated.id, "");
    assert.deepEqual(await stored(t, BLOG, "p1"), { title: "hello" });
    assert.equal((await posts.selectById("p1"))?.title, "hello");
    assert.equal(await posts.update(Object.assign(new Post(), { id: "p1", title: "edited" })), 1);
    assert.equal(await posts.replace(Object.assign(new Post(), { id: "p1", title: "again" })), 1);
    assert.deepEqual(await stored(t, BLOG, "p1"), { title: "again" });
    assert.equal(await posts.upsert(Object.assign(new Post(), { id: "p2", title: "up" })), 1);
    assert.deepEqual(await stored(t, BLOG, "p2"), { title: "up" });
    const found = await posts.listBySample({ id: "p2" });
    assert.deepEqual(found.map((p) => [p.id, p.title]), [["p2", "up"]]);
    assert.deepEqual(
      (await posts.query().eq("id", "p1").queryForList()).map((p) => p.title),
      ["again"],
    );
    assert.equal(await posts.deleteById("p1"), 1);
    assert.equal(await posts.countAll(), 2);
  },
);

backendTest(
  "12. lambda's mapping cache is per data source, bounded, invalidated by mapping changes sent through it",
  async (t) => {
    const CITY = t.index("cities");
    const TOWN = t.index("towns");
    @Table(CITY)
    class City {
      @Column({ primary: true })
      id = "";
      @Column()
      name = "";
    }
    const CITIES =
      `PUT /${CITY} {"mappings": {"properties": {"name": {"type": "text", "fields": {"raw": {"type": "keyword"}}}}}}`;
    const f = await mapperFixture(t, {}, [CITIES]);
    await f.session.createBaseMapper(City).insert(
      Object.assign(new City(), { id: "c1", name: "Oslo" }),
    );
    const mappingReads = () =>
      f.sent.filter((s) => s.method === "GET" && s.path === `/${CITY}/_mapping`).length;
    f.sent.length = 0;
    for (let request = 0; request < 3; request++) {
      const session = f.config.newSession(f.ds); // a session per request
      const found = await session.createBaseMapper(City).listBySample({ name: "Oslo" });
      assert.deepEqual(found.map((c) => c.id), ["c1"]);
    }
    assert.equal(mappingReads(), 1, "one mapping read for three sessions");

    // toCommand() shows the field really sent once the mapping is known
    const q = f.config.newSession(f.ds).lambda().query(City).eq("name", "Oslo");
    assert.match(q.toCommand().text, /"name\.raw"/);
    const sentSearch = f.sent.filter((s) => s.path.startsWith(`/${CITY}/_search`)).at(-1)!;
    assert.match(sentSearch.body, /"name\.raw"/);

    // a mapping change sent through the data source invalidates it
    await f.session.jdbc().execute(
      `PUT /${CITY}/_mapping {"properties": {"name": {"type": "text", "fields": {"exact": {"type": "keyword"}}}}}`,
    );
    assert.doesNotMatch(q.toCommand().text, /"name\.raw"/, "stale entry not shown");
    await f.config.newSession(f.ds).createBaseMapper(City).countBySample({ name: "Oslo" });
    assert.equal(mappingReads(), 2);

    // per template when asked, and bounded
    // (each fixture is a data source of its own, over the same backend and index)
    const own = await mapperFixture(t, { mappingCache: "template" });
    for (let i = 0; i < 2; i++) {
      await own.config.newSession(own.ds).createBaseMapper(City).countBySample({ name: "x" });
    }
    assert.equal(own.sent.filter((s) => s.path === `/${CITY}/_mapping`).length, 2);
    const small = await mapperFixture(t, { maxCachedMappings: 1 }, [
      CITIES.replace(`/${CITY}`, `/${TOWN}`),
    ]);
    const lambda = small.session.lambda();
    for (const index of [CITY, TOWN, CITY]) {
      await lambda.query(index).eq("name", "x").queryForCount();
    }
    assert.equal(small.sent.filter((s) => s.path.endsWith("/_mapping")).length, 3, "bounded to 1");
  },
);
