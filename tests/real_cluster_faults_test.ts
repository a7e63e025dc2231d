// Faults on a real three-node OpenSearch 2.19.3 cluster (real/cluster3.sh): a node is killed — its
// whole process tree, kill -9 — while it applies a request, during a BulkWriter load, during a
// stream, and during a loop of single writes through JdbcTemplate; then it is started again. Each
// test asserts that every item ends exactly once (written or reported), that a stream never ends
// short without an error, and that requests leave the dead node and come back to it.
//
// Runs only when CLUSTER3_URLS is set (the URLs of n1, n2, n3, in that order, comma-separated):
//   real/cluster3.sh up && CLUSTER3_URLS=$(real/cluster3.sh urls) \
//     npx -y deno@2 test -A tests/real_cluster_faults_test.ts; real/cluster3.sh down
// Indexes are named faults_<test>_<time>, have 3 shards and 1 replica, and are deleted at the end.
import assert from "node:assert/strict";
import {
  BulkWriter,
  type Connection,
  DataAccessError,
  DataSource,
  PartialResultsError,
  type TransportEvent,
} from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";

const urls = (Deno.env.get("CLUSTER3_URLS") ?? "").split(",").map((u) => u.trim()).filter(
  (u) => u !== "",
);
const ignore = urls.length !== 3;
if (ignore) {
  console.log(
    "real_cluster_faults_test: CLUSTER3_URLS is not set (three node URLs): ignored. " +
      "Start the cluster with real/cluster3.sh up",
  );
}
const script = new URL("../real/cluster3.sh", import.meta.url).pathname;
const names = ["n1", "n2", "n3"];

/** Runs real/cluster3.sh with a command and a node name. */
async function cluster(command: "kill" | "start", name: string): Promise<void> {
  const out = await new Deno.Command("bash", { args: [script, command, name], stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(
      `cluster3.sh ${command} ${name} failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
}

async function json(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  for (const url of urls) {
    try {
      const res = await fetch(url + path, {
        ...init,
        headers: { "content-type": "application/json" },
      });
      return await res.json();
    } catch {
      // that node is down: the next one
    }
  }
  throw new Error(`no node answered ${path}`);
}

/** A node that is not the elected cluster manager (losing the manager adds an election). */
async function victim(): Promise<{ name: string; url: string }> {
  const manager = (await json("/_cat/cluster_manager?format=json") as unknown as {
    node: string;
  }[])[0]!.node;
  const i = names.findIndex((n) => n !== manager && n !== "n1");
  return { name: names[i]!, url: urls[i]! };
}

async function green(): Promise<void> {
  const health = await json("/_cluster/health?wait_for_status=green&wait_for_nodes=3&timeout=90s");
  assert.equal(health.status, "green", JSON.stringify(health));
}

async function createIndex(name: string): Promise<void> {
  const created = await json(`/${name}`, {
    method: "PUT",
    body: JSON.stringify({
      settings: { number_of_shards: 3, number_of_replicas: 1 },
      mappings: { properties: { n: { type: "integer" } } },
    }),
  });
  assert.equal(created.acknowledged, true, JSON.stringify(created));
  await json(`/_cluster/health/${name}?wait_for_status=green&timeout=60s`);
}

/** A data source on the three nodes that records the transport's events (and shows each to `hook`). */
function dataSource(events: TransportEvent[], hook?: (e: TransportEvent) => void) {
  return new DataSource({
    nodes: urls,
    timeoutMs: 60_000,
    maxRetries: 6,
    retryBaseDelayMs: 200,
    deadNodeBaseMs: 500,
    deadNodeMaxMs: 2_000,
    onEvent: (e) => {
      events.push(e);
      hook?.(e);
    },
  });
}

/**
 * Requests stopped going to the dead node: it was marked dead after the kill started (`from`), and
 * answered nothing once the kill was done (`done`).
 */
function avoided(
  events: TransportEvent[],
  from: number,
  done: number,
  dead: { name: string; url: string },
) {
  assert.ok(
    events.slice(from).some((e) => e.type === "node-dead" && e.node === dead.url),
    `${dead.name} was marked dead`,
  );
  const answered = events.slice(done).filter((e) =>
    e.type === "request-end" && e.node === dead.url && e.status !== undefined
  );
  assert.deepEqual(answered, [], `the dead ${dead.name} answered nothing`);
}

/** After the kill: stop going to the dead node, come back once it is started again. */
async function backAfterRestart(
  conn: Connection,
  events: TransportEvent[],
  dead: { name: string; url: string },
): Promise<void> {
  await cluster("start", dead.name);
  await green();
  const from = events.length;
  for (let i = 0; i < 200; i++) {
    await conn.createStatement().executeQuery("GET /_cluster/health");
    const answered = events.slice(from).some((e) =>
      e.type === "request-end" && e.node === dead.url && e.status === 200
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`no request went back to ${dead.name} after it was started again`);
}

/** Every `n` of an index with how often it is there, read with a stream. */
async function census(conn: Connection, index: string): Promise<Map<number, number>> {
  await conn.createStatement().executeUpdate(`POST /${index}/_refresh`);
  const seen = new Map<number, number>();
  for await (const row of conn.stream(`POST /${index}/_search`, [], { pageSize: 2_000 })) {
    const n = JSON.parse(row._DOC as string).n as number;
    seen.set(n, (seen.get(n) ?? 0) + 1);
  }
  return seen;
}

const options = { ignore, sanitizeOps: false, sanitizeResources: false };

/** What each fault test gets: its own index (3 shards, 1 replica), the events, the node to kill. */
interface Fault {
  index: string;
  events: TransportEvent[];
  dead: { name: string; url: string };
}

let tests = 0;

/**
 * Runs a fault test on an index of its own; whatever happens, every node runs again afterwards
 * (the cluster green) and the index is deleted.
 */
function faultTest(name: string, fn: (fault: Fault) => Promise<void>) {
  Deno.test({
    ...options,
    name,
    fn: async () => {
      await green();
      const index = `faults_${++tests}_${Date.now()}`;
      await createIndex(index);
      try {
        await fn({ index, events: [], dead: await victim() });
      } finally {
        for (const n of names) await cluster("start", n);
        await green();
        await json(`/${index}`, { method: "DELETE" });
      }
    },
  });
}

faultTest(
  "real cluster: a node killed during a 20,000-document BulkWriter load — every item once",
  async ({ index, events, dead }) => {
    const total = 20_000;
    let killed: Promise<void> | undefined;
    let killedAt = -1;
    let killEvent = -1;
    let killStart = -1;
    let loaded = 0;
    // The kill is fired as a request to the victim starts, once a quarter of the load is in.
    await using conn = await dataSource(events, (e) => {
      if (
        killed === undefined && loaded >= total / 4 && e.type === "request-start" &&
        e.node === dead.url && e.operation === "bulk"
      ) {
        killedAt = loaded;
        killStart = events.length;
        // A moment after the request left, so that the node dies while it applies it.
        killed = new Promise((resolve) => setTimeout(resolve, 100))
          .then(() => cluster("kill", dead.name))
          .then(() => void (killEvent = events.length));
      }
    }).getConnection();
    const started = performance.now();
    // Half of the items carry the caller's id, half get ids from the writer.
    const writer = new BulkWriter<number>(conn, {
      index,
      flushDocs: 1_000,
      concurrency: 2,
      retries: 10,
      retryDelayMs: 250,
      operation: (n) => n % 2 === 0 ? { id: `own-${n}`, doc: { n } } : { doc: { n } },
      onProgress: (s) => loaded = s.successful,
    });
    const result = await writer.write(Array.from({ length: total }, (_, n) => n));
    const ms = Math.round(performance.now() - started);
    await killed;
    assert.ok(killedAt >= 0, "the node was killed during the load");
    const lost = events.filter((e) =>
      e.type === "request-end" && e.node === dead.url && e.operation === "bulk" &&
      e.status === undefined
    );
    const lostRequests = lost.length;
    const seen = await census(conn, index);
    const twice = [...seen.values()].filter((c) => c > 1).length;
    console.log(
      `bulk load of ${total} with ${dead.name} killed after ${killedAt} items: ` +
        `${result.successful} written, ${result.failed} reported (${result.outcomeUnknown} ` +
        `outcome unknown), ${result.resent} re-sent, ${result.retried} retried, ` +
        `${result.requests} requests, ${lostRequests} request(s) lost on the dead node, ` +
        `${seen.size} distinct in the index, ${twice} duplicates, ${ms} ms`,
    );
    assert.equal(result.successful + result.failed, total, "every item ends once");
    assert.equal(result.failed, 0, JSON.stringify(result.failures.slice(0, 3)));
    assert.equal(twice, 0, "no item twice");
    assert.equal(seen.size, total, "every item is there");
    avoided(events, killStart, killEvent, dead);
    await backAfterRestart(conn, events, dead);
  },
);

faultTest(
  "real cluster: without generated ids, a node killed mid-load — written once or reported",
  async ({ index, events, dead }) => {
    const total = 10_000;
    const reported = new Set<number>();
    let killed: Promise<void> | undefined;
    let loaded = 0;
    await using conn = await dataSource(events, (e) => {
      if (
        killed === undefined && loaded >= total / 4 && e.type === "request-start" &&
        e.node === dead.url && e.operation === "bulk"
      ) killed = cluster("kill", dead.name);
    }).getConnection();
    const writer = new BulkWriter<number>(conn, {
      index,
      flushDocs: 1_000,
      retries: 10,
      retryDelayMs: 250,
      generateIds: false,
      operation: (n) => ({ doc: { n } }),
      onProgress: (s) => loaded = s.successful,
      onFailure: (f) => reported.add(f.item),
      maxFailures: 0,
    });
    const result = await writer.write(Array.from({ length: total }, (_, n) => n));
    await killed;
    const seen = await census(conn, index);
    const twice = [...seen.values()].filter((c) => c > 1).length;
    const missing = Array.from({ length: total }, (_, n) => n).filter((n) =>
      !seen.has(n) && !reported.has(n)
    );
    console.log(
      `load of ${total} without ids, ${dead.name} killed: ${result.successful} written, ` +
        `${result.failed} reported (${result.outcomeUnknown} outcome unknown, of which ` +
        `${[...reported].filter((n) => seen.has(n)).length} had landed), ${twice} duplicates`,
    );
    assert.equal(result.successful + result.failed, total, "every item ends once");
    assert.equal(twice, 0, "an unknown item is never sent twice");
    assert.deepEqual(missing, [], "an item not reported is written");
    await backAfterRestart(conn, events, dead);
  },
);

// "auto" tries a point in time first; OpenSearch 2.19 refuses its `_shard_doc` tiebreaker, so
// the stream goes on with a scroll there (the log says which ran).
for (const mode of ["auto", "scroll"] as const) {
  faultTest(
    `real cluster: stream (${mode}) while a node holding its shard copies dies`,
    async ({ index, events, dead }) => {
      await using conn = await dataSource(events).getConnection();
      const total = 6_000;
      const loaded = await new BulkWriter(conn, { index, refresh: "true" })
        .write(Array.from({ length: total }, (_, n) => ({ n })));
      assert.equal(loaded.successful, total);
      const seen = new Set<number>();
      let outcome = "complete";
      const stream = conn.stream(`POST /${index}/_search {"sort": ["n"]}`, [], {
        pageSize: 500,
        mode,
      });
      try {
        for await (const row of stream) {
          seen.add(JSON.parse(row._DOC as string).n);
          if (seen.size === 1_000) await cluster("kill", dead.name);
        }
      } catch (error) {
        outcome = `${(error as Error).constructor.name} after ${seen.size} hits: ${
          (error as Error).message.slice(0, 300)
        }`;
        console.log(`stream (${mode}): ${outcome}`);
        assert.ok(error instanceof DataAccessError, String(error));
        assert.match(error.message, /stopped after \d+ hit/, "the error says where it stopped");
        if (error instanceof PartialResultsError) assert.equal(error.delivered, seen.size);
      }
      console.log(
        `stream (${mode}, ran as ${stream.mode}) with ${dead.name} killed after 1000 hits: ${outcome}`,
      );
      assert.ok(seen.size >= 1_000, "the node was killed during the stream");
      if (outcome === "complete") assert.equal(seen.size, total, "a complete stream has every hit");
      else assert.ok(seen.size < total);
      await backAfterRestart(conn, events, dead);
    },
  );
}

faultTest(
  "real cluster: single writes with ids through JdbcTemplate while a node dies — each ack there once",
  async ({ index, events, dead }) => {
    const ds = dataSource(events);
    const jdbc = new JdbcTemplate(ds);
    const acked: number[] = [];
    const errors: string[] = [];
    const total = 600;
    let afterKill = 0;
    let killed: Promise<void> | undefined;
    let killEvent = -1;
    let killStart = -1;
    for (let n = 0; n < total; n++) {
      if (n === 200) {
        // Fired while the next writes are under way.
        killStart = events.length;
        killed = cluster("kill", dead.name).then(() => void (killEvent = events.length));
      }
      try {
        const count = await jdbc.executeUpdate(`PUT /${index}/_doc/{?} {"n": ?}`, [`d${n}`, n]);
        assert.equal(count, 1);
        acked.push(n);
        if (n >= 200) afterKill++;
      } catch (error) {
        assert.ok(error instanceof DataAccessError, String(error));
        errors.push(`${n}: ${error.code} ${error.message.slice(0, 120)}`);
      }
    }
    await killed;
    await using conn = await ds.getConnection();
    const seen = await census(conn, index);
    const twice = [...seen.values()].filter((c) => c > 1).length;
    console.log(
      `${total} single writes, ${dead.name} killed at 200: ${acked.length} acknowledged ` +
        `(${afterKill} after the kill), ${errors.length} failed, ${seen.size} in the index, ` +
        `${twice} duplicates${errors.length ? "; first error " + errors[0] : ""}`,
    );
    assert.equal(twice, 0);
    assert.deepEqual(acked.filter((n) => seen.get(n) !== 1), [], "every acknowledged write once");
    assert.ok(afterKill > total - 200 - 10, "the loop went on against the surviving nodes");
    avoided(events, killStart, killEvent, dead);
    await backAfterRestart(conn, events, dead);
  },
);
