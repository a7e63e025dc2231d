import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { Column, PageObject, type PageResult, Table } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import {
  BaseMapper,
  bound,
  Configuration,
  MapperError,
  Query,
  RefMapper,
  SimpleMapper,
} from "./mod.ts";

@Table("session_notes")
class Note {
  @Column({ primary: true })
  id = "";
  @Column()
  text = "";
  @Column()
  n = 0;
}

const FILE = `<mapper namespace="notes">
  <select id="byText" resultType="Note">POST /session_notes/_search {"query": {"term": {"text": #{text}}}, "sort": ["n"]}</select>
  <select id="sorted" resultType="Note">POST /session_notes/_search {"sort": ["n"]}</select>
  <update id="retext">POST /session_notes/_update/#{id}?refresh=true {"doc": {"text": #{text}}}</update>
</mapper>`;

async function opened(configure?: (config: Configuration) => void) {
  const engine = new Engine();
  const sent: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    sent.push(`${init?.method} ${new URL(String(input)).pathname}`);
    return engine.fetch(input, init);
  };
  const config = new Configuration({ refresh: true });
  config.registerType("Note", Note);
  configure?.(config);
  const session = config.newSession(new DataSource({ nodes: ["http://engine"], fetch }));
  await session.jdbc().execute(
    'PUT /session_notes {"mappings": {"properties": {"text": {"type": "keyword"}, "n": {"type": "integer"}}}}',
  );
  for (const [id, text, n] of [["1", "a", 1], ["2", "b", 2], ["3", "b", 3]] as const) {
    await session.jdbc().execute(
      `PUT /session_notes/_doc/${id}?refresh=true {"text": "${text}", "n": ${n}}`,
    );
  }
  sent.length = 0;
  return { engine, config, session, sent };
}

Deno.test("createMapper: an annotated method runs its statement; a class's own method stays its own", async () => {
  @SimpleMapper({ entity: Note })
  class NoteMapper extends BaseMapper<Note> {
    @Query('POST /session_notes/_search {"query": {"term": {"text": #{text}}}, "sort": ["n"]}')
    byText(_args: { text: string }): Promise<Note[]> {
      return bound();
    }
    shout(): string {
      return "hey";
    }
  }
  const { engine, session } = await opened();
  const notes = session.createMapper(NoteMapper);
  assert.ok(notes instanceof NoteMapper);
  assert.deepEqual((await notes.byText({ text: "b" })).map((n) => n.id), ["2", "3"]);
  assert.equal(notes.shout(), "hey");
  assert.equal((await notes.selectById("1"))?.text, "a", "BaseMapper methods on the same instance");
  assert.notEqual(session.createMapper(NoteMapper), notes, "a new instance each time");
  engine.close();
});

Deno.test("a @RefMapper without a method of its own gets a forwarder per file statement", async () => {
  @RefMapper("notes", { entity: Note })
  class FileNotes {
    declare byText: (args: { text: string }) => Promise<Note[]>;
    declare retext: (args: { id: string; text: string }) => Promise<number>;
  }
  const { engine, session } = await opened((config) => config.addMapper(parseMapperFile(FILE)));
  const notes = session.createMapper(FileNotes);
  assert.equal(typeof Object.getOwnPropertyDescriptor(notes, "byText")?.value, "function");
  assert.equal(await notes.retext({ id: "1", text: "b" }), 1);
  assert.deepEqual((await notes.byText({ text: "b" })).map((n) => n.id), ["1", "2", "3"]);
  engine.close();
});

Deno.test("executeStatement, queryStatement, pageStatement run a statement by id", async () => {
  const { engine, session, sent } = await opened((config) =>
    config.addMapper(parseMapperFile(FILE))
  );
  const listed = await session.queryStatement<Note>("notes.byText", { text: "b" });
  assert.deepEqual(listed.map((n) => n.n), [2, 3]);
  const page = new PageObject(1, 2);
  const paged: PageResult<Note> = await session.pageStatement<Note>("notes.sorted", {}, page);
  assert.deepEqual(paged.data.map((n) => n.id), ["3"]);
  assert.equal(page.getTotalCount(), 3);
  // a page given beside the arguments pages a list too
  const first = await session.queryStatement<Note>("notes.sorted", {}, new PageObject(0, 1));
  assert.deepEqual(first.map((n) => n.id), ["1"]);
  assert.equal(await session.executeStatement("notes.retext", { id: "2", text: "c" }), 1);
  assert.deepEqual(
    (await session.queryStatement<Note>("notes.byText", { text: "c" })).map((n) => n.id),
    ["2"],
  );
  assert.ok(sent.every((s) => s.startsWith("POST /session_notes/")), sent.join("\n"));
  // an unknown id rejects (never throws synchronously)
  const rejected = session.queryStatement("notes.nope");
  assert.ok(rejected instanceof Promise);
  await assert.rejects(rejected, (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(e.message, /no statement with this id/);
    return true;
  });
  engine.close();
});

Deno.test("createBaseMapper: an entity's BaseMapper without a class; it has no statements", async () => {
  const { engine, session } = await opened();
  const notes = session.createBaseMapper(Note);
  assert.ok(notes instanceof BaseMapper);
  assert.equal(await notes.countAll(), 3);
  assert.deepEqual((await notes.selectByIds(["3", "1", "9"])).map((n) => n.id).sort(), ["1", "3"]);
  engine.close();
});

Deno.test("a @RefMapper file loaded lazily from the base: methods work before the file is read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/notes.xml`, FILE);
    @RefMapper("notes.xml", { entity: Note })
    class LazyNotes {
      declare byText: (args: { text: string }) => Promise<Note[]>;
    }
    const { engine, config } = await opened(); // no file registered up front
    const lazy = new Configuration({ mapperFiles: { base: new URL(`file://${dir}/`) } });
    lazy.registerType("Note", Note);
    const s = lazy.newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
    const notes = s.createMapper(LazyNotes);
    assert.equal(lazy.hasStatement("notes.byText"), false, "not read yet");
    assert.equal((notes as unknown as { then?: unknown }).then, undefined, "not a thenable");
    assert.deepEqual((await notes.byText({ text: "b" })).map((n) => n.id), ["2", "3"]);
    assert.equal(lazy.hasStatement("notes.byText"), true);
    assert.equal(config.hasStatement("notes.byText"), false, "configurations do not share files");
    engine.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
