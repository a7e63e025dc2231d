// BulkWriter / JdbcTemplate.bulkWriter on every backend of the behaviour suite (tests/README.md): every source kind, batching
// by count, bytes and time, the concurrency bound and the producer's wait, per-item 429 retries
// (only those items, with backoff), per-item failures with their document, whole-request errors
// (refused: reported; outcome unknown: idempotent items re-sent, the others reported), ids.
import assert from "node:assert/strict";
import {
  BindError,
  type BulkOperation,
  BulkWriter,
  type Connection,
  DataSource,
} from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { type BackendScope, backendTest, suiteIndex } from "./support/backend.ts";
import { JdbcTemplate } from "../template/mod.ts";

const W = suiteIndex("w");
const ITEMS = suiteIndex("items");

interface Rig {
  conn: Connection;
  bodies: string[];
  /** Rewrites each `_bulk` response body before the client sees it. */
  rewrite?: (json: { items: Record<string, Record<string, unknown>>[] }, n: number) => void;
  /** Holds each `_bulk` request until this resolves. */
  gate?: () => Promise<void>;
  maxInFlight: number;
  failStatus?: number;
}

async function rig(t: BackendScope): Promise<Rig> {
  let inFlight = 0;
  const r: Rig = { conn: undefined as unknown as Connection, bodies: [], maxInFlight: 0 };
  const fetch = async (url: string, init: RequestInit) => {
    if (!url.includes("_bulk")) return t.fetch(url, init);
    r.bodies.push(String(init.body));
    inFlight++;
    r.maxInFlight = Math.max(r.maxInFlight, inFlight);
    try {
      await r.gate?.();
      if (r.failStatus) {
        return Response.json({ error: "boom", status: r.failStatus }, { status: r.failStatus });
      }
      const res = await t.fetch(url, init);
      if (!r.rewrite) return res;
      const json = await res.json();
      r.rewrite(json, r.bodies.length);
      return Response.json(json);
    } finally {
      inFlight--;
    }
  };
  r.conn = await t.dataSource({ fetch, maxRetries: 0 }).getConnection();
  await r.conn.createStatement().executeUpdate(
    `PUT /${W} {"mappings": {"properties": {"n": {"type": "integer"}}}}`,
  );
  return r;
}

const count = async (conn: Connection) => {
  await conn.createStatement().executeUpdate(`POST /${W}/_refresh`);
  const rs = await conn.createStatement().executeQuery(`POST /${W}/_count`);
  rs.next();
  return rs.getInt("COUNT");
};

backendTest(
  "bulk writer: arrays, iterables, async iterables and ReadableStreams, batched by count",
  async (t) => {
    const r = await rig(t);
    const docs = (from: number) => Array.from({ length: 50 }, (_, i) => ({ n: from + i }));
    function* sync() {
      yield* docs(50);
    }
    async function* asyncGen() {
      for (const d of docs(100)) yield d;
    }
    const stream = ReadableStream.from(docs(150));
    for (const source of [docs(0), sync(), asyncGen(), stream]) {
      const result = await new BulkWriter(r.conn, { index: W, flushDocs: 20 }).write(source);
      assert.deepEqual([result.total, result.successful, result.failed, result.requests], [
        50,
        50,
        0,
        3,
      ]);
    }
    assert.equal(await count(r.conn), 200);
    assert.equal(r.bodies.length, 12);
    assert.equal(r.bodies[0]!.split("\n").length, 41); // 20 action + 20 source lines + final ""
  },
);

backendTest(
  "bulk writer: a batch leaves by bytes, and by time when the producer pauses",
  async (t) => {
    const r = await rig(t);
    const writer = new BulkWriter(r.conn, { index: W, flushBytes: 200, flushIntervalMs: 30 });
    for (let i = 0; i < 6; i++) await writer.add({ n: i, pad: "x".repeat(40) });
    assert.ok(r.bodies.length >= 2, "the 200-byte limit sent batches before close");
    assert.ok(r.bodies.every((b) => new TextEncoder().encode(b).length < 200 + 120));
    const before = r.bodies.length;
    await writer.add({ n: 99 });
    // Sent by the 30 ms interval, before close(): waited for without a deadline on the server's
    // speed (a real cluster may still be answering the earlier batches).
    for (let i = 0; i < 500 && r.bodies.length === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(r.bodies.length, before + 1, "the interval flushed the lone item");
    const result = await writer.close();
    assert.equal(result.successful, 7);
  },
);

backendTest(
  "bulk writer: never more than `concurrency` requests, and the producer waits",
  async (t) => {
    const r = await rig(t);
    let open: (() => void)[] = [];
    r.gate = () => new Promise<void>((resolve) => open.push(resolve));
    let pulled = 0;
    function* produce() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield { n: i };
      }
    }
    const done = new BulkWriter(r.conn, { index: W, flushDocs: 10, concurrency: 2 }).write(
      produce(),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Two requests held open, a third batch waiting for a slot: the producer stopped there.
    assert.equal(r.bodies.length, 2);
    assert.equal(pulled, 30);
    while (r.bodies.length < 10 || open.length > 0) {
      const release = open;
      open = [];
      release.forEach((f) => f());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const result = await done;
    assert.equal(result.successful, 100);
    assert.equal(r.maxInFlight, 2);
  },
);

backendTest(
  "bulk writer: only the items that got 429 are sent again, with backoff; others are reported",
  async (t) => {
    const r = await rig(t);
    r.rewrite = (json, n) => {
      if (n === 1) {
        for (const i of [1, 3]) {
          json.items[i] = {
            index: {
              status: 429,
              error: { type: "es_rejected_execution_exception", reason: "queue full" },
            },
          };
        }
      }
    };
    const docs = [{ n: 0 }, { n: 1 }, { n: "two" }, { n: 3 }];
    const result = await new BulkWriter(r.conn, { index: W, retryDelayMs: 1 }).write(docs);
    assert.equal(r.bodies.length, 2);
    const second = r.bodies[1]!.trim().split("\n");
    assert.deepEqual(second.filter((_, i) => i % 2 === 1).map((l) => JSON.parse(l).n), [1, 3]);
    assert.deepEqual([result.successful, result.failed, result.retried], [3, 1, 2]);
    assert.deepEqual(result.failures[0]!.item, { n: "two" });
    assert.equal(result.failures[0]!.status, 400);
    // Elasticsearch 8.8 renamed the type; OpenSearch keeps the old name.
    const parsing = t.info.flavour === "elasticsearch" && !(t.info.major < 8)
      ? "document_parsing_exception"
      : "mapper_parsing_exception";
    assert.equal(result.failures[0]!.error.type, parsing);
  },
);

backendTest(
  "bulk writer: a 429 that outlasts the retries is a failure with its document",
  async (t) => {
    const r = await rig(t);
    r.rewrite = (json) => {
      json.items[0] = {
        index: { status: 429, error: { type: "es_rejected_execution_exception", reason: "busy" } },
      };
    };
    const seen: unknown[] = [];
    const result = await new BulkWriter(r.conn, {
      index: W,
      retries: 2,
      retryDelayMs: 1,
      onFailure: (f) => seen.push(f.item),
    }).write([{ n: 1 }]);
    assert.equal(r.bodies.length, 3);
    assert.deepEqual([result.failed, result.retried, result.failures[0]!.status], [1, 2, 429]);
    assert.deepEqual(seen, [{ n: 1 }]);
  },
);

backendTest(
  "bulk writer: a request the server refuses reports its items and the load goes on",
  async (t) => {
    const r = await rig(t);
    const writer = new BulkWriter(r.conn, { index: W, flushDocs: 2, concurrency: 1 });
    r.failStatus = 400;
    await writer.add({ n: 1 });
    await writer.add({ n: 2 });
    r.failStatus = undefined;
    await writer.add({ n: 3 });
    const result = await writer.close();
    assert.equal(r.bodies.length, 2, "the refused request is not sent again");
    assert.deepEqual([result.total, result.successful, result.failed, result.outcomeUnknown], [
      3,
      1,
      2,
      0,
    ]);
    assert.deepEqual(result.failures.map((f) => [f.item, f.status]), [[{ n: 1 }, 400], [
      { n: 2 },
      400,
    ]]);
    assert.equal(await count(r.conn), 1);
  },
);

backendTest(
  "bulk writer: items without an id get 20-character URL-safe ids, returned by position",
  async (t) => {
    const r = await rig(t);
    const result = await new BulkWriter<{ id?: string; n: number }>(r.conn, {
      index: W,
      refresh: "true",
      operation: (d) => d.id ? { id: d.id, doc: { n: d.n } } : { doc: { n: d.n } },
    }).write([{ n: 0 }, { id: "own", n: 1 }, { n: 2 }]);
    const [a, own, c] = result.generatedIds;
    assert.equal(own, undefined, "the caller's id is the caller's");
    for (const id of [a, c]) assert.match(id!, /^[A-Za-z0-9_-]{20}$/);
    assert.notEqual(a, c);
    assert.match(
      r.bodies[0]!,
      new RegExp(`"_id":"${a}"`),
      "the id was sent, not made by the server",
    );
    const rs = await r.conn.createStatement().executeQuery(`GET /${W}/_doc/{?}`, [c!]);
    assert.ok(rs.next());
    assert.equal(JSON.parse(rs.getString("_DOC")!).n, 2);

    const off = await new BulkWriter(r.conn, { index: W, generateIds: false }).write([{ n: 5 }]);
    assert.deepEqual(off.generatedIds, [undefined]);
    assert.doesNotMatch(r.bodies[1]!, /"_id"/);
  },
);

backendTest("bulk writer: item answers of 503 are retried with backoff like 429s", async (t) => {
  const r = await rig(t);
  r.rewrite = (json, n) => {
    if (n > 1) return;
    const item = Object.values(json.items[1]!)[0]!;
    item.status = 503;
    item.error = { type: "unavailable_shards_exception", reason: "primary shard is not active" };
  };
  // Rewriting the answer does not undo the write: use ids, so the retry overwrites it.
  const result = await new BulkWriter<number>(r.conn, {
    index: W,
    retryDelayMs: 1,
    operation: (n) => ({ id: `d${n}`, doc: { n } }),
  }).write([1, 2, 3]);
  assert.equal(r.bodies.length, 2);
  assert.equal(r.bodies[1]!.split("\n").length - 1, 2, "only the 503 item went again");
  assert.deepEqual([result.successful, result.failed, result.retried], [3, 0, 1]);
  assert.equal(await count(r.conn), 3);
});

/** A rig whose `_bulk` requests are applied and then fail on the way back, `times` times. */
async function lossy(fail: (n: number) => Error | Response | undefined) {
  const engine = new Engine();
  const bodies: string[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const res = await engine.fetch(url, init);
    if (!url.includes("_bulk")) return res;
    bodies.push(String(init.body));
    const fault = fail(bodies.length);
    if (fault instanceof Error) throw fault;
    return fault ?? res;
  };
  const conn = await new DataSource({ nodes: ["http://engine"], fetch, retryBaseDelayMs: 1 })
    .getConnection();
  await conn.createStatement().executeUpdate(
    `PUT /${W} {"mappings": {"properties": {"n": {"type": "integer"}}}}`,
  );
  return { engine, conn, bodies };
}

type Op = { action?: "index" | "create" | "update" | "delete"; id?: string; n: number };
const asOperation = (o: Op): BulkOperation => ({
  action: o.action,
  ...(o.id ? { id: o.id } : {}),
  ...(o.action === "delete" ? {} : { doc: { n: o.n } }),
});

for (
  const [name, fault] of [
    [
      "a connection reset after the request was sent",
      () => new TypeError("connection reset (os error 104)"),
    ],
    [
      "a gateway's 502 page",
      () =>
        new Response("<html>Bad Gateway</html>", {
          status: 502,
          headers: { "content-type": "text/html" },
        }),
    ],
  ] as const
) {
  Deno.test(`bulk writer: after ${name}, idempotent items are sent again and the others reported`, async () => {
    const r = await lossy((n) => n === 1 ? fault() : undefined);
    await r.conn.createStatement().executeUpdate(`PUT /${W}/_doc/old {"n": -1}`);
    await r.conn.createStatement().executeUpdate(`PUT /${W}/_doc/gone {"n": -2}`);
    const ops: Op[] = [
      { n: 1 }, // index, generated id: re-sent
      { id: "a", n: 2 }, // index with the caller's id: re-sent
      { action: "create", n: 3 }, // create, generated id: re-sent, its 409 counts as written
      { action: "create", id: "c", n: 4 }, // create with the caller's id: reported
      { action: "update", id: "old", n: 5 }, // update: reported
      { action: "delete", id: "gone", n: 6 }, // delete: reported
    ];
    const failed: Op[] = [];
    const result = await new BulkWriter<Op>(r.conn, {
      index: W,
      refresh: "true",
      retryDelayMs: 1,
      operation: asOperation,
      onFailure: (f) => failed.push(f.item),
    }).write(ops);
    assert.equal(r.bodies.length, 2);
    assert.equal(r.bodies[1]!.split("\n").length - 1, 6, "three items (two lines each) went again");
    assert.deepEqual(
      [result.total, result.successful, result.failed, result.outcomeUnknown, result.resent],
      [6, 3, 3, 3, 3],
    );
    assert.deepEqual(failed, ops.slice(3));
    assert.ok(result.failures.every((f) => f.outcomeUnknown && f.error.type === "outcome_unknown"));
    // Applied once each: 2 old − 1 deleted + 4 new (3 created or indexed, 1 created with "c").
    assert.equal(await count(r.conn), 5);
    r.engine.close();
  });
}

Deno.test("bulk writer: without generated ids a document without id is reported, never doubled", async () => {
  const r = await lossy((n) =>
    n === 1 ? new TypeError("connection reset (os error 104)") : undefined
  );
  const result = await new BulkWriter(r.conn, { index: W, generateIds: false, retryDelayMs: 1 })
    .write([{ n: 1 }, { n: 2 }]);
  assert.deepEqual([result.successful, result.outcomeUnknown, r.bodies.length], [0, 2, 1]);
  assert.equal(await count(r.conn), 2, "applied once by the lost request");
  r.engine.close();
});

Deno.test("bulk writer: an idempotent item whose re-sends stay unknown is reported after its retries", async () => {
  const r = await lossy(() => new TypeError("connection reset (os error 104)"));
  const result = await new BulkWriter(r.conn, { index: W, retries: 2, retryDelayMs: 1 })
    .write([{ n: 1 }]);
  assert.equal(r.bodies.length, 3);
  assert.deepEqual([result.successful, result.failed, result.outcomeUnknown, result.resent], [
    0,
    1,
    1,
    2,
  ]);
  assert.match(result.failures[0]!.error.reason, /sent again 2 time/);
  assert.equal(await count(r.conn), 1, "the same id each time: one document");
  r.engine.close();
});

Deno.test("bulk writer: when no node can be reached nothing was sent, so every item goes again", async () => {
  const engine = new Engine();
  let refused = 2;
  const fetch = (url: string, init: RequestInit) => {
    if (url.includes("_bulk") && refused-- > 0) {
      return Promise.reject(new TypeError("tcp connect error: Connection refused (os error 111)"));
    }
    return engine.fetch(url, init);
  };
  const conn = await new DataSource({ nodes: ["http://engine"], fetch, maxRetries: 0 })
    .getConnection();
  const result = await new BulkWriter<Op>(conn, {
    index: W,
    refresh: "true",
    retryDelayMs: 1,
    operation: asOperation,
  }).write([{ action: "create", id: "x", n: 1 }, { n: 2 }]);
  assert.deepEqual([result.successful, result.failed, result.retried], [2, 0, 4]);
  assert.equal(await count(conn), 2);
  engine.close();
});

backendTest("bulk writer: a bad item is a BindError naming its position", async (t) => {
  const r = await rig(t);
  const writer = new BulkWriter<unknown>(r.conn, { index: W });
  await writer.add({ n: 1 });
  await assert.rejects(
    writer.add("not a document"),
    (e: unknown) => e instanceof BindError && /Bulk item 1/.test(e.message),
  );
  const noIndex = new BulkWriter(r.conn);
  await assert.rejects(noIndex.add({ n: 1 }), /no index/);
  const del = new BulkWriter(r.conn, { index: W, operation: () => ({ action: "delete" }) });
  await assert.rejects(del.add({}), /delete needs an id/);
  assert.throws(() => new BulkWriter(r.conn, { concurrency: 0 }), RangeError);
  await writer.close();
});

backendTest(
  "JdbcTemplate.bulkWriter: entities by their metadata, operations for updates and deletes",
  async (t) => {
    const jdbc = new JdbcTemplate(t.dataSource());
    class Item {
      id = "";
      n = 0;
    }
    const { defineEntity } = await import("../template/mod.ts");
    defineEntity(Item, { index: ITEMS, key: "id", fields: { n: "count" } });
    const items = Array.from(
      { length: 30 },
      (_, i) => Object.assign(new Item(), { id: `i${i}`, n: i }),
    );
    const loaded = await jdbc.bulkWriter<Item>({ flushDocs: 7 }).write(items);
    assert.deepEqual([loaded.successful, loaded.requests], [30, 5]);
    const ops = await jdbc.bulkWriter<string>({
      index: ITEMS,
      refresh: "true",
      operation: (id) =>
        id.endsWith("0") ? { action: "delete", id } : { action: "update", id, doc: { count: -1 } },
    }).write(["i0", "i1", "i10", "i2", "missing"]);
    assert.deepEqual([ops.successful, ops.failed], [4, 1]);
    assert.equal(ops.failures[0]!.error.type, "document_missing_exception");
    assert.equal(await jdbc.queryForNumber(`POST /${ITEMS}/_count`), 28);
    const doc = await jdbc.queryForObject(`GET /${ITEMS}/_doc/i1`, [], Item);
    assert.deepEqual({ ...doc }, { id: "i1", n: -1 });
  },
);

backendTest(
  "bulk writer: close waits for a batch the timer started while every slot was busy",
  async (t) => {
    const r = await rig(t);
    const open: (() => void)[] = [];
    r.gate = () => new Promise<void>((resolve) => open.push(resolve));
    const writer = new BulkWriter(r.conn, {
      index: W,
      flushDocs: 2,
      flushIntervalMs: 10,
      concurrency: 1,
    });
    await writer.add({ n: 1 });
    await writer.add({ n: 2 }); // batch 1 takes the only slot and is held
    await writer.add({ n: 3 }); // the timer's batch will wait for the slot
    await new Promise((resolve) => setTimeout(resolve, 40));
    const closing = writer.close();
    // From here every batch goes through: the held one now, the timer's whenever its slot frees
    // (however long the backend takes to answer the first).
    r.gate = undefined;
    open.splice(0).forEach((f) => f());
    const result = await closing;
    assert.deepEqual([result.successful, result.requests], [3, 2]);
    assert.equal(await count(r.conn), 3);
  },
);
