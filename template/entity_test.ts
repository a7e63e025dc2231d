import assert from "node:assert/strict";
import { Column, defineEntity, getEntityMeta, isEntityClass, Table } from "./entity.ts";
import { documentMapper, mapResultSet, RowMappingError, toDocument } from "./row_mapping.ts";
import { ResultSet } from "../driver/mod.ts";

@Table("people")
class Person {
  @Column({ primary: true })
  id = "";
  @Column("full_name")
  name = "";
  @Column({ name: "born_at", type: "date" })
  born: Date | null = null;
  @Column({ name: "address.city" })
  city = "";
  @Column({ insert: false })
  score = 0;
  nickname = "";
}

Deno.test("decorators write index, key, columns, types and flags", () => {
  const meta = getEntityMeta(Person);
  assert.equal(meta.index, "people");
  assert.equal(meta.key, "id");
  assert.deepEqual(
    meta.fields.map((f) => [f.field, f.column, f.type ?? "-", f.insert]),
    [
      ["id", "id", "-", true],
      ["name", "full_name", "-", true],
      ["born", "born_at", "date", true],
      ["city", "address.city", "-", true],
      ["score", "score", "-", false],
    ],
  );
  assert.equal(isEntityClass(Person), true);
});

Deno.test("defineEntity writes the same metadata without decorators", () => {
  class P2 {
    id = "";
    name = "";
    born: Date | null = null;
  }
  defineEntity(P2, {
    index: "people",
    key: "id",
    fields: { name: "full_name", born: { name: "born_at", type: "date" } },
  });
  const meta = getEntityMeta(P2);
  assert.equal(meta.index, "people");
  assert.equal(meta.key, "id");
  const map = documentMapper(P2);
  const p = map("k", '{"full_name":"Ada","born_at":"1815-12-10T00:00:00.000Z"}');
  assert.equal(p.id, "k");
  assert.equal(p.name, "Ada");
  assert.ok(p.born instanceof Date);
});

Deno.test("rows map to entities: rename, key from _ID, dates, nested columns, auto-mapped fields", () => {
  const p = documentMapper(Person)(
    "42",
    '{"full_name":"Ada","born_at":"1815-12-10","address":{"city":"London"},"nickname":"A","extra":1}',
  );
  assert.ok(p instanceof Person);
  assert.equal(p.id, "42");
  assert.equal(p.name, "Ada");
  assert.equal(p.born?.getUTCFullYear(), 1815);
  assert.equal(p.city, "London");
  assert.equal(p.nickname, "A");
  assert.equal("extra" in p, false);
  assert.equal(p.score, 0);
});

Deno.test("classes without metadata receive every document field", () => {
  class Loose {}
  const l = documentMapper(Loose)("1", '{"a":1,"b":[2]}') as Record<string, unknown>;
  assert.deepEqual({ ...l }, { a: 1, b: [2] });
});

Deno.test("toDocument renames fields, keeps the key, honours insert/update flags", () => {
  const p = Object.assign(new Person(), { id: "1", name: "Ada", city: "London", score: 3 });
  assert.deepEqual(toDocument(p), {
    id: "1",
    full_name: "Ada",
    born_at: null,
    "address.city": "London",
    score: 3,
    nickname: "",
  });
  assert.equal("score" in toDocument(p, "insert"), false);
  const plain = { a: 1 };
  assert.equal(toDocument(plain), plain);
});

Deno.test("a row whose _DOC is not JSON gives RowMappingError with the row number", () => {
  const rs = new ResultSet(["_ID", "_DOC"], [["1", "{}"], ["2", "{oops"]]);
  assert.throws(
    () => mapResultSet(rs, Person, "POST /people/_search"),
    (e: unknown) => e instanceof RowMappingError && e.row === 1 && e.cause instanceof Error,
  );
});

Deno.test("a version field is filled from hit metadata and never written to the document", () => {
  @Table("versioned")
  class Doc {
    @Column({ primary: true })
    id = "";
    @Column()
    title = "";
    @Column({ version: true })
    version = "";
  }
  class Ext {
    id = "";
    v = 0;
  }
  defineEntity(Ext, { index: "ext", key: "id", fields: { v: { version: "external" } } });
  const meta = getEntityMeta(Doc);
  assert.equal(meta.version, "version");
  assert.equal(meta.fields.find((f) => f.field === "version")?.version, "seq_no");
  assert.equal(getEntityMeta(Ext).fields.find((f) => f.field === "v")?.version, "external");
  class ByDefinition {
    id = "";
    rev = "";
  }
  defineEntity(ByDefinition, { index: "d", key: "id", version: "rev" });
  assert.equal(getEntityMeta(ByDefinition).version, "rev");

  const doc = Object.assign(new Doc(), { id: "1", title: "t", version: "3:1" });
  assert.deepEqual(toDocument(doc), { id: "1", title: "t" });
  const raw = {
    hits: {
      hits: [
        { _id: "1", _seq_no: 4, _primary_term: 2, _source: { title: "a", version: "x" } },
        { _id: "2", _source: { title: "b" } },
      ],
    },
  };
  const rs = new ResultSet(["_ID", "_DOC"], [["1", '{"title":"a","version":"x"}'], [
    "2",
    '{"title":"b"}',
  ]], { raw });
  const docs = mapResultSet(rs, Doc);
  assert.deepEqual(docs.map((d) => [d.id, d.title, d.version]), [["1", "a", "4:2"], [
    "2",
    "b",
    "",
  ]]);
  const get = new ResultSet(["_ID", "_DOC"], [["9", "{}"]], {
    raw: { _id: "9", found: true, _version: 7, _source: {} },
  });
  assert.equal(mapResultSet(get, Ext)[0]?.v, 7);
});
