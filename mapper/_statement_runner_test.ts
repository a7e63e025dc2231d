import assert from "node:assert/strict";
import { DataSource, IncorrectResultSizeError } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import {
  Column,
  JdbcTemplate,
  listMeta,
  PageObject,
  type PageResult,
  Table,
} from "../template/mod.ts";
import { compileAnnotation } from "./_compile.ts";
import { collectArgs, isPage, type RunContext, runStatement } from "./_statement_runner.ts";
import { MapperError } from "./errors.ts";
import type { InsertOptions, StatementKind } from "./statement_options.ts";

@Table("runner_notes")
class Note {
  @Column({ primary: true })
  id = "";
  @Column()
  text = "";
}

function statement(kind: StatementKind, text: string, options: InsertOptions = {}) {
  return compileAnnotation(
    { kind, text, options },
    { mapper: "NoteMapper", method: "m", statementId: "notes.m" },
    undefined,
  );
}

async function context(): Promise<RunContext & { engine: Engine }> {
  const engine = new Engine();
  const source = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
  const jdbc = new JdbcTemplate(source);
  await jdbc.execute(
    'PUT /runner_notes {"mappings": {"properties": {"text": {"type": "keyword"}, "n": {"type": "integer"}}}}',
  );
  for (const [id, text] of [["1", "a"], ["2", "b"], ["3", "b"]]) {
    await jdbc.execute(`PUT /runner_notes/_doc/${id} {"text": "${text}", "n": ${id}}`);
  }
  await jdbc.execute("POST /runner_notes/_refresh");
  return { engine, jdbc, source };
}

Deno.test("isPage: a PageObject or anything with its three methods", () => {
  assert.equal(isPage(new PageObject(0, 10)), true);
  assert.equal(
    isPage({ getPageSize: () => 1, getFirstRecordPosition: () => 0, setTotalCount: () => {} }),
    true,
  );
  for (const v of [null, undefined, 3, "page", {}, { getPageSize: () => 1 }]) {
    assert.equal(isPage(v), false, String(v));
  }
});

Deno.test("collectArgs: named by params, or one object of named arguments; a Page anywhere", () => {
  const page = new PageObject(0, 5);
  const byParams = statement("query", "GET /x/_search", { params: ["a", "b"] });
  assert.deepEqual(collectArgs(byParams, [1, 2]), { named: { a: 1, b: 2 }, page: undefined });
  assert.deepEqual(collectArgs(byParams, [1, 2, page]), { named: { a: 1, b: 2 }, page });
  assert.deepEqual(collectArgs(byParams, [page, 1]), { named: { a: page, b: 1 }, page });
  assert.throws(
    () => collectArgs(byParams, [1, 2, 3]),
    /got 3 arguments, but params names 2 \(a, b\)/,
  );

  const plain = statement("query", "GET /x/_search");
  assert.deepEqual(collectArgs(plain, []), { named: {}, page: undefined });
  assert.deepEqual(collectArgs(plain, [null]), { named: {}, page: undefined });
  assert.deepEqual(collectArgs(plain, [{ q: "x" }, page]), { named: { q: "x" }, page });
  // a Page inside the named arguments is found there too
  assert.deepEqual(collectArgs(plain, [{ q: "x", page }]).page, page);
  assert.throws(() => collectArgs(plain, ["x", "y"]), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(
      e.message,
      /^NoteMapper\.m .*got 2 arguments besides a Page.*name them: params: \["a", "b", …\]/,
    );
    return true;
  });
  assert.throws(
    () => collectArgs(plain, ["x"]),
    /the argument "x" is not an object of named arguments/,
  );
  assert.throws(() => collectArgs(plain, [[1]]), /is not an object of named arguments/);
});

Deno.test("runStatement: lists carry total and took (listMeta); one, value, number and boolean read a single row", async () => {
  const ctx = await context();
  const search = 'POST /runner_notes/_search {"query": {"term": {"text": #{t}}}, "sort": ["n"]}';
  const list = await runStatement(ctx, statement("query", search), { t: "b" }) as unknown[];
  assert.deepEqual(list.map((r) => (r as Record<string, unknown>)._ID), ["2", "3"]);
  assert.equal(listMeta(list).total?.value, 2);
  assert.equal(typeof listMeta(list).took, "number");
  assert.deepEqual(Object.keys(list), ["0", "1"], "the list is a plain array of rows");

  const entities = await runStatement(
    ctx,
    compileAnnotation({ kind: "query", text: search, options: {} }, { statementId: "n" }, Note),
    { t: "a" },
  );
  assert.ok((entities as Note[])[0] instanceof Note);
  assert.deepEqual((entities as Note[]).map((n) => [n.id, n.text]), [["1", "a"]]);

  const one = statement("query", search, { returns: "one" });
  assert.equal(((await runStatement(ctx, one, { t: "a" })) as Record<string, unknown>)._ID, "1");
  assert.equal(await runStatement(ctx, one, { t: "z" }), null);
  await assert.rejects(runStatement(ctx, one, { t: "b" }), IncorrectResultSizeError);

  const count = statement(
    "query",
    'POST /runner_notes/_count {"query": {"term": {"text": #{t}}}}',
    {
      returns: "number",
    },
  );
  assert.equal(await runStatement(ctx, count, { t: "b" }), 2);
  const exists = statement("query", search, { returns: "boolean" });
  assert.equal(await runStatement(ctx, exists, { t: "a" }), true);
  assert.equal(await runStatement(ctx, exists, { t: "z" }), false);
  const value = statement("query", search, { returns: "value" });
  await assert.rejects(
    runStatement(ctx, value, { t: "a" }),
    /returns "value" needs a single column, but the rows have _ID/,
  );
  ctx.engine.close();
});

Deno.test("runStatement: a page adds from/size and fills the total; a page on a write is refused", async () => {
  const ctx = await context();
  const paged = statement("query", 'POST /runner_notes/_search {"sort": ["n"]}', {
    returns: "page",
  });
  const page = new PageObject(1, 2);
  const result = await runStatement(ctx, paged, {}, page) as PageResult<Record<string, unknown>>;
  assert.deepEqual(result.data.map((r) => r._ID), ["3"]);
  assert.equal(page.getTotalCount(), 3);
  await assert.rejects(runStatement(ctx, paged, {}), /returns "page" needs a Page argument/);
  const write = statement("update", 'POST /runner_notes/_update/1 {"doc": {"text": "c"}}');
  await assert.rejects(
    runStatement(ctx, write, {}, new PageObject(0, 1)),
    /a Page was given, but the statement is a update that returns "number"; page only reads/,
  );
  ctx.engine.close();
});

Deno.test("runStatement: writes count, booleans say whether any changed, generated keys reach the arguments", async () => {
  const ctx = await context();
  const update = statement("update", 'POST /runner_notes/_update/#{id} {"doc": {"text": #{text}}}');
  assert.equal(await runStatement(ctx, update, { id: "1", text: "z" }), 1);
  const changed = statement(
    "update",
    'POST /runner_notes/_update/#{id} {"doc": {"text": #{text}}}',
    {
      returns: "boolean",
    },
  );
  assert.equal(await runStatement(ctx, changed, { id: "1", text: "y" }), true);
  assert.equal(
    await runStatement(
      ctx,
      statement("execute", "GET /runner_notes/_doc/1", { returns: "void" }),
      {},
    ),
    undefined,
  );

  const insert = statement("insert", "POST /runner_notes/_doc #{note}", {
    useGeneratedKeys: true,
    keyProperty: "note.id",
  });
  const args = { note: { text: "new" } as Record<string, unknown> };
  assert.equal(await runStatement(ctx, insert, args), 1);
  assert.equal(typeof args.note.id, "string");
  const stored = await ctx.jdbc.queryForMap(`GET /runner_notes/_doc/${args.note.id}`);
  assert.deepEqual(JSON.parse(String(stored?._DOC)), { text: "new" });

  const bad = statement("insert", "POST /runner_notes/_doc #{note}", {
    useGeneratedKeys: true,
    keyProperty: "missing.id",
  });
  await assert.rejects(
    runStatement(ctx, bad, { note: { text: "x" } }),
    /keyProperty "missing\.id" does not lead to an object in the arguments/,
  );
  ctx.engine.close();
});

Deno.test("runStatement: a server error is rethrown with the statement's site in front", async () => {
  const ctx = await context();
  const missing = statement("query", "POST /runner_nowhere/_search");
  await assert.rejects(runStatement(ctx, missing, {}), (e: unknown) => {
    assert.ok(e instanceof Error);
    assert.match(e.message, /^NoteMapper\.m \[statement notes\.m\]: .*index_not_found_exception/);
    return true;
  });
  ctx.engine.close();
});
