import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { Column, JdbcTemplate, Table } from "../template/mod.ts";
import { targetOf } from "./_entity_target.ts";
import { deleteEntity, deleteIds, replaceEntity, updateEntity } from "./_entity_writes.ts";
import type { RunContext } from "./_statement_runner.ts";
import { MapperError, OptimisticLockError } from "./errors.ts";

@Table("writes_notes")
class Note {
  @Column({ primary: true })
  id = "";
  @Column("body")
  text = "";
  @Column()
  stars = 0;
  @Column({ update: false })
  created = "";
}

@Table("writes_versioned")
class Versioned {
  @Column({ primary: true })
  id = "";
  @Column()
  text = "";
  @Column({ version: true })
  version = "";
}

@Table("writes_external")
class External {
  @Column({ primary: true })
  id = "";
  @Column()
  text = "";
  @Column({ version: "external" })
  version = 0;
}

interface Fixture extends RunContext {
  engine: Engine;
  sent: string[];
  source: DataSource;
  doc(index: string, id: string): Promise<Record<string, unknown> | undefined>;
}

function fixture(): Fixture {
  const engine = new Engine();
  const sent: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    sent.push(`${init?.method} ${url.pathname}${url.search} ${init?.body ?? ""}`.trim());
    return engine.fetch(input, init);
  };
  const source = new DataSource({ nodes: ["http://engine"], fetch });
  const jdbc = new JdbcTemplate(source);
  const doc = async (index: string, id: string) => {
    const res = await engine.fetch(`http://engine/${index}/_doc/${id}`);
    return res.status === 200 ? (await res.json())._source : undefined;
  };
  return { engine, sent, jdbc, source, doc };
}

function note(fields: Partial<Note>): Note {
  return Object.assign(new Note(), fields);
}

Deno.test("updateEntity sends the set fields under their columns, refreshing unless told not to", async () => {
  const f = await fixture();
  await f.jdbc.execute('PUT /writes_notes/_doc/n1 {"body": "old", "stars": 1, "created": "then"}');
  const target = targetOf(Note, "NoteMapper");
  f.sent.length = 0;
  assert.equal(
    await updateEntity({ exec: f, target, writes: {} }, note({ id: "n1", stars: 5 })),
    1,
  );
  assert.deepEqual(f.sent, [
    'POST /writes_notes/_update/n1?refresh=true {"doc":{"stars":5},"detect_noop":false}',
  ]);
  assert.deepEqual(await f.doc("writes_notes", "n1"), { body: "old", stars: 5, created: "then" });
  f.sent.length = 0;
  assert.equal(
    await updateEntity(
      { exec: f, target, writes: { refresh: false } },
      note({ id: "n1", text: "new", created: "now" }),
    ),
    1,
  );
  assert.match(
    f.sent[0]!,
    /^POST \/writes_notes\/_update\/n1 \{"doc":\{"body":"new"\}/,
    "update: false is left out",
  );
  // exactly the named fields, whatever they hold
  assert.equal(
    await updateEntity({ exec: f, target, writes: {} }, note({ id: "n1" }), ["stars"]),
    1,
  );
  assert.equal((await f.doc("writes_notes", "n1"))?.stars, 0);
  // a missing document counts 0
  assert.equal(
    await updateEntity({ exec: f, target, writes: {} }, note({ id: "nobody", stars: 2 })),
    0,
  );
  f.engine.close();
});

Deno.test("updateEntity refuses what it cannot write, before sending anything", async () => {
  const f = await fixture();
  const target = targetOf(Note, "NoteMapper");
  const refused = async (run: () => Promise<number>, message: RegExp) =>
    await assert.rejects(async () => await run(), (e: unknown) => {
      assert.ok(e instanceof MapperError);
      assert.match(e.message, /^NoteMapper\./);
      assert.match(e.message, message);
      return true;
    });
  await refused(
    () => updateEntity({ exec: f, target, writes: {} }, note({ id: "n1" })),
    /sets no field besides its key/,
  );
  await refused(
    () => updateEntity({ exec: f, target, writes: {} }, note({ id: "n1" }), []),
    /name the fields to write/,
  );
  await refused(
    () => updateEntity({ exec: f, target, writes: {} }, note({ id: "n1" }), ["id"]),
    /"id" is the key/,
  );
  await refused(
    () => updateEntity({ exec: f, target, writes: {} }, note({ id: "n1" }), ["nope"]),
    /"nope" is not a field of Note/,
  );
  await refused(
    () => updateEntity({ exec: f, target, writes: {} }, note({ id: "n1" }), ["created"]),
    /"created" is declared with update: false/,
  );
  await refused(
    () =>
      updateEntity({ exec: f, target, writes: {} }, note({ id: "n1", text: undefined as never }), [
        "text",
      ]),
    /"text" is undefined; pass null to clear the field/,
  );
  assert.deepEqual(f.sent, []);
  f.engine.close();
});

Deno.test("a version read from the index makes writes conditional; a stale one is an OptimisticLockError", async () => {
  const f = await fixture();
  const target = targetOf(Versioned, "VersionedMapper");
  await f.jdbc.execute('PUT /writes_versioned/_doc/v1?refresh=true {"text": "a"}');
  const meta = await f.engine.fetch("http://engine/writes_versioned/_doc/v1");
  const { _seq_no, _primary_term } = await meta.json();
  const read = Object.assign(new Versioned(), {
    id: "v1",
    text: "b",
    version: `${_seq_no}:${_primary_term}`,
  });
  f.sent.length = 0;
  assert.equal(await replaceEntity({ exec: f, target, writes: {} }, read), 1);
  assert.match(
    f.sent[0]!,
    new RegExp(
      `^PUT /writes_versioned/_doc/v1\\?refresh=true&if_seq_no=${_seq_no}&if_primary_term=${_primary_term} `,
    ),
  );
  assert.doesNotMatch(f.sent[0]!, /"version"/, "the version is never stored in the source");
  // the same version again is stale now
  await assert.rejects(
    async () => await replaceEntity({ exec: f, target, writes: {} }, read),
    (e: unknown) => {
      assert.ok(e instanceof OptimisticLockError);
      assert.deepEqual([e.index, e.id], ["writes_versioned", "v1"]);
      return true;
    },
  );
  await assert.rejects(
    async () => await updateEntity({ exec: f, target, writes: {} }, read),
    OptimisticLockError,
  );
  await assert.rejects(async () => await deleteEntity(f, target, {}, read), OptimisticLockError);
  // a versioned update of a document that is gone lost the race too
  const gone = Object.assign(new Versioned(), { id: "v9", text: "x", version: "0:1" });
  await assert.rejects(
    async () => await updateEntity({ exec: f, target, writes: {} }, gone),
    OptimisticLockError,
  );
  await assert.rejects(
    async () =>
      await replaceEntity(
        { exec: f, target, writes: {} },
        Object.assign(new Versioned(), { id: "v1", version: "seven" }),
      ),
    /Versioned\.version holds "seven", which is not a version read from the index/,
  );
  // an empty version writes unconditionally
  assert.equal(
    await replaceEntity(
      { exec: f, target, writes: {} },
      Object.assign(new Versioned(), { id: "v1", text: "c" }),
    ),
    1,
  );
  f.engine.close();
});

Deno.test("an external version goes with replace and delete; a partial update cannot check it", async () => {
  const f = await fixture();
  const target = targetOf(External, "ExternalMapper");
  const v5 = Object.assign(new External(), { id: "e1", text: "a", version: 5 });
  assert.equal(await replaceEntity({ exec: f, target, writes: {} }, v5), 1);
  assert.match(f.sent.at(-1)!, /\?refresh=true&version=5&version_type=external /);
  await assert.rejects(
    async () => await replaceEntity({ exec: f, target, writes: {} }, v5),
    OptimisticLockError,
  );
  await assert.rejects(
    async () => await updateEntity({ exec: f, target, writes: {} }, v5),
    /External has an external version, which partial updates cannot check; use replace\(\)/,
  );
  assert.equal(
    await deleteEntity(f, target, {}, Object.assign(new External(), { id: "e1", version: 6 })),
    1,
  );
  f.engine.close();
});

Deno.test("deleteEntity and deleteIds count what was deleted: one request, several ids one _bulk", async () => {
  const f = await fixture();
  const target = targetOf(Note, "NoteMapper");
  for (const id of ["a", "b", "c", "d"]) {
    await f.jdbc.execute(`PUT /writes_notes/_doc/${id} {"body": "${id}"}`);
  }
  f.sent.length = 0;
  assert.equal(await deleteIds(f, target, {}, []), 0);
  assert.deepEqual(f.sent, [], "no ids, no request");
  assert.equal(await deleteEntity(f, target, {}, note({ id: "a" })), 1);
  assert.equal(await deleteEntity(f, target, {}, note({ id: "a" })), 0);
  assert.equal(await deleteIds(f, target, {}, ["b"]), 1);
  f.sent.length = 0;
  assert.equal(await deleteIds(f, target, { refresh: false }, ["c", "d", "zz"]), 2);
  assert.equal(f.sent.length, 1);
  assert.match(f.sent[0]!, /^POST \/_bulk /);
  assert.equal(await f.doc("writes_notes", "c"), undefined);
  assert.equal(await f.doc("writes_notes", "d"), undefined);
  f.engine.close();
});
