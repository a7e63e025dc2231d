import assert from "node:assert/strict";
import { CommandSyntaxError, ResultSet } from "../driver/mod.ts";
import { Column, type EntityClass, Table } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { compileAnnotation, compileFileStatement, type TypeLookup } from "./_compile.ts";
import { MapperError } from "./errors.ts";

@Table("people")
class Person {
  @Column({ primary: true })
  id = "";
  @Column()
  name = "";
}

class Card {
  key = "";
  label = "";
  extra = "";
}

const SITE = { mapper: "PersonMapper", method: "find", statementId: "PersonMapper.find" };

Deno.test("compileAnnotation: defaults per kind, the mapper's entity, the text rendered as written", () => {
  const text = 'POST /people/_search {"query": {"term": {"name": #{name}}}}';
  const query = compileAnnotation({ kind: "query", text, options: {} }, SITE, Person);
  assert.deepEqual([query.id, query.kind, query.returns, query.entity], [
    "PersonMapper.find",
    "query",
    "list",
    Person,
  ]);
  assert.equal(query.useGeneratedKeys, false);
  assert.deepEqual(query.render({ name: "ann" }), { text, args: { name: "ann" } });
  assert.ok(Object.isFrozen(query));

  const insert = compileAnnotation(
    {
      kind: "insert",
      text: "POST /people/_doc #{p}",
      options: { useGeneratedKeys: true, keyProperty: "id" },
    },
    SITE,
    Person,
  );
  assert.deepEqual([insert.returns, insert.useGeneratedKeys, insert.keyProperty], [
    "number",
    true,
    "id",
  ]);
  const run = compileAnnotation(
    { kind: "execute", text: "GET /_cluster/health", options: {} },
    SITE,
    Person,
  );
  assert.equal(run.returns, "results");
  // entity: "map" reads row maps even on an entity's mapper
  const maps = compileAnnotation({ kind: "query", text, options: { entity: "map" } }, SITE, Person);
  assert.equal(maps.entity, undefined);
  assert.equal("entity" in maps, false);
});

Deno.test("compileAnnotation: wrong options are refused at the site, before any call", () => {
  const text = "POST /people/_search";
  const refused = (options: Record<string, unknown>, message: RegExp) =>
    assert.throws(
      () => compileAnnotation({ kind: "query", text, options: options as never }, SITE, Person),
      (e: unknown) => {
        assert.ok(e instanceof MapperError);
        assert.equal(e.statementId, "PersonMapper.find");
        assert.match(e.message, /^PersonMapper\.find/);
        assert.match(e.message, message);
        return true;
      },
    );
  refused({ returns: "many" }, /returns "many" is not one of list, one, page/);
  refused({ params: "name" }, /params must be an array of names/);
  refused({ keyProperty: "id" }, /keyProperty needs useGeneratedKeys: true/);
});

Deno.test("compileAnnotation: a text that does not parse fails when compiled, naming the statement", () => {
  assert.throws(
    () =>
      compileAnnotation(
        { kind: "query", text: "GET /people/_doc/#{id", options: {} },
        SITE,
        undefined,
      ),
    (e: unknown) => {
      assert.ok(e instanceof CommandSyntaxError);
      assert.match(e.message, /PersonMapper\.find.*unterminated #\{/);
      return true;
    },
  );
  // a missing argument is a binding matter: it waits for the call
  const later = compileAnnotation(
    { kind: "query", text: "GET /people/_doc/#{id}", options: {} },
    SITE,
    undefined,
  );
  assert.equal(later.kind, "query");
});

const FILE = parseMapperFile(`<mapper namespace="people">
  <resultMap id="cards" type="Card">
    <id column="key" property="key"/>
    <result column="name" property="label"/>
  </resultMap>
  <resultMap id="plain">
    <result column="name" property="label"/>
  </resultMap>
  <select id="asCards" resultMap="cards">POST /people/_search</select>
  <select id="asPlain" resultMap="plain">POST /people/_search</select>
  <select id="typed" resultType="Person">POST /people/_search</select>
  <select id="maps" resultType="java.util.HashMap">POST /people/_search</select>
  <select id="unknownType" resultType="Nobody">POST /people/_search</select>
  <select id="bare">POST /people/_search {"query": {"term": {"name": #{name}}}}</select>
  <insert id="save" useGeneratedKeys="true" keyProperty="id">POST /people/_doc #{p}</insert>
</mapper>`);

const TYPES = new Map<string, EntityClass>([["Card", Card], ["Person", Person]]);
const lookup: TypeLookup = (name) => TYPES.get(name);

function compile(id: string, overrides = {}) {
  const statement = FILE.statements.get(id)!;
  return compileFileStatement(
    FILE,
    statement,
    { mapper: "people", statementId: `people.${id}` },
    { lookup, ...overrides },
  );
}

Deno.test("compileFileStatement: result types, map types, overrides and generated keys", () => {
  assert.equal(compile("typed").entity, Person);
  assert.equal(compile("maps").entity, undefined);
  assert.equal(compile("bare").entity, undefined);
  assert.equal(
    compile("bare", { entity: Person }).entity,
    Person,
    "the mapper's entity when none is named",
  );
  assert.equal(compile("bare").returns, "list");
  assert.equal(compile("bare", { returns: "one" }).returns, "one");
  assert.deepEqual(compile("bare", { params: ["name"] }).params, ["name"]);
  const save = compile("save");
  assert.deepEqual([
    save.kind,
    save.returns,
    save.useGeneratedKeys,
    save.keyProperty,
    save.fromFile,
  ], [
    "insert",
    "number",
    true,
    "id",
    true,
  ]);
  const rendered = compile("bare").render({ name: "ann" });
  assert.match(rendered.text, /"name": #\{/);
});

Deno.test("compileFileStatement: an unknown result type or resultMap says what to add", () => {
  assert.throws(() => compile("unknownType"), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(
      e.message,
      /result type "Nobody" is not registered; call config\.registerType\("Nobody"/,
    );
    return true;
  });
  // (the xml room refuses such a file; a file built otherwise is refused here)
  const noMaps = { ...FILE, resultMaps: new Map() };
  assert.throws(
    () =>
      compileFileStatement(
        noMaps,
        FILE.statements.get("asCards")!,
        { statementId: "people.asCards" },
        { lookup },
      ),
    /resultMap "cards" \(people:\d+\) is not declared in people; add a <resultMap id="cards">/,
  );
  assert.throws(() => compile("bare", { returns: "all" }), /returns "all" is not one of/);
});

Deno.test("a resultMap maps columns to properties, the id column from _ID, other fields by name", () => {
  const rs = () =>
    new ResultSet(["_ID", "_DOC"], [
      ["doc-1", JSON.stringify({ key: "in-source", name: "ann", extra: "e", other: "x" })],
      ["doc-2", JSON.stringify({ name: "bob", __proto__: { polluted: true } })],
    ]);
  const cards = compile("asCards").mapRows!(rs()) as Card[];
  assert.ok(cards[0] instanceof Card);
  assert.deepEqual(cards.map((c) => ({ ...c })), [
    { key: "doc-1", label: "ann", extra: "e" }, // `other` is no field of Card; `name` is mapped
    { key: "doc-2", label: "bob", extra: "" },
  ]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const plain = compile("asPlain").mapRows!(rs()) as Record<string, unknown>[];
  assert.deepEqual(plain[0], { key: "in-source", extra: "e", other: "x", label: "ann" });
  assert.equal(Object.getPrototypeOf(plain[1]), Object.prototype);
});
