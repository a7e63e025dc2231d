import assert from "node:assert/strict";
import { Configuration, defineMapper } from "./mod.ts";
import { defineEntity } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { MappingModel } from "../check/mod.ts";
import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";

const XML = `<mapper namespace="users">
  <select id="byAge">POST /users/_search {"query": {"bool": {"filter": [<where>
    <if test="age != null">{"match_phrase": {"age": #{age}}},</if></where>]}}, "sort": ["name"]}</select>
  <select id="count">POST /users/_count</select>
</mapper>`;
const mapping = MappingModel.from({
  properties: { name: { type: "text" }, age: { type: "long" } },
});

Deno.test("check off (the default) registers anything; error refuses with every error listed", () => {
  assert.ok(new Configuration().addMapper(parseMapperFile(XML)).hasStatement("users.byAge"));
  assert.throws(
    () =>
      new Configuration({ check: "error", checkOptions: { mapping } }).addMapper(
        parseMapperFile(XML),
      ),
    (e: Error) => {
      assert.match(
        e.message,
        /users\.byAge: error field-type: "name" is a text field without fielddata/,
      );
      assert.doesNotMatch(e.message, /match_phrase/); // a warning: not an error
      return true;
    },
  );
});

Deno.test("check warn hands errors and warnings to warn; parameters of annotations are known", () => {
  const seen: string[] = [];
  const config = new Configuration({
    check: "warn",
    checkOptions: { mapping },
    warn: (m) => seen.push(m),
  });
  config.addMapper(parseMapperFile(XML));
  assert.equal(seen.length, 1); // with no arguments the <if> falls away: only the sort remains
  class Users {}
  defineMapper(Users, {
    namespace: "annotated",
    methods: {
      byName: {
        query: 'POST /users/_search {"query": {"match": {"name": #{nmae}}}}',
        params: ["name"],
      },
    },
  });
  config.addMapper(Users);
  assert.equal(seen.length, 2);
  assert.match(
    seen[1]!,
    /annotated\.byName: error placeholder-name: no parameter supplies #\{nmae\}; did you mean "name"\?/,
  );
});

Deno.test("check error registers nothing it refuses; the same source can be fixed and added", () => {
  const config = new Configuration({ check: "error" });
  class Bad {}
  defineMapper(Bad, {
    namespace: "bad",
    methods: {
      ok: { query: "POST /users/_count" },
      typo: { query: 'POST /users/_search {"query": {"trem": {"a": 1}}}' },
    },
  });
  assert.throws(() => config.addMapper(Bad), /bad\.typo: error unknown-key/);
  assert.deepEqual(config.statementIds(), []);
  const file = parseMapperFile(
    '<mapper namespace="f"><select id="s">POST /u/_search {"sizee": 1}</select></mapper>',
  );
  assert.throws(() => config.addMapper(file), /f\.s: error unknown-key/);
  assert.deepEqual(config.statementIds(), []);
  const fixed = parseMapperFile(
    '<mapper namespace="f"><select id="s">POST /u/_search {"size": 1}</select></mapper>',
  );
  assert.deepEqual(config.addMapper(fixed).statementIds(), ["f.s"]);
});

Deno.test("a statement is checked against the live mapping of its index on first use", async () => {
  const engine = new Engine();
  const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
  const sent: string[] = [];
  const watched = new DataSource({
    nodes: ["http://engine"],
    fetch: (input, init) => {
      const req = new Request(input, init);
      sent.push(`${req.method} ${new URL(req.url).pathname}`);
      return engine.fetch(req);
    },
  });
  const setup = new Configuration().newSession(ds).jdbc();
  await setup.execute(
    'PUT /people {"mappings": {"dynamic": "strict", "properties": {"name": {"type": "text"}, "age": {"type": "long"}}}}',
  );
  class People {}
  defineMapper(People, {
    namespace: "people",
    methods: {
      byName: { query: 'POST /people/_search {"query": {"term": {"name": #{name}}}}' },
      oldest: { query: 'POST /people/_search {"sort": [{"agee": "desc"}]}' },
      add: { insert: 'PUT /people/_doc/#{id} {"name": #{name}, "ag": #{age}}' },
    },
  });
  const warnings: string[] = [];
  const warned = new Configuration({ check: "warn", warn: (m) => warnings.push(m) })
    .addMapper(People);
  assert.deepEqual(warnings, []); // nothing wrong without a mapping
  const session = warned.newSession(watched);
  await session.executeStatement("people.byName", { name: "Ada" });
  await session.executeStatement("people.byName", { name: "Ada" });
  assert.equal(sent.filter((s) => s.endsWith("/_mapping")).length, 1); // read once
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0]!,
    /people\.byName \(mapping of "people"\): warning field-type: term on the text field "name"/,
  );

  const strict = new Configuration({ check: "error" }).addMapper(People).newSession(watched);
  const before = sent.length;
  await assert.rejects(
    strict.executeStatement("people.oldest"),
    (e: Error) => {
      assert.match(
        e.message,
        /does not pass the check against the mapping of "people"; the command was not sent/,
      );
      assert.match(e.message, /"agee" is not in the mapping; did you mean "age"\?/);
      return true;
    },
  );
  await assert.rejects(
    strict.executeStatement("people.add", { id: "1", name: "Ada", age: 36 }),
    /"ag" is not in the mapping, and its dynamic setting is strict/,
  );
  // Only the mapping read went out: the refused commands were never sent.
  assert.deepEqual(sent.slice(before), ["GET /people/_mapping"]);
  assert.equal(await setup.queryForNumber("POST /people/_count"), 0);
});

Deno.test("a statement on an index that does not exist yet is checked once it does", async () => {
  const engine = new Engine();
  const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
  class Later {}
  defineMapper(Later, {
    namespace: "later",
    methods: { top: { query: 'POST /later/_search {"sort": ["nmae"]}' } },
  });
  const session = new Configuration({ check: "error" }).addMapper(Later).newSession(ds);
  await assert.rejects(session.executeStatement("later.top"), /index_not_found|no such index/);
  await session.jdbc().execute(
    'PUT /later {"mappings": {"properties": {"name": {"type": "keyword"}}}}',
  );
  await assert.rejects(session.executeStatement("later.top"), /"nmae" is not in the mapping/);
});

Deno.test("statements of a mapper over an entity are checked against the mapping it declares", () => {
  class Town {
    id = "";
    name = "";
    pop = 0;
    note = "";
  }
  defineEntity(Town, {
    index: "towns",
    dynamic: "strict",
    fields: {
      id: { primary: true, mapping: "keyword" },
      name: { mapping: "text" },
      pop: { mapping: "long" },
      note: {},
    },
  });
  class Towns {}
  defineMapper(Towns, {
    namespace: "towns",
    entity: Town,
    methods: {
      big: { query: 'POST /towns/_search {"sort": [{"popp": "desc"}]}' },
      named: {
        query: 'POST /towns/_search {"query": {"match": {"note": #{n}}}, "sort": ["name"]}',
      },
      fine: { query: 'POST /towns/_search {"query": {"range": {"pop": {"gte": #{min}}}}}' },
    },
  });
  assert.throws(
    () => new Configuration({ check: "error" }).addMapper(Towns),
    (e: Error) => {
      assert.match(
        e.message,
        /towns\.big: error unknown-field: "popp" is not in the mapping; did you mean "pop"\?/,
      );
      assert.match(
        e.message,
        /towns\.named: error field-type: "name" is a text field without fielddata/,
      );
      assert.doesNotMatch(e.message, /towns\.fine|(error|warning) [a-z-]+: "note"/); // a column without a mapping is known by name
      return true;
    },
  );
});
