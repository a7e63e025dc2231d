import assert from "node:assert/strict";
import { DataSource, InvalidArgumentError } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { Column, PageObject, Table } from "../template/mod.ts";
import { BaseMapper, Configuration, MapperError, SimpleMapper } from "./mod.ts";

@Table("base_books")
class Book {
  @Column({ primary: true })
  id = "";
  @Column()
  title = "";
  @Column()
  genre = "";
  @Column()
  year = 0;
}

@SimpleMapper({ entity: Book })
class BookMapper extends BaseMapper<Book> {}

function book(id: string, title: string, genre: string, year: number): Book {
  return Object.assign(new Book(), { id, title, genre, year });
}

async function books() {
  const engine = new Engine();
  const sent: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    sent.push(`${init?.method} ${url.pathname}`);
    return engine.fetch(input, init);
  };
  const session = new Configuration().newSession(
    new DataSource({ nodes: ["http://engine"], fetch }),
  );
  await session.jdbc().execute(
    'PUT /base_books {"mappings": {"properties": {"title": {"type": "keyword"}, "genre": {"type": "keyword"}, "year": {"type": "integer"}}}}',
  );
  const mapper = session.createMapper(BookMapper);
  assert.equal(
    await mapper.insert([
      book("1", "Dune", "sf", 1965),
      book("2", "Emma", "novel", 1815),
      book("3", "Solaris", "sf", 1961),
    ]),
    3,
  );
  sent.length = 0;
  return { engine, mapper, sent };
}

Deno.test("reads by key: selectById is one GET, selectByIds one _mget without the missing", async () => {
  const { engine, mapper, sent } = await books();
  const dune = await mapper.selectById("1");
  assert.ok(dune instanceof Book);
  assert.deepEqual({ ...dune }, { id: "1", title: "Dune", genre: "sf", year: 1965 });
  assert.equal(await mapper.selectById("9"), null);
  const some = await mapper.selectByIds(["3", "9", "1"]);
  assert.deepEqual(some.map((b) => b.id), ["3", "1"], "in the order asked, the missing left out");
  assert.deepEqual(await mapper.selectByIds([]), []);
  assert.deepEqual(sent.filter((s) => !s.endsWith("/_mapping")), [
    "GET /base_books/_doc/1",
    "GET /base_books/_doc/9",
    "POST /base_books/_mget",
  ]);
  engine.close();
});

Deno.test("samples: set fields become conditions; count and page follow the same rule", async () => {
  const { engine, mapper } = await books();
  assert.deepEqual((await mapper.listBySample({ genre: "sf" })).map((b) => b.id).sort(), [
    "1",
    "3",
  ]);
  assert.equal(await mapper.countBySample({ genre: "sf" }), 2);
  assert.equal(await mapper.countBySample({}), 3, "an empty sample matches all");
  const page = new PageObject(0, 1);
  const first = await mapper.pageBySample({ genre: "sf" }, page, { year: "asc" });
  assert.deepEqual(first.data.map((b) => b.title), ["Solaris"]);
  assert.equal(page.getTotalCount(), 2);
  assert.equal(await mapper.countAll(), 3);
  assert.deepEqual((await mapper.query().eq("genre", "novel").queryForList()).map((b) => b.id), [
    "2",
  ]);
  engine.close();
});

Deno.test("writes by key count what changed: update, updateFields, replace, upsert, delete", async () => {
  const { engine, mapper } = await books();
  assert.equal(await mapper.update(Object.assign(new Book(), { id: "1", year: 1966 })), 1);
  assert.deepEqual({ ...(await mapper.selectById("1")) }, {
    id: "1",
    title: "Dune",
    genre: "sf",
    year: 1966,
  });
  assert.equal(await mapper.updateFields(Object.assign(new Book(), { id: "1" }), ["genre"]), 1);
  assert.equal((await mapper.selectById("1"))?.genre, "");
  assert.equal(await mapper.replace(book("2", "Emma", "classic", 1815)), 1);
  assert.equal((await mapper.selectById("2"))?.genre, "classic");
  assert.equal(await mapper.upsert(book("4", "Ubik", "sf", 1969)), 1);
  const generated = book("", "Kindred", "sf", 1979);
  assert.equal(await mapper.upsert(generated), 1);
  assert.notEqual(generated.id, "", "an upsert without a key inserts and takes the generated key");
  assert.equal(await mapper.countAll(), 5);
  assert.equal(await mapper.delete(book("4", "", "", 0)), 1);
  assert.equal(await mapper.deleteById("4"), 0);
  assert.equal(await mapper.deleteByIds(["1", "2", "nope"]), 2);
  assert.equal(await mapper.countAll(), 2);
  assert.equal(await mapper.update().eq("genre", "sf").updateTo("year", 2000).doUpdate(), 2);
  assert.equal(await mapper.delete().eq("year", 2000).doDelete(), 2);
  assert.equal(await mapper.countAll(), 0);
  engine.close();
});

Deno.test("errors name the mapper and method; a bad key is refused before any request", async () => {
  const { engine, mapper, sent } = await books();
  await assert.rejects(mapper.selectById(null as never), (e: unknown) => {
    assert.ok(e instanceof InvalidArgumentError || e instanceof TypeError);
    assert.match((e as Error).message, /^BookMapper\.selectById: argument "id" is null/);
    return true;
  });
  await assert.rejects(mapper.deleteById(""), /BookMapper\.deleteById: .*argument "id" is empty/);
  await assert.rejects(
    mapper.update(new Book()),
    /BookMapper\.update: the Book's key field id is empty/,
  );
  assert.deepEqual(sent, []);
  const unbound = new BookMapper();
  await assert.rejects(async () => await unbound.countAll(), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(e.message, /countAll/);
    return true;
  });
  engine.close();
});
