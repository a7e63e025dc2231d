// Versioned migrations and the zero-downtime reindex end to end, over HTTP on the behaviour
// suite's backend: history, second runs, edited files, failures with their place, the lock under
// two concurrent migrators, writers running through the alias while it moves, and the dry run.
import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import {
  type MigrationSource,
  Migrator,
  readMigrations,
  reindexAlias,
  type ReindexSpec,
} from "../migrate/mod.ts";
import { type BackendScope, backendTest } from "./support/backend.ts";

function files(t: BackendScope, texts: Record<string, string>): MigrationSource[] {
  return Object.entries(texts).map(([name, text]) => ({
    name,
    text: text.replaceAll("$users", t.index("users")).replaceAll("$log", t.index("log")),
  }));
}

function rejectsWith(code: string, check: (e: Record<string, unknown>) => void = () => {}) {
  return (e: unknown) => {
    assert.equal((e as { code?: string }).code, code, (e as Error).message);
    check(e as Record<string, unknown>);
    return true;
  };
}

const V1 = `# the users index
PUT /$users {"mappings": {"properties": {"name": {"type": "keyword"}}}}
// one seed document
PUT /$users/_doc/1?refresh=true {"name": "Ada"}
`;
const V2 = `PUT /$users/_mapping
{"properties": {"email": {"type": "keyword"}}}
`;

backendTest(
  "migrate: applies in order once, records the history, refuses an edited file",
  async (t) => {
    const ds = t.dataSource();
    const migrator = new Migrator(ds, { historyIndex: t.index("history"), installedBy: "e2e" });
    const set = await readMigrations(
      files(t, { "V2__add_email.es": V2, "V1__create_users.es": V1 }),
    );
    const first = await migrator.migrate(set);
    assert.deepEqual(first.applied.map((a) => [a.version, a.steps.length]), [["1", 2], ["2", 1]]);
    assert.equal(first.current, "2");
    assert.deepEqual((await migrator.migrate(set)).applied, []);
    const mapping = await t.call("GET", `/${t.index("users")}/_mapping`);
    assert.equal(mapping.body[t.index("users")].mappings.properties.email.type, "keyword");
    const history = await migrator.history();
    assert.deepEqual(history.map((r) => [r.version, r.success, r.installed_rank, r.installed_by]), [
      ["1", true, 1, "e2e"],
      ["2", true, 2, "e2e"],
    ]);
    assert.ok(history.every((r) => r.checksum.length === 64 && r.execution_ms >= 0));
    const info = await migrator.info([
      ...set,
      ...(await readMigrations(files(t, { "V3__more.es": "POST /$users/_refresh" }))),
    ]);
    assert.deepEqual(info.map((i) => [i.version, i.state]), [["1", "applied"], ["2", "applied"], [
      "3",
      "pending",
    ]]);
    const edited = await readMigrations(
      files(t, { "V1__create_users.es": V1 + "\n# an edit", "V2__add_email.es": V2 }),
    );
    const problems = await migrator.validate(edited);
    assert.deepEqual(problems.map((p) => p.version), ["1"]);
    assert.match(problems[0]!.problem, /checksum/);
    await assert.rejects(migrator.migrate(edited), rejectsWith("MIGRATION_VALIDATE"));
    const older = await readMigrations(files(t, { "V1_5__late.es": "POST /$users/_refresh" }));
    assert.match((await migrator.validate([...set, ...older]))[0]!.problem, /newer version 2/);
  },
);

backendTest("migrate: a failed command stops the run, is recorded and says where", async (t) => {
  const ds = t.dataSource();
  const migrator = new Migrator(ds, { historyIndex: t.index("history") });
  const bad = `POST /$users/_refresh
PUT /$users/_mapping
{"properties": {"name": {"type": "long"}}}
POST /$users/_refresh
`;
  const set = await readMigrations(files(t, {
    "V1__create_users.es": V1,
    "V2__bad.es": bad,
    "V3__never.es": "PUT /$log",
  }));
  await assert.rejects(
    migrator.migrate(set),
    rejectsWith("MIGRATION_FAILED", (e) => {
      assert.deepEqual([e.file, e.version, e.command, e.line], ["V2__bad.es", "2", 2, 2]);
      assert.match(String(e.message), /^V2__bad\.es, command 2 \(line 2\): .*mapper/);
      assert.equal((e.cause as { status?: number }).status, 400);
    }),
  );
  assert.equal((await t.call("HEAD", `/${t.index("log")}`)).status, 404);
  const info = await migrator.info(set);
  assert.deepEqual(info.map((i) => i.state), ["applied", "failed", "pending"]);
  assert.match(info[1]!.error!, /mapper/);
  await assert.rejects(migrator.migrate(set), rejectsWith("MIGRATION_VALIDATE"));
  assert.deepEqual(await migrator.repair(), ["2"]);
  const fixed = await readMigrations(files(t, {
    "V1__create_users.es": V1,
    "V2__bad.es": "POST /$users/_refresh",
    "V3__never.es": "PUT /$log",
  }));
  assert.deepEqual((await migrator.migrate(fixed)).applied.map((a) => a.version), ["2", "3"]);
});

backendTest("migrate: two concurrent migrators apply each version once", async (t) => {
  const texts: Record<string, string> = { "V1__log.es": "PUT /$log" };
  for (let v = 2; v <= 6; v++) {
    texts[`V${v}__step.es`] = `POST /$log/_doc?refresh=true {"v": ${v}}\nPOST /$log/_refresh`;
  }
  const set = await readMigrations(files(t, texts));
  const a = new Migrator(t.dataSource(), { historyIndex: t.index("history"), installedBy: "a" });
  const b = new Migrator(t.dataSource(), { historyIndex: t.index("history"), installedBy: "b" });
  const [ra, rb] = await Promise.all([a.migrate(set), b.migrate(set)]);
  assert.equal(ra.applied.length + rb.applied.length, 6);
  const versions = [...ra.applied, ...rb.applied].map((x) => x.version).sort();
  assert.deepEqual(versions, ["1", "2", "3", "4", "5", "6"]);
  const count = await t.call("GET", `/${t.index("log")}/_count`);
  assert.equal(count.body.count, 5); // each step's document written exactly once

  // A held lock: a migrator that may not wait is refused and told what to do.
  const index = t.index("history");
  await t.call("PUT", `/${index}/_create/lock?refresh=true`, {
    kind: "lock",
    owner: "other#1",
    heartbeat_at: new Date().toISOString(),
  });
  const more = [...set, ...(await readMigrations(files(t, { "V7__x.es": "POST /$log/_refresh" })))];
  const impatient = new Migrator(t.dataSource(), { historyIndex: index, lockWaitMs: 0 });
  await assert.rejects(
    impatient.migrate(more),
    rejectsWith(
      "MIGRATION_LOCKED",
      (e) => assert.match(String(e.message), /other#1.*--force-unlock/),
    ),
  );
  // A stale lock (no heartbeat for longer than lockStaleMs) is taken over.
  const later = () => new Date(Date.now() + 3_600_000);
  const taker = new Migrator(t.dataSource(), { historyIndex: index, lockWaitMs: 0, now: later });
  assert.deepEqual((await taker.migrate(more)).applied.map((x) => x.version), ["7"]);
  assert.equal((await t.call("GET", `/${index}/_doc/lock`)).status, 404); // released
  // --force-unlock removes whoever holds it.
  await t.call("PUT", `/${index}/_create/lock?refresh=true`, {
    kind: "lock",
    owner: "dead#2",
    heartbeat_at: new Date().toISOString(),
  });
  assert.equal((await impatient.forceUnlock())?.owner, "dead#2");
  assert.deepEqual((await impatient.migrate(more)).applied, []);
});

/** Writers through the alias while it moves; returns sent and found-as-last-written counts. */
async function moveUnderWriters(t: BackendScope, copy: ReindexSpec["copy"]) {
  const ds = t.dataSource();
  const alias = t.index("users");
  await reindexAlias(ds, { alias, mappings: { properties: { n: { type: "long" } } } });
  const WRITERS = 4;
  const SEEDED = 250;
  const IDS = 300;
  const seed: string[] = [];
  // Interleaved, so each writer's ids spread over the whole copy; writers begin with the ids
  // copied last, so an overwriting copy would undo their writes.
  for (let i = 0; i < SEEDED; i++) {
    for (let w = 0; w < WRITERS; w++) {
      seed.push(JSON.stringify({ index: { _id: `${w}-${i}` } }), JSON.stringify({ n: -1, w }));
    }
  }
  await t.call("POST", `/${alias}/_bulk?refresh=true`, seed.join("\n") + "\n");
  const last = new Map<string, number>();
  for (let w = 0; w < WRITERS; w++) for (let i = 0; i < SEEDED; i++) last.set(`${w}-${i}`, -1);
  let moving = true;
  let sent = 0;
  let during = 0;
  let refused = 0;
  const progress: number[] = [];
  const writer = async (w: number) => {
    await using conn = await ds.getConnection();
    const stmt = conn.createStatement();
    for (let n = 0; moving || n < 60; n++) {
      const id = `${w}-${(((SEEDED - 1 - n * 3) % IDS) + IDS) % IDS}`;
      try {
        await stmt.executeUpdate(`PUT /${alias}/_doc/${id} {"n": ${n}, "w": ${w}}`);
      } catch (error) {
        // A write in flight when the old index was blocked is refused, never lost: send again.
        if ((error as { status?: number }).status !== 403) throw error;
        await stmt.executeUpdate(`PUT /${alias}/_doc/${id} {"n": ${n}, "w": ${w}}`);
        refused++;
      }
      last.set(id, n);
      sent++;
      if (moving) during++;
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  const moved = await reindexAlias(ds, {
    alias,
    mappings: { properties: { n: { type: "long" }, w: { type: "keyword" } } },
    copy,
    batchSize: 50,
  }, { onProgress: (p) => progress.push(p.created), pollMs: 20 });
  moving = false;
  await Promise.all(writers);
  await t.call("POST", `/${alias}/_refresh`);
  const found = await t.call("POST", `/${alias}/_search`, { size: 2000, query: { match_all: {} } });
  const hits = found.body.hits.hits as { _id: string; _index: string; _source: { n: number } }[];
  let right = 0;
  for (const h of hits) if (last.get(h._id) === h._source.n) right++;
  assert.ok(hits.every((h) => h._index === moved.to), "reads come from the new index only");
  assert.equal(hits.length, last.size, "no document lost or doubled");
  assert.equal(right, last.size, "each id holds its last acknowledged write");
  assert.ok(progress.length > 0);
  const aliases = await t.call("GET", `/_alias/${alias}`);
  assert.deepEqual(Object.keys(aliases.body), [moved.to]);
  assert.equal(aliases.body[moved.to].aliases[alias].is_write_index, true);
  return { sent, during, refused, found: right, ids: last.size, moved };
}

backendTest("reindex: writers through the alias during a client copy lose nothing", async (t) => {
  const { moved, sent, during, refused, found, ids } = await moveUnderWriters(t, "client");
  assert.equal(moved.method, "client");
  assert.ok(during > 0, "writes arrived while the documents were copied");
  console.log(
    `client copy: ${sent} writes (${during} during the move, ${refused} refused and sent again), ${found}/${ids} ids as last written`,
  );
});

backendTest(
  "reindex: writers through the alias during _reindex (or its fallback) lose nothing",
  async (t) => {
    const { moved, sent, during, refused, found, ids } = await moveUnderWriters(t, "auto");
    assert.equal(moved.method, t.info.capabilities.has("reindex") ? "reindex" : "client");
    assert.equal(moved.from, `${t.index("users")}_v1`);
    console.log(
      `${moved.method}: ${sent} writes (${during} during the move, ${refused} refused and sent again), ${found}/${ids} ids as last written`,
    );
  },
);

backendTest(
  "reindex: a .json migration step moves the alias and keeps or deletes the old index",
  async (t) => {
    const alias = t.index("users");
    const migrator = new Migrator(t.dataSource(), { historyIndex: t.index("history") });
    const step = (mappings: unknown, deleteOld: boolean) =>
      JSON.stringify({ reindex: { alias, mappings, deleteOld } });
    const set = await readMigrations([
      { name: "V1__users.json", text: step({ properties: { a: { type: "keyword" } } }, false) },
      { name: "V2__doc.es", text: `PUT /${alias}/_doc/1?refresh=true {"a": "x"}` },
      { name: "V3__retype.json", text: step({ properties: { a: { type: "text" } } }, false) },
      { name: "V4__again.json", text: step({ properties: { a: { type: "keyword" } } }, true) },
    ]);
    await migrator.migrate(set);
    const indices = (await t.call("GET", `/_cat/indices/${alias}_v*?format=json&h=index`)).body
      .map((r: { index: string }) => r.index).sort();
    assert.deepEqual(indices, [`${alias}_v1`, `${alias}_v3`]); // v2 deleted by V4, v1 kept by V3
    const doc = await t.call("GET", `/${alias}_v3/_doc/1`);
    assert.equal(doc.body._source.a, "x");
  },
);

backendTest(
  "migrate --dry-run: rehearses on a scratch engine and leaves the cluster alone",
  async (t) => {
    const ds = t.dataSource();
    const migrator = new Migrator(ds, { historyIndex: t.index("history") });
    const v1 = await readMigrations(files(t, { "V1__create_users.es": V1 }));
    await migrator.migrate(v1);
    const next = await readMigrations(
      files(t, { "V1__create_users.es": V1, "V2__add_email.es": V2 }),
    );
    const scratch = (flavour: "elasticsearch" | "opensearch") => {
      const engine = new Engine({ flavour });
      return { engine, ds: new DataSource({ nodes: ["http://scratch"], fetch: engine.fetch }) };
    };
    const s1 = scratch(t.info.flavour);
    try {
      const plan = await migrator.dryRun(next, s1.ds);
      assert.deepEqual(plan.applied.map((a) => [a.version, a.steps]), [
        ["2", [`PUT /${t.index("users")}/_mapping`]],
      ]);
    } finally {
      s1.engine.close();
    }
    const live = await t.call("GET", `/${t.index("users")}/_mapping`);
    assert.equal(live.body[t.index("users")].mappings.properties.email, undefined);
    assert.deepEqual((await migrator.history()).map((r) => r.version), ["1"]);
    // A change the live mapping refuses fails in the rehearsal, before the cluster sees it.
    const conflict = await readMigrations(files(t, {
      "V1__create_users.es": V1,
      "V2__retype.es": `PUT /$users/_mapping {"properties": {"name": {"type": "long"}}}`,
    }));
    const s2 = scratch(t.info.flavour);
    try {
      await assert.rejects(migrator.dryRun(conflict, s2.ds), rejectsWith("MIGRATION_FAILED"));
    } finally {
      s2.engine.close();
    }
    assert.deepEqual((await migrator.history()).map((r) => [r.version, r.success]), [["1", true]]);
  },
);
