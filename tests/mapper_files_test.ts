// The mapper's side of the mapper-file seam: files registered by namespace, statements run by
// id, @RefMapper methods, result types and result maps.
import assert from "node:assert/strict";
import {
  BaseMapper,
  bound,
  defineMapper,
  MapperError,
  PageObject,
  Query,
  RefMapper,
} from "../mapper/mod.ts";
import { Column, Table } from "../template/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { mapperFixture } from "./support/mapper_fixture.ts";
import { staticMapperFile } from "./support/mapper_files.ts";

const BOOKS = suiteIndex("books");

@Table(BOOKS)
class Book {
  @Column({ primary: true })
  id = "";
  @Column()
  title = "";
  @Column("pub_year")
  year = 0;
}

class BookView {
  key = "";
  name = "";
  published = 0;
}

const booksFile = staticMapperFile("books", {
  save: { kind: "insert", text: `PUT /${BOOKS}/_doc/#{id}?refresh=true #{book}` },
  add: {
    kind: "insert",
    text: `POST /${BOOKS}/_doc?refresh=true #{book}`,
    useGeneratedKeys: true,
    keyProperty: "book.id",
  },
  byYear: {
    kind: "select",
    text:
      `POST /${BOOKS}/_search {"query": {"term": {"pub_year": #{year}}}, "sort": [{"title": "asc"}]}`,
    resultType: "Book",
  },
  all: { kind: "select", text: `POST /${BOOKS}/_search {"sort": [{"pub_year": "asc"}]}` },
  views: {
    kind: "select",
    text: `POST /${BOOKS}/_search {"sort": [{"pub_year": "asc"}]}`,
    resultMap: "view",
  },
  drop: { kind: "delete", text: `DELETE /${BOOKS}/_doc/#{id}?refresh=true` },
  count: { kind: "select", text: `POST /${BOOKS}/_count` },
}, [{
  id: "view",
  type: "BookView",
  columns: [
    { column: "_id", property: "key", id: true },
    { column: "title", property: "name", id: false },
    { column: "pub_year", property: "published", id: false },
  ],
}], "file:///mappers/books.xml");

const MAPPING =
  `PUT /${BOOKS} {"mappings": {"properties": {"title": {"type": "keyword"}, "pub_year": {"type": "integer"}}}}`;

function book(id: string, title: string, year: number): Book {
  return Object.assign(new Book(), { id, title, year });
}

async function withBooks(t: BackendScope) {
  const f = await mapperFixture(
    t,
    { types: { Book, BookView } },
    [MAPPING],
    (config) => config.addMapper(booksFile),
  );
  for (
    const [id, title, year] of [["1", "Dune", 1965], ["2", "Emma", 1815], [
      "3",
      "Ubik",
      1969,
    ]] as const
  ) {
    await f.session.executeStatement("books.save", { id, book: book(id, title, year) });
  }
  return f;
}

backendTest(
  "mapper-file statements run by id: result types, result maps, generated keys, counts",
  async (t) => {
    const { session, config } = await withBooks(t);
    assert.ok(config.hasStatement("books.byYear"));
    const byYear = await session.queryStatement<Book>("books.byYear", { year: 1965 });
    assert.ok(byYear[0] instanceof Book);
    assert.deepEqual(byYear.map((b) => [b.id, b.title]), [["1", "Dune"]]);
    const rows = await session.queryStatement<Record<string, unknown>>("books.all");
    assert.deepEqual(rows.map((r) => r._ID), ["2", "1", "3"], "no result type: row maps");
    const views = await session.queryStatement<BookView>("books.views");
    assert.ok(views[0] instanceof BookView);
    assert.deepEqual({ ...views[0] }, { key: "2", name: "Emma", published: 1815 });
    const page = await session.pageStatement<Record<string, unknown>>(
      "books.all",
      {},
      new PageObject(1, 2),
    );
    assert.equal(page.totalCount, 3);
    assert.deepEqual(page.data.map((r) => r._ID), ["3"]);
    const fresh = book("", "Solaris", 1961);
    assert.equal(await session.executeStatement("books.add", { book: fresh }), 1);
    assert.notEqual(fresh.id, "");
    assert.equal(await session.executeStatement("books.drop", { id: fresh.id }), 1);
    assert.equal(await session.executeStatement("books.drop", { id: fresh.id }), 0);
    await assert.rejects(
      session.executeStatement("books.nope"),
      /statement books\.nope: no statement/,
    );
  },
);

backendTest(
  "@RefMapper: statements become methods (by namespace or file name), annotations add to them",
  async (t) => {
    const f = await withBooks(t);
    @RefMapper("./books.xml", { entity: Book, returns: { count: "number", byYear: "one" } })
    class BookMapper extends BaseMapper<Book> {
      declare byYear: (args: { year: number }) => Promise<Book | null>;
      declare count: () => Promise<number>;
      declare views: () => Promise<BookView[]>;
      @Query(`POST /${BOOKS}/_search {"query": {"prefix": {"title": #{p}}}}`, { params: ["p"] })
      startingWith(_p: string): Promise<Book[]> {
        return bound();
      }
    }
    const books = f.session.createMapper(BookMapper);
    assert.equal((await books.byYear({ year: 1969 }))?.title, "Ubik");
    assert.equal(await books.count(), 3);
    assert.deepEqual((await books.views()).map((v) => v.name), ["Emma", "Dune", "Ubik"]);
    assert.deepEqual((await books.startingWith("U")).map((b) => b.id), ["3"]);
    assert.equal((await books.selectById("2"))?.title, "Emma");

    class ByNamespace {}
    defineMapper(ByNamespace, { ref: "books" });
    const plain = f.session.createMapper(ByNamespace) as unknown as Record<
      string,
      () => Promise<unknown[]>
    >;
    assert.equal((await plain.all!()).length, 3);

    @RefMapper("missing.xml")
    class Missing {}
    assert.throws(() => f.session.createMapper(Missing), (e: unknown) => {
      assert.ok(e instanceof MapperError);
      assert.match(
        e.message,
        /^Missing: @RefMapper\("missing\.xml"\) names no registered mapper file/,
      );
      assert.match(e.message, /known namespaces: books/);
      return true;
    });
    // @ts-expect-error a compile error in TypeScript; plain JavaScript gets the run-time refusal
    @RefMapper("books", { returns: { nope: "one" } })
    class Typo {}
    assert.throws(() => f.session.createMapper(Typo), /Typo\.nope: returns names "nope"/);
    @RefMapper("books")
    class Twice {
      @Query(`POST /${BOOKS}/_count`, { returns: "number" })
      count(): Promise<number> {
        return bound();
      }
    }
    assert.throws(() => f.session.createMapper(Twice), /is declared twice/);
  },
);

backendTest(
  "mapper files: unknown result types and result maps, and namespace clashes, are refused",
  async (t) => {
    const f = await mapperFixture(t);
    f.config.addMapper(staticMapperFile("bad", {
      q: { kind: "select", text: "POST /x/_search", resultType: "com.example.Nope" },
      m: { kind: "select", text: "POST /x/_search", resultMap: "nope" },
    }));
    await assert.rejects(
      f.session.queryStatement("bad.q"),
      /result type "com\.example\.Nope" is not registered/,
    );
    await assert.rejects(
      f.session.queryStatement("bad.m"),
      /resultMap "nope" .* is not declared in bad/,
    );
    assert.throws(
      () => f.config.addMapper(staticMapperFile("bad", {})),
      /namespace "bad" is already registered/,
    );
    assert.throws(
      () =>
        f.config.addMapper(staticMapperFile("other", {})).addMapper(staticMapperFile("other", {})),
      /already registered/,
    );
  },
);
