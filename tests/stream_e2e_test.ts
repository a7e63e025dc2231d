// Streaming every hit (Connection.stream, JdbcTemplate.stream) on every backend of the behaviour
// suite (tests/README.md):
// point in time in both flavours, scroll where there is none, and the point in time or scroll
// closed on completion, on error, on abort and when the consumer stops early.
import assert from "node:assert/strict";
import {
  DataSource,
  IllegalStateError,
  PartialResultsError,
  ResponseError,
} from "../driver/mod.ts";
import { Engine, type EngineOptions } from "../engine/mod.ts";
import {
  type BackendScope,
  backendTest,
  type BackendTestOptions,
  suiteIndex,
} from "./support/backend.ts";
import { defineEntity, JdbcTemplate } from "../template/mod.ts";

const HITS = suiteIndex("hits");

interface Setup {
  ds: DataSource;
  sent: string[];
  /** Points in time this test opened (their ids, from the open answers). */
  pits: string[];
  /** Makes the n-th request from now (1-based) answer with this status and error body. */
  failNth(n: number, status: number): void;
}

/** Test options: what the test needs, and the embedded engine without a refresh timer. */
function on(
  requires: BackendTestOptions["requires"],
  embedded: EngineOptions = {},
): BackendTestOptions {
  return { requires, embedded: { refreshIntervalMs: -1, ...embedded } };
}

async function setup(t: BackendScope, docs: number): Promise<Setup> {
  const sent: string[] = [];
  const pits: string[] = [];
  let failAt = 0;
  let failStatus = 0;
  const fetch = async (url: string, init: RequestInit) => {
    const method = init.method ?? "GET";
    const path = new URL(url).pathname;
    sent.push(`${method} ${path}`);
    if (failAt > 0 && --failAt === 0) {
      return Response.json({
        error: { type: "injected_exception", reason: "injected", root_cause: [] },
        status: failStatus,
      }, { status: failStatus });
    }
    const res = await t.fetch(url, init);
    if (method === "POST" && /\/(_pit|_search\/point_in_time)$/.test(path) && res.ok) {
      const body = await res.clone().json() as { id?: string; pit_id?: string };
      pits.push((body.pit_id ?? body.id)!);
    }
    return res;
  };
  const ds = t.dataSource({ fetch, maxRetries: 0 });
  const lines = [`POST /${HITS}/_bulk?refresh=true`];
  for (let i = 0; i < docs; i++) {
    lines.push(`{"index":{"_id":"${i}"}}`, `{"n":${i},"group":${i % 3}}`);
  }
  await (await ds.getConnection()).createStatement().executeUpdate(lines.join("\n") + "\n");
  sent.length = 0;
  return {
    ds,
    sent,
    pits,
    failNth(n, status) {
      failAt = n;
      failStatus = status;
    },
  };
}

/** This test's OpenSearch points in time still open (OpenSearch lists every open one). */
async function openPits(t: BackendScope, mine: readonly string[]): Promise<number> {
  assert.ok(mine.length > 0, "a point in time was opened");
  const listed = await t.call("GET", "/_search/point_in_time/_all");
  const open = new Set((listed.body as { pits: { pit_id: string }[] }).pits.map((p) => p.pit_id));
  return mine.filter((id) => open.has(id)).length;
}

/** POSTs a scroll id to the backend: its status (404 once the scroll is cleared). */
async function scrollStatus(t: BackendScope, scrollId: string | undefined): Promise<number> {
  return (await t.call("POST", "/_search/scroll", { scroll_id: scrollId })).status;
}

backendTest(
  "stream: every hit once, in sort order, over a point in time (ES) and it is closed",
  on(["pit-es"]),
  async (t) => {
    const { ds, sent } = await setup(t, 2_345);
    const conn = await ds.getConnection();
    const stream = conn.stream(
      `POST /${HITS}/_search {"sort": [{"group": "asc"}, {"n": "desc"}]}`,
      [],
      {
        pageSize: 500,
      },
    );
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
    assert.equal(sent.filter((s) => s === `POST /${HITS}/_pit`).length, 1);
    assert.equal(sent.filter((s) => s === "POST /_search").length, 5); // 4 full pages + a short one
    assert.equal(sent.at(-1), "DELETE /_pit");
  },
);

backendTest(
  "stream: OpenSearch point in time, closed on completion and on break",
  on(["pit-opensearch"], { flavour: "opensearch" }),
  async (t) => {
    const { ds, sent, pits } = await setup(t, 120);
    const conn = await ds.getConnection();
    const ids = [];
    for await (const row of conn.stream(`GET /${HITS}/_search`, [], { pageSize: 50 })) {
      ids.push(
        row._ID,
      );
    }
    assert.equal(new Set(ids).size, 120);
    assert.ok(sent.includes(`POST /${HITS}/_search/point_in_time`));
    assert.equal(sent.at(-1), "DELETE /_search/point_in_time");
    assert.equal(await openPits(t, pits), 0);

    let rows = 0;
    for await (const _ of conn.stream(`POST /${HITS}/_search {"size": 10}`)) {
      if (++rows === 15) break; // mid second page, the third is being fetched ahead
    }
    assert.equal(await openPits(t, pits), 0);
  },
);

backendTest(
  "stream: an error on a later page closes the point in time and reaches the caller",
  on(["pit-opensearch"], { flavour: "opensearch" }),
  async (t) => {
    const { ds, sent, failNth, pits } = await setup(t, 100);
    const conn = await ds.getConnection();
    failNth(4, 500); // GET /, open, page 1, then page 2 fails
    let rows = 0;
    await assert.rejects(async () => {
      for await (const _ of conn.stream(`POST /${HITS}/_search`, [], { pageSize: 30 })) rows++;
    }, (e: unknown) =>
      e instanceof ResponseError && e.status === 500 &&
      /the stream \(point in time\) stopped after 30 hit\(s\), the last with sort values/.test(
        e.message,
      ));
    assert.equal(rows, 30);
    assert.equal(sent.at(-1), "DELETE /_search/point_in_time");
    assert.equal(await openPits(t, pits), 0);
  },
);

backendTest(
  "stream: a throw in the consumer's loop closes the point in time",
  on(["pit-opensearch"], { flavour: "opensearch" }),
  async (t) => {
    const { ds, sent, pits } = await setup(t, 50);
    const conn = await ds.getConnection();
    await assert.rejects(async () => {
      for await (const _ of conn.stream(`POST /${HITS}/_search`, [], { pageSize: 20 })) {
        throw new Error("consumer failed");
      }
    }, /consumer failed/);
    assert.equal(sent.at(-1), "DELETE /_search/point_in_time");
    assert.equal(await openPits(t, pits), 0);
  },
);

backendTest(
  "stream: scroll on a server without point in time (ES 7.10), cleared at the end",
  on(["no-pit"], { version: "7.10.2" }),
  async (t) => {
    const { ds, sent } = await setup(t, 205);
    const conn = await ds.getConnection();
    const stream = conn.stream(
      `POST /${HITS}/_search {"query": {"range": {"n": {"gte": 5}}}}`,
      [],
      {
        pageSize: 100,
      },
    );
    const ids = new Set<unknown>();
    for await (const row of stream) ids.add(row._ID);
    assert.equal(stream.mode, "scroll");
    assert.equal(ids.size, 200);
    assert.ok(sent.includes(`POST /${HITS}/_search`));
    assert.equal(sent.filter((s) => s === "POST /_search/scroll").length, 1); // total reached: no empty page
    assert.equal(sent.at(-1), "DELETE /_search/scroll");
  },
);

backendTest(
  "stream: mode scroll forced, broken early: the scroll is cleared",
  on([]),
  async (t) => {
    const { ds } = await setup(t, 60);
    const conn = await ds.getConnection();
    let scrollId: string | undefined;
    for await (
      const rs of conn.stream(`POST /${HITS}/_search`, [], { pageSize: 25, mode: "scroll" }).pages()
    ) {
      scrollId = rs.scrollId;
      break;
    }
    assert.ok(scrollId);
    assert.equal(await scrollStatus(t, scrollId), 404); // the scroll context is gone
  },
);

backendTest(
  "stream: an abort signal stops the stream with the caller's reason and closes the point in time",
  on(["pit-opensearch"], { flavour: "opensearch" }),
  async (t) => {
    const { ds, pits } = await setup(t, 100);
    const conn = await ds.getConnection();
    const controller = new AbortController();
    let rows = 0;
    await assert.rejects(async () => {
      const stream = conn.stream(`POST /${HITS}/_search`, [], {
        pageSize: 10,
        signal: controller.signal,
      });
      for await (const _ of stream) {
        if (++rows === 10) controller.abort(new Error("enough"));
      }
    }, /^Error: enough$/);
    assert.equal(await openPits(t, pits), 0);
  },
);

backendTest(
  "stream: commands it cannot stream are refused with the reason, before sending",
  on([]),
  async (t) => {
    const { ds, sent } = await setup(t, 1);
    const conn = await ds.getConnection();
    const cases: [string, RegExp][] = [
      [`POST /${HITS}/_search {"from": 20}`, /"from": 20 cannot be used/],
      [`POST /${HITS}/_search {"search_after": [1]}`, /"search_after" is the stream's to set/],
      [`POST /${HITS}/_search?scroll=1m`, /scroll parameter is the stream's to set/],
      [`POST /${HITS}/_count`, /takes one GET\|POST \/index\/_search command/],
      [`POST /${HITS}/_search\nPOST /${HITS}/_search`, /exactly one search command, got 2/],
      [`POST /${HITS}/_search {"size": 0}`, /page size must be a whole number ≥ 1, got 0/],
    ];
    for (const [text, message] of cases) {
      assert.throws(
        () => conn.stream(text),
        (e: unknown) => e instanceof IllegalStateError && message.test(e.message),
        text,
      );
    }
    assert.throws(
      () => conn.stream(`POST /${HITS}/_search`, [], { keepAlive: "soon" }),
      /keepAlive "soon"/,
    );
    assert.deepEqual(sent, []);
  },
);

backendTest(
  "JdbcTemplate.stream: entities over HTTP, named arguments, one connection per stream",
  async (t) => {
    {
      const jdbc = new JdbcTemplate(t.dataSource());
      class Hit {
        id = "";
        n = 0;
      }
      defineEntity(Hit, { index: HITS, key: "id" });
      const lines = [`POST /${HITS}/_bulk?refresh=true`];
      for (let i = 0; i < 1_000; i++) lines.push(`{"index":{"_id":"h${i}"}}`, `{"n":${i}}`);
      await jdbc.executeUpdate(lines.join("\n") + "\n");
      const hits: Hit[] = [];
      const cmd =
        `POST /${HITS}/_search {"query": {"range": {"n": {"lt": #{below}}}}, "sort": [{"n": "asc"}]}`;
      for await (const hit of jdbc.stream(cmd, { below: 700 }, Hit, { pageSize: 64 })) {
        hits.push(
          hit,
        );
      }
      assert.equal(hits.length, 700);
      assert.ok(hits[0] instanceof Hit);
      assert.deepEqual(hits.slice(0, 2).map((h) => ({ ...h })), [{ id: "h0", n: 0 }, {
        id: "h1",
        n: 1,
      }]);
      assert.deepEqual(hits.map((h) => h.n), [...Array(700).keys()]);
      const rows = [];
      for await (
        const row of jdbc.stream(`POST /${HITS}/_search {"size": 300}`, [], { mode: "scroll" })
      ) {
        rows.push(row);
      }
      assert.equal(rows.length, 1_000);
      assert.deepEqual(Object.keys(rows[0]!), ["_ID", "_DOC"]);
    }
  },
);

backendTest(
  "stream: an error on a later scroll page clears the scroll and reaches the caller",
  on([]),
  async (t) => {
    const { ds, sent, failNth } = await setup(t, 90);
    const conn = await ds.getConnection();
    failNth(2, 500); // the first page, then the first /_search/scroll fails
    let rows = 0;
    let scrollId: string | undefined;
    await assert.rejects(async () => {
      for await (
        const rs of conn.stream(`POST /${HITS}/_search`, [], { pageSize: 40, mode: "scroll" })
          .pages()
      ) {
        scrollId = rs.scrollId;
        rows += rs.rowCount;
      }
    }, (e: unknown) => e instanceof ResponseError && e.status === 500);
    assert.equal(rows, 40);
    assert.equal(sent.at(-1), "DELETE /_search/scroll");
    assert.equal(await scrollStatus(t, scrollId), 404);
  },
);

backendTest(
  "stream: a point in time reads the index as it was when the stream began",
  on(["by-query"]),
  async (t) => {
    const { ds } = await setup(t, 300);
    const conn = await ds.getConnection();
    const stmt = conn.createStatement();
    const ids: string[] = [];
    let changed = false;
    for await (
      const row of conn.stream(`POST /${HITS}/_search {"sort": [{"n": "asc"}]}`, [], {
        pageSize: 50,
      })
    ) {
      ids.push(row._ID as string);
      if (!changed) {
        changed = true; // mid-stream: delete documents not yet read and add new ones
        await stmt.executeUpdate(
          `POST /${HITS}/_delete_by_query?refresh=true {"query": {"range": {"n": {"gte": 200}}}}`,
        );
        await stmt.executeUpdate(
          `POST /${HITS}/_bulk?refresh=true\n{"index":{"_id":"new"}}\n{"n":-1}\n`,
        );
      }
    }
    assert.equal(ids.length, 300);
    assert.deepEqual(ids, Array.from({ length: 300 }, (_, i) => String(i)));
  },
);

/** An engine whose n-th search answer (1-based, counted from now) says one of 2 shards failed. */
async function partialAt(nth: number, docs: number) {
  const engine = new Engine({ refreshIntervalMs: -1 });
  let searches = 0;
  const fetch = async (url: string, init: RequestInit) => {
    const res = await engine.fetch(url, init);
    if (!/_search(\/scroll)?(\?|$)/.test(new URL(url).pathname + "?") || ++searches !== nth) {
      return res;
    }
    const json = await res.json();
    json._shards = {
      total: 2,
      successful: 1,
      skipped: 0,
      failed: 1,
      failures: [{
        index: "hits",
        shard: 1,
        node: "n2",
        reason: { type: "node_closed_exception" },
      }],
    };
    return Response.json(json);
  };
  const ds = new DataSource({ nodes: ["http://engine"], fetch, maxRetries: 0 });
  const lines = ["POST /hits/_bulk?refresh=true"];
  for (let i = 0; i < docs; i++) lines.push(`{"index":{"_id":"${i}"}}`, `{"n":${i}}`);
  await (await ds.getConnection()).createStatement().executeUpdate(lines.join("\n") + "\n");
  searches = 0;
  return { engine, ds };
}

for (const mode of ["pit", "scroll"] as const) {
  Deno.test(`stream (${mode}): a page some shards failed to answer ends it with PartialResultsError saying where`, async () => {
    const { engine, ds } = await partialAt(3, 50);
    await using conn = await ds.getConnection();
    const rows: unknown[] = [];
    const error = await (async () => {
      for await (
        const row of conn.stream('POST /hits/_search {"sort": ["n"]}', [], {
          pageSize: 10,
          mode,
        })
      ) rows.push(row);
    })().catch((e) => e);
    assert.ok(error instanceof PartialResultsError, String(error));
    assert.equal(rows.length, 20, "the two whole pages, then the error: never a short stream");
    assert.equal(error.delivered, 20);
    if (mode === "pit") {
      assert.equal((error.after as unknown[])[0], 19, "the last hit's sort values");
    }
    assert.match(
      error.message,
      new RegExp(
        `stream \\(${mode === "pit" ? "point in time" : "scroll"}\\) stopped after 20 hit`,
      ),
    );
    engine.close();
  });
}

Deno.test("a partial answer: PartialResultsError, or rows with shardFailures when the path allows it", async () => {
  const { engine, ds } = await partialAt(1, 5);
  await using conn = await ds.getConnection();
  await assert.rejects(
    conn.createStatement().executeQuery("POST /hits/_search"),
    (e: unknown) => e instanceof PartialResultsError && e.shards.failures[0]!.node === "n2",
  );
  const { ds: ds2, engine: engine2 } = await partialAt(1, 5);
  await using conn2 = await ds2.getConnection();
  const rs = await conn2.createStatement().executeQuery(
    "POST /hits/_search?allow_partial_search_results=true",
  );
  assert.equal(rs.rowCount, 5);
  assert.equal(rs.shardFailures?.failed, 1);
  engine.close();
  engine2.close();
});

backendTest(
  'stream: mode "pit" on OpenSearch opens and closes OpenSearch\'s point in time',
  on(["pit-opensearch"], { flavour: "opensearch" }),
  async (t) => {
    const { ds, sent, pits } = await setup(t, 30);
    const conn = await ds.getConnection();
    let rows = 0;
    for await (const _ of conn.stream(`POST /${HITS}/_search`, [], { pageSize: 10, mode: "pit" })) {
      rows++;
    }
    assert.equal(rows, 30);
    assert.ok(sent.includes(`POST /${HITS}/_search/point_in_time`), sent.join(", "));
    assert.equal(sent.at(-1), "DELETE /_search/point_in_time");
    assert.equal(await openPits(t, pits), 0);
  },
);
