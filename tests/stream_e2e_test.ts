// Streaming every hit (Connection.stream, JdbcTemplate.stream) against the embedded engine:
// point in time in both flavours, scroll where there is none, and the point in time or scroll
// closed on completion, on error, on abort and when the consumer stops early.
import assert from "node:assert/strict";
import { DataSource, IllegalStateError, ResponseError } from "../driver/mod.ts";
import { Engine, type EngineOptions, serve } from "../engine/mod.ts";
import { defineEntity, JdbcTemplate } from "../template/mod.ts";

interface Setup {
  engine: Engine;
  ds: DataSource;
  sent: string[];
  /** Makes the n-th request from now (1-based) answer with this status and error body. */
  failNth(n: number, status: number): void;
}

async function setup(docs: number, options: EngineOptions = {}): Promise<Setup> {
  const engine = new Engine({ refreshIntervalMs: -1, ...options });
  const sent: string[] = [];
  let failAt = 0;
  let failStatus = 0;
  const fetch = (url: string, init: RequestInit) => {
    sent.push(`${init.method} ${new URL(url).pathname}`);
    if (failAt > 0 && --failAt === 0) {
      return Promise.resolve(Response.json({
        error: { type: "injected_exception", reason: "injected", root_cause: [] },
        status: failStatus,
      }, { status: failStatus }));
    }
    return engine.fetch(url, init);
  };
  const ds = new DataSource({ nodes: ["http://engine"], fetch, maxRetries: 0 });
  const lines = ["POST /hits/_bulk?refresh=true"];
  for (let i = 0; i < docs; i++) {
    lines.push(`{"index":{"_id":"${i}"}}`, `{"n":${i},"group":${i % 3}}`);
  }
  await (await ds.getConnection()).createStatement().executeUpdate(lines.join("\n") + "\n");
  sent.length = 0;
  return {
    engine,
    ds,
    sent,
    failNth(n, status) {
      failAt = n;
      failStatus = status;
    },
  };
}

/** Open points in time (OpenSearch lists them) and open scrolls (a search on the id fails). */
async function openPits(engine: Engine): Promise<number> {
  const res = await engine.fetch("http://engine/_search/point_in_time/_all");
  return ((await res.json()) as { pits: unknown[] }).pits.length;
}

Deno.test("stream: every hit once, in sort order, over a point in time (ES) and it is closed", async () => {
  const { engine, ds, sent } = await setup(2_345);
  const conn = await ds.getConnection();
  const stream = conn.stream('POST /hits/_search {"sort": [{"group": "asc"}, {"n": "desc"}]}', [], {
    pageSize: 500,
  });
  const seen: number[] = [];
  const groups: number[] = [];
  for await (const row of stream) {
    const doc = JSON.parse(row._DOC as string);
    seen.push(doc.n);
    groups.push(doc.group);
  }
  assert.equal(stream.mode, "pit");
  assert.equal(seen.length, 2_345);
  assert.equal(new Set(seen).size, 2_345);
  assert.deepEqual(groups, [...groups].sort((a, b) => a - b));
  assert.equal(sent.filter((s) => s === "POST /hits/_pit").length, 1);
  assert.equal(sent.filter((s) => s === "POST /_search").length, 5); // 4 full pages + a short one
  assert.equal(sent.at(-1), "DELETE /_pit");
  engine.close();
});

Deno.test("stream: OpenSearch point in time, closed on completion and on break", async () => {
  const { engine, ds, sent } = await setup(120, { flavour: "opensearch" });
  const conn = await ds.getConnection();
  const ids = [];
  for await (const row of conn.stream("GET /hits/_search", [], { pageSize: 50 })) ids.push(row._ID);
  assert.equal(new Set(ids).size, 120);
  assert.ok(sent.includes("POST /hits/_search/point_in_time"));
  assert.equal(sent.at(-1), "DELETE /_search/point_in_time");
  assert.equal(await openPits(engine), 0);

  let rows = 0;
  for await (const _ of conn.stream('POST /hits/_search {"size": 10}')) {
    if (++rows === 15) break; // mid second page, the third is being fetched ahead
  }
  assert.equal(await openPits(engine), 0);
  engine.close();
});

Deno.test("stream: an error on a later page closes the point in time and reaches the caller", async () => {
  const { engine, ds, sent, failNth } = await setup(100, { flavour: "opensearch" });
  const conn = await ds.getConnection();
  failNth(4, 500); // GET /, open, page 1, then page 2 fails
  let rows = 0;
  await assert.rejects(async () => {
    for await (const _ of conn.stream("POST /hits/_search", [], { pageSize: 30 })) rows++;
  }, (e: unknown) => e instanceof ResponseError && e.status === 500);
  assert.equal(rows, 30);
  assert.equal(sent.at(-1), "DELETE /_search/point_in_time");
  assert.equal(await openPits(engine), 0);
  engine.close();
});

Deno.test("stream: a throw in the consumer's loop closes the point in time", async () => {
  const { engine, ds, sent } = await setup(50, { flavour: "opensearch" });
  const conn = await ds.getConnection();
  await assert.rejects(async () => {
    for await (const _ of conn.stream("POST /hits/_search", [], { pageSize: 20 })) {
      throw new Error("consumer failed");
    }
  }, /consumer failed/);
  assert.equal(sent.at(-1), "DELETE /_search/point_in_time");
  assert.equal(await openPits(engine), 0);
  engine.close();
});

Deno.test("stream: scroll on a server without point in time (ES 7.10), cleared at the end", async () => {
  const { engine, ds, sent } = await setup(205, { version: "7.10.2" });
  const conn = await ds.getConnection();
  const stream = conn.stream('POST /hits/_search {"query": {"range": {"n": {"gte": 5}}}}', [], {
    pageSize: 100,
  });
  const ids = new Set<unknown>();
  for await (const row of stream) ids.add(row._ID);
  assert.equal(stream.mode, "scroll");
  assert.equal(ids.size, 200);
  assert.ok(sent.includes("POST /hits/_search"));
  assert.equal(sent.filter((s) => s === "POST /_search/scroll").length, 1); // total reached: no empty page
  assert.equal(sent.at(-1), "DELETE /_search/scroll");
  engine.close();
});

Deno.test("stream: mode scroll forced, broken early: the scroll is cleared", async () => {
  const { engine, ds } = await setup(60);
  const conn = await ds.getConnection();
  let scrollId: string | undefined;
  for await (
    const rs of conn.stream("POST /hits/_search", [], { pageSize: 25, mode: "scroll" }).pages()
  ) {
    scrollId = rs.scrollId;
    break;
  }
  assert.ok(scrollId);
  const again = await engine.fetch("http://engine/_search/scroll", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scroll_id: scrollId }),
  });
  assert.equal(again.status, 404); // the scroll context is gone
  engine.close();
});

Deno.test("stream: an abort signal stops the stream with the caller's reason and closes the point in time", async () => {
  const { engine, ds } = await setup(100, { flavour: "opensearch" });
  const conn = await ds.getConnection();
  const controller = new AbortController();
  let rows = 0;
  await assert.rejects(async () => {
    const stream = conn.stream("POST /hits/_search", [], {
      pageSize: 10,
      signal: controller.signal,
    });
    for await (const _ of stream) {
      if (++rows === 10) controller.abort(new Error("enough"));
    }
  }, /^Error: enough$/);
  assert.equal(await openPits(engine), 0);
  engine.close();
});

Deno.test("stream: commands it cannot stream are refused with the reason, before sending", async () => {
  const { engine, ds, sent } = await setup(1);
  const conn = await ds.getConnection();
  const cases: [string, RegExp][] = [
    ['POST /hits/_search {"from": 20}', /"from": 20 cannot be used/],
    ['POST /hits/_search {"search_after": [1]}', /"search_after" is the stream's to set/],
    ["POST /hits/_search?scroll=1m", /scroll parameter is the stream's to set/],
    ["POST /hits/_count", /takes one GET\|POST \/index\/_search command/],
    ["POST /hits/_search\nPOST /hits/_search", /exactly one search command, got 2/],
    ['POST /hits/_search {"size": 0}', /page size must be a whole number ≥ 1, got 0/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => conn.stream(text),
      (e: unknown) => e instanceof IllegalStateError && message.test(e.message),
      text,
    );
  }
  assert.throws(
    () => conn.stream("POST /hits/_search", [], { keepAlive: "soon" }),
    /keepAlive "soon"/,
  );
  assert.deepEqual(sent, []);
  engine.close();
});

Deno.test("JdbcTemplate.stream: entities over HTTP, named arguments, one connection per stream", async () => {
  const server = await serve(new Engine(), { port: 0 });
  try {
    const jdbc = new JdbcTemplate(new DataSource({ nodes: [server.url] }));
    class Hit {
      id = "";
      n = 0;
    }
    defineEntity(Hit, { index: "hits", key: "id" });
    const lines = ["POST /hits/_bulk?refresh=true"];
    for (let i = 0; i < 1_000; i++) lines.push(`{"index":{"_id":"h${i}"}}`, `{"n":${i}}`);
    await jdbc.executeUpdate(lines.join("\n") + "\n");
    const hits: Hit[] = [];
    const cmd =
      'POST /hits/_search {"query": {"range": {"n": {"lt": #{below}}}}, "sort": [{"n": "asc"}]}';
    for await (const hit of jdbc.stream(cmd, { below: 700 }, Hit, { pageSize: 64 })) hits.push(hit);
    assert.equal(hits.length, 700);
    assert.ok(hits[0] instanceof Hit);
    assert.deepEqual(hits.slice(0, 2).map((h) => ({ ...h })), [{ id: "h0", n: 0 }, {
      id: "h1",
      n: 1,
    }]);
    assert.deepEqual(hits.map((h) => h.n), [...Array(700).keys()]);
    const rows = [];
    for await (
      const row of jdbc.stream('POST /hits/_search {"size": 300}', [], { mode: "scroll" })
    ) {
      rows.push(row);
    }
    assert.equal(rows.length, 1_000);
    assert.deepEqual(Object.keys(rows[0]!), ["_ID", "_DOC"]);
  } finally {
    await server.close();
  }
});

Deno.test("stream: an error on a later scroll page clears the scroll and reaches the caller", async () => {
  const { engine, ds, sent, failNth } = await setup(90);
  const conn = await ds.getConnection();
  failNth(2, 500); // the first page, then the first /_search/scroll fails
  let rows = 0;
  let scrollId: string | undefined;
  await assert.rejects(async () => {
    for await (
      const rs of conn.stream("POST /hits/_search", [], { pageSize: 40, mode: "scroll" }).pages()
    ) {
      scrollId = rs.scrollId;
      rows += rs.rowCount;
    }
  }, (e: unknown) => e instanceof ResponseError && e.status === 500);
  assert.equal(rows, 40);
  assert.equal(sent.at(-1), "DELETE /_search/scroll");
  const again = await engine.fetch("http://engine/_search/scroll", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scroll_id: scrollId }),
  });
  assert.equal(again.status, 404);
  engine.close();
});

Deno.test("stream: a point in time reads the index as it was when the stream began", async () => {
  const { engine, ds } = await setup(300);
  const conn = await ds.getConnection();
  const stmt = conn.createStatement();
  const ids: string[] = [];
  let changed = false;
  for await (
    const row of conn.stream('POST /hits/_search {"sort": [{"n": "asc"}]}', [], { pageSize: 50 })
  ) {
    ids.push(row._ID as string);
    if (!changed) {
      changed = true; // mid-stream: delete documents not yet read and add new ones
      await stmt.executeUpdate(
        'POST /hits/_delete_by_query?refresh=true {"query": {"range": {"n": {"gte": 200}}}}',
      );
      await stmt.executeUpdate(
        'POST /hits/_bulk?refresh=true\n{"index":{"_id":"new"}}\n{"n":-1}\n',
      );
    }
  }
  assert.equal(ids.length, 300);
  assert.deepEqual(ids, Array.from({ length: 300 }, (_, i) => String(i)));
  engine.close();
});
