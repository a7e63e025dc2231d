// BulkWriter / JdbcTemplate.bulkWriter on every backend of the behaviour suite (tests/README.md): every source kind, batching
// by count, bytes and time, the concurrency bound and the producer's wait, per-item 429 retries
// (only those items, with backoff), per-item failures with their document, whole-request errors.
import assert from "node:assert/strict";
import { BindError, BulkWriter, type Connection, ResponseError } from "../driver/mod.ts";
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
    if (!url.includes("_bulk")) return globalThis.fetch(url, init);
    r.bodies.push(String(init.body));
    inFlight++;
    r.maxInFlight = Math.max(r.maxInFlight, inFlight);
    try {
      await r.gate?.();
      if (r.failStatus) {
        return Response.json({ error: "boom", status: r.failStatus }, { status: r.failStatus });
      }
      const res = await globalThis.fetch(url, init);
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

backendTest("bulk writer: a failed request stops the writer and is not sent again", async (t) => {
  const r = await rig(t);
  r.failStatus = 400;
  const writer = new BulkWriter(r.conn, { index: W, flushDocs: 2, concurrency: 1 });
  await assert.rejects(writer.write([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]), ResponseError);
  assert.equal(r.bodies.length, 1);
  await assert.rejects(writer.add({ n: 5 }), ResponseError);
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
    for (let i = 0; i < 20 && r.bodies.length < 2; i++) {
      open.splice(0).forEach((f) => f());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    open.splice(0).forEach((f) => f());
    const result = await closing;
    assert.deepEqual([result.successful, result.requests], [3, 2]);
    assert.equal(await count(r.conn), 3);
  },
);
