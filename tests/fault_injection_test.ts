// Fault injection over a real loopback proxy (tests/support/fault_proxy.ts) in front of the
// engine's HTTP server: for each fault the driver's answer is asserted, and then the exact number
// of documents in the engine — a write that is not idempotent is never applied twice, an
// idempotent one is retried to success, garbage never reads as rows.
import assert from "node:assert/strict";
import {
  type BulkOperation,
  BulkWriter,
  type Connection,
  ConnectionError,
  DataSource,
  InvalidResponseError,
  OutcomeUnknownError,
} from "../driver/mod.ts";
import { Engine, serve } from "../engine/mod.ts";
import { type Fault, FaultProxy } from "./support/fault_proxy.ts";

interface World {
  proxy: FaultProxy;
  conn: Connection;
  /** Documents in index `f`, read straight from the engine (not through the proxy). */
  count(): Promise<number>;
  source(id: string): Promise<Record<string, unknown>>;
}

async function withFaults(
  fn: (w: World) => Promise<void>,
  options: { timeoutMs?: number; nodes?: (proxyUrl: string, engineUrl: string) => string[] } = {},
): Promise<void> {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const proxy = new FaultProxy(server.url);
  const direct = await new DataSource({ nodes: [server.url] }).getConnection();
  await direct.createStatement().execute(
    'PUT /f {"mappings": {"properties": {"n": {"type": "integer"}}}}',
  );
  const ds = new DataSource({
    nodes: options.nodes ? options.nodes(proxy.url, server.url) : [proxy.url],
    indexRefresh: true,
    retryBaseDelayMs: 1,
    timeoutMs: options.timeoutMs ?? 2_000,
  });
  const conn = await ds.getConnection();
  const world: World = {
    proxy,
    conn,
    count: async () => {
      await direct.createStatement().execute("POST /f/_refresh");
      const rs = await direct.createStatement().executeQuery("GET /f/_count");
      rs.next();
      return rs.getNumber("COUNT") ?? -1;
    },
    source: async (id) => {
      const rs = await direct.createStatement().executeQuery("GET /f/_doc/{?}", [id]);
      assert.ok(rs.next(), `document ${id} exists`);
      return JSON.parse(rs.getString("_DOC")!);
    },
  };
  try {
    await fn(world);
  } finally {
    await conn.close();
    await direct.close();
    await proxy.close();
    await server.close();
    engine.close();
  }
}

const writes = (m: string) => m === "POST" || m === "PUT";

Deno.test("drop after apply: POST /f/_doc is not re-sent (1 document); PUT with an id is retried (still 1)", async () => {
  await withFaults(async ({ proxy, conn, count }) => {
    proxy.plan("drop-after-apply", writes);
    const error = await conn.createStatement()
      .executeUpdate('POST /f/_doc {"n": 1}').catch((e) => e);
    assert.ok(error instanceof OutcomeUnknownError, String(error));
    assert.equal(error.sent, true);
    assert.equal(proxy.count, 1);
    assert.equal(await count(), 1);

    proxy.plan("drop-after-apply", writes);
    assert.equal(await conn.createStatement().executeUpdate('PUT /f/_doc/a {"n": 2}'), 1);
    assert.equal(proxy.count, 3, "the idempotent PUT was sent twice");
    assert.equal(await count(), 2);
  });
});

for (const fault of ["502-after-apply", "504-after-apply"] as const) {
  Deno.test(`${fault}: script _update, _bulk and executeBatch are applied once; DELETE is retried`, async () => {
    await withFaults(async ({ proxy, conn, count, source }) => {
      await conn.createStatement().executeUpdate('PUT /f/_doc/c {"n": 1}');
      proxy.plan(fault, writes);
      const update = await conn.createStatement()
        .executeUpdate('POST /f/_update/c {"script": {"source": "ctx._source.n += 1"}}')
        .catch((e) => e);
      assert.ok(update instanceof OutcomeUnknownError, String(update));
      assert.equal(update.status, Number(fault.slice(0, 3)));
      assert.equal((await source("c")).n, 2, "the counter moved once");

      proxy.plan(fault, writes);
      const bulk = await conn.createStatement().executeUpdate(
        'POST /_bulk\n{"index": {"_index": "f"}}\n{"n": 10}\n{"index": {"_index": "f"}}\n{"n": 11}\n',
      ).catch((e) => e);
      assert.ok(bulk instanceof OutcomeUnknownError, String(bulk));
      assert.equal(await count(), 3);

      proxy.plan(fault, writes);
      const ps = conn.prepareStatement('POST /f/_doc {"n": ?}');
      for (const n of [20, 21, 22]) {
        ps.setObject(1, n);
        ps.addBatch();
      }
      await assert.rejects(ps.executeBatch(), OutcomeUnknownError);
      assert.equal(await count(), 6);

      proxy.plan(fault, (m) => m === "DELETE");
      const before = proxy.count;
      assert.equal(await conn.createStatement().executeUpdate("DELETE /f/_doc/c"), 0);
      assert.equal(proxy.count - before, 2, "DELETE was re-sent (the retry found it gone: 0)");
      assert.equal(await count(), 5);
    });
  });
}

Deno.test("429 before apply: every request is retried, POST /f/_doc included — exactly one document", async () => {
  await withFaults(async ({ proxy, conn, count }) => {
    proxy.plan("429-before-apply", writes, 2);
    assert.equal(await conn.createStatement().executeUpdate('POST /f/_doc {"n": 1}'), 1);
    assert.equal(proxy.count, 3);
    assert.equal(await count(), 1);
  });
});

Deno.test("stall after apply: a write times out as OutcomeUnknownError (1 document); a search is retried", async () => {
  await withFaults(async ({ proxy, conn, count }) => {
    proxy.plan("stall-after-apply", writes);
    const error = await conn.createStatement()
      .executeUpdate('POST /f/_doc {"n": 1}').catch((e) => e);
    assert.ok(error instanceof OutcomeUnknownError, String(error));
    assert.match(error.message, /no answer within 300 ms/);
    assert.equal(await count(), 1);

    proxy.plan("stall-before-apply", (_m, p) => p.includes("_search"));
    const rs = await conn.createStatement().executeQuery(
      'POST /f/_search {"query": {"match_all": {}}}',
    );
    assert.equal(rs.toArray().length, 1);
    assert.equal(proxy.seen.filter((s) => s.request.includes("_search")).length, 2);
  }, { timeoutMs: 300 });
});

Deno.test("HTML 200 and truncated 200 never read as rows or counts", async () => {
  await withFaults(async ({ proxy, conn, count }) => {
    await conn.createStatement().executeUpdate('PUT /f/_doc/a {"n": 1}');
    const cases: [Fault, string, (e: unknown) => boolean, number][] = [
      [
        "html-200",
        'POST /f/_search {"query": {"match_all": {}}}',
        (e) => e instanceof InvalidResponseError,
        1,
      ],
      ["html-200", 'POST /f/_doc {"n": 2}', (e) => e instanceof InvalidResponseError, 1],
      [
        "truncated-json",
        'POST /f/_search {"query": {"match_all": {}}}',
        (e) => e instanceof InvalidResponseError,
        1,
      ],
      ["truncated-json", "GET /f/_count", (e) => e instanceof InvalidResponseError, 1],
      ["truncated-json", 'POST /f/_doc {"n": 3}', (e) => e instanceof InvalidResponseError, 2],
      [
        "truncated-close",
        'POST /f/_doc {"n": 4}',
        (e) => e instanceof OutcomeUnknownError && e.status === 201,
        3,
      ],
    ];
    for (const [fault, command, expected, docs] of cases) {
      proxy.plan(fault);
      const error = await conn.createStatement().execute(command).catch((e) => e);
      assert.ok(expected(error), `${fault} on ${command}: ${error}`);
      assert.equal(await count(), docs, `${fault} on ${command}`);
    }
    proxy.plan("truncated-close");
    const rs = await conn.createStatement().executeQuery("GET /f/_doc/a");
    assert.ok(rs.next(), "a truncated read is retried and reads the document");
  });
});

Deno.test("a node that stalls is marked dead; the other node serves every request meanwhile", async () => {
  await withFaults(async ({ proxy, conn, count }) => {
    proxy.plan("stall-before-apply", () => true, 1_000);
    for (let k = 0; k < 6; k++) {
      assert.equal(await conn.createStatement().executeUpdate(`PUT /f/_doc/${k} {"n": ${k}}`), 1);
    }
    assert.equal(proxy.count, 1, "after its first stall the proxy node is skipped");
    assert.equal(await count(), 6);
  }, { timeoutMs: 200, nodes: (proxyUrl, engineUrl) => [proxyUrl, engineUrl] });
});

Deno.test("a refused port: connect-phase failures are retried even for POST /f/_doc, and the error names the node and the code", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const ds = new DataSource({
    nodes: [`http://elastic:Pw-Sentinel@127.0.0.1:${port}`],
    maxRetries: 2,
    retryBaseDelayMs: 1,
  });
  const conn = await ds.getConnection();
  const error = await conn.createStatement().executeUpdate('POST /f/_doc {"n": 1}').catch((e) => e);
  assert.ok(error instanceof ConnectionError, String(error));
  assert.match(
    error.message,
    new RegExp(`Could not reach http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`),
  );
  assert.match(error.message, /after 3 attempt/);
  assert.equal(error.causeCode, "ECONNREFUSED");
  assert.equal(error.node, `http://127.0.0.1:${port}`);
  assert.doesNotMatch(error.message + error.stack + JSON.stringify(error), /Pw-Sentinel/);
  await conn.close();
});

for (const fault of ["drop-after-apply", "502-after-apply", "504-after-apply"] as const) {
  Deno.test(`${fault} of a BulkWriter request: every item written once or reported, the load goes on`, async () => {
    await withFaults(async ({ proxy, conn, count }) => {
      // The 1st and the 4th `_bulk` (batches 1 and 3: the 2nd is the re-send) are applied, then lost.
      let n = 0;
      const bulks = (_m: string, path: string) => path.startsWith("/_bulk") && [1, 4].includes(++n);
      const items = Array.from({ length: 600 }, (_, i) => i);
      // Every 100th item is a create with the caller's id (not idempotent); the rest get ids.
      const operation = (i: number): BulkOperation =>
        i % 100 === 0 ? { action: "create", id: `own-${i}`, doc: { n: i } } : { doc: { n: i } };
      proxy.plan(fault, bulks, 2);
      const result = await new BulkWriter<number>(conn, {
        index: "f",
        flushDocs: 100,
        concurrency: 1,
        retryDelayMs: 1,
        operation,
      }).write(items);
      const lost = result.failures.map((f) => f.item);
      assert.equal(result.successful + result.failed, 600, "every item ends once");
      assert.ok(result.failures.every((f) => f.outcomeUnknown), "only outcome-unknown reports");
      assert.deepEqual(lost, [0, 200], "the caller's creates of the two lost requests");
      assert.equal(result.resent, 198, "the other items of the two lost requests went again");
      assert.equal(result.requests, 8, "6 batches, 2 re-sends");
      // The lost requests were applied: their two creates are there, and nothing twice.
      assert.equal(await count(), 600);
      assert.equal(proxy.seen.filter((s) => s.fault !== undefined).length, 2);
    });
  });
}
