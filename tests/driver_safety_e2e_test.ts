// The driver never silently doubles or skips, end to end: the real library against the engine's
// HTTP server behind the loopback fault proxy (tests/support/fault_proxy.ts). Each test arms a
// fault after the engine applied the request and then reads the engine directly: a scroll page
// is never skipped, a conditional delete never answers 409 for a delete that succeeded, a bound
// id never makes an update retryable. Redirects (loopback node:http servers) are never followed,
// whichever fetch the data source uses; a 2xx of the wrong shape is refused and counts past 2^53
// read exactly (loopback servers answering fixed bodies); deep values and templates fail before
// anything is sent, and the XML test language keeps the prototype chain out of reach.
import assert from "node:assert/strict";
import {
  BindError,
  CommandSyntaxError,
  type Connection,
  DataSource,
  InvalidResponseError,
  OutcomeUnknownError,
  RedirectError,
} from "../driver/mod.ts";
import { Engine, serve } from "../engine/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { nodeFetch } from "@searchvisitor/searchvisitor/contrib/fetch_node";
import { denoFetch } from "@searchvisitor/searchvisitor/contrib/fetch_deno";
import { type Fault, FaultProxy } from "./support/fault_proxy.ts";
import { httpServer } from "./support/loopback_servers.ts";

interface World {
  proxy: FaultProxy;
  /** Through the proxy. */
  conn: Connection;
  /** Straight to the engine. */
  direct: Connection;
}

async function withProxy(fn: (w: World) => Promise<void>): Promise<void> {
  // Undone in reverse order, also when a step of the setup fails.
  const undo: (() => unknown)[] = [];
  try {
    const engine = new Engine();
    undo.push(() => engine.close());
    const server = await serve(engine, { port: 0 });
    undo.push(() => server.close());
    const proxy = new FaultProxy(server.url);
    undo.push(() => proxy.close());
    const direct = await new DataSource({ nodes: [server.url] }).getConnection();
    undo.push(() => direct.close());
    const options = { nodes: [proxy.url], retryBaseDelayMs: 1, timeoutMs: 2_000 };
    const conn = await new DataSource(options).getConnection();
    undo.push(() => conn.close());
    await fn({ proxy, conn, direct });
  } finally {
    for (const step of undo.reverse()) await step();
  }
}

const FAULTS: Fault[] = ["502-after-apply", "drop-after-apply"];

async function load(direct: Connection, docs: number): Promise<void> {
  let bulk = "POST /s/_bulk?refresh=true\n";
  for (let n = 0; n < docs; n++) bulk += `{"index":{"_id":"${n}"}}\n{"n":${n}}\n`;
  await direct.createStatement().executeUpdate(bulk);
}

for (const fault of FAULTS) {
  Deno.test(`${fault}: a scroll page (id in the body or the path) is not re-sent, so no page is skipped`, async () => {
    await withProxy(async ({ proxy, conn, direct }) => {
      await load(direct, 13);
      const first = await direct.createStatement()
        .executeQuery('POST /s/_search?scroll=1m {"size": 3, "sort": ["n"]}');
      const id = first.scrollId!;
      assert.equal(typeof id, "string");

      for (
        const [text, args] of [
          ['GET /_search/scroll {"scroll": "1m", "scroll_id": ?}', [id]],
          ["GET /_search/scroll/{?}?scroll=1m", [id]],
          ['POST /_search/scroll {"scroll": "1m", "scroll_id": ?}', [id]],
        ] as const
      ) {
        proxy.plan(fault, (_m, path) => path.startsWith("/_search/scroll"));
        const before = proxy.count;
        const error = await conn.createStatement().executeQuery(text, [...args]).catch((e) => e);
        assert.ok(error instanceof OutcomeUnknownError, `${text}: ${error}`);
        assert.equal(error.sent, true);
        assert.match(error.message, /would silently skip the lost one\. Start the scroll again/);
        assert.equal(proxy.count - before, 1, `${text} was sent once`);
      }
      // The engine moved the cursor once per attempt (3 pages of 3 are gone): the caller was told
      // each time rather than handed the page after a lost one as if it were the next.
      const rest = await direct.createStatement()
        .executeQuery('POST /_search/scroll {"scroll": "1m", "scroll_id": ?}', [id]);
      const ids: string[] = [];
      while (rest.next()) ids.push(rest.getString("_ID")!);
      assert.deepEqual(ids, ["12"]);
    });
  });

  Deno.test(`${fault}: a stream over a scroll fails with OutcomeUnknownError instead of skipping a page`, async () => {
    await withProxy(async ({ proxy, conn, direct }) => {
      await load(direct, 10);
      proxy.plan(fault, (_m, path) => path.startsWith("/_search/scroll"));
      const seen: number[] = [];
      const error = await (async () => {
        const rows = conn.stream('POST /s/_search {"sort": ["n"]}', [], {
          pageSize: 3,
          mode: "scroll",
        });
        for await (const row of rows) seen.push(JSON.parse(String(row._DOC)).n);
      })().catch((e) => e);
      assert.ok(error instanceof OutcomeUnknownError, String(error));
      assert.deepEqual(seen, [0, 1, 2], "the rows before the lost page, and none after it");
    });
  });

  Deno.test(`${fault}: a conditional DELETE is sent once; a plain DELETE is still re-sent`, async () => {
    await withProxy(async ({ proxy, conn, direct }) => {
      await direct.createStatement().executeUpdate('PUT /d/_doc/a?refresh=true {"n": 1}');
      await direct.createStatement().executeUpdate('PUT /d/_doc/b?refresh=true {"n": 1}');
      await direct.createStatement()
        .executeUpdate('PUT /d/_doc/x?version=5&version_type=external {"n": 1}');
      const a = await direct.createStatement()
        .executeQuery(
          'GET /d/_search {"seq_no_primary_term": true, "query": {"ids": {"values": ["a"]}}}',
        );
      assert.ok(a.next());
      const hit = a.getHit();

      for (
        const [text, args] of [
          ["DELETE /d/_doc/a?if_seq_no={?}&if_primary_term={?}", [hit.seqNo, hit.primaryTerm]],
          ["DELETE /d/_doc/x?version={?}&version_type=external", [6]],
        ] as const
      ) {
        proxy.plan(fault, (m) => m === "DELETE");
        const before = proxy.count;
        const error = await conn.createStatement().executeUpdate(text, [...args]).catch((e) => e);
        assert.ok(error instanceof OutcomeUnknownError, `${text}: ${error}`);
        assert.equal(
          proxy.count - before,
          1,
          `${text} was sent once (no 409 for a delete that succeeded)`,
        );
      }
      for (const id of ["a", "x"]) {
        const gone = await direct.createStatement().executeQuery("GET /d/_doc/{?}", [id]);
        assert.equal(gone.next(), false, `the delete of ${id} was applied, once`);
      }

      proxy.plan(fault, (m) => m === "DELETE");
      const before = proxy.count;
      assert.equal(await conn.createStatement().executeUpdate("DELETE /d/_doc/b"), 0);
      assert.equal(proxy.count - before, 2, "an unconditional DELETE is re-sent");
    });
  });

  Deno.test(`${fault}: a bound id that spells _search, _count or _refresh leaves a scripted update applied once`, async () => {
    await withProxy(async ({ proxy, conn, direct }) => {
      for (const id of ["_search", "_count", "_refresh"]) {
        await direct.createStatement().executeUpdate('PUT /cnt/_doc/{?} {"n": 0}', [id]);
        proxy.plan(fault, (m) => m === "POST");
        const before = proxy.count;
        const error = await conn.createStatement().executeUpdate(
          'POST /cnt/_update/{?} {"script": {"source": "ctx._source.n += 1"}}',
          [id],
        ).catch((e) => e);
        assert.ok(error instanceof OutcomeUnknownError, `${id}: ${error}`);
        assert.equal(proxy.count - before, 1, `the update of ${id} was sent once`);
        const rs = await direct.createStatement().executeQuery("GET /cnt/_doc/{?}", [id]);
        assert.ok(rs.next());
        assert.equal(JSON.parse(rs.getString("_DOC")!).n, 1, `${id} was incremented once`);
      }
    });
  });
}

Deno.test("a 3xx is a RedirectError with the status and the redacted location; nothing follows it", async () => {
  let elsewhereHits = 0;
  const elsewhere = await httpServer((_req, res) => {
    elsewhereHits++;
    res.writeHead(201, { "content-type": "application/json" });
    res.end('{"_id":"stolen","result":"created"}');
  });
  let status = 307;
  let redirectorHits = 0;
  const location = `http://user:pa55word@${elsewhere.url.slice(7)}/cnt/_doc?token=t0k3n`;
  const redirector = await httpServer((req, res) => {
    redirectorHits++;
    req.resume();
    res.writeHead(status, { location, "content-type": "application/json" });
    res.end("{}");
  });
  const nodeFetcher = nodeFetch();
  const denoFetcher = denoFetch();
  // An in-process fetch (marked as the engine's is) that answers a redirect.
  const inProcess = Object.assign(
    (_url: string, _init: RequestInit) =>
      Promise.resolve(new Response("{}", { status, headers: { location } })),
    { [Symbol.for("searchvisitor.inProcessFetch")]: true },
  );
  const fetches = {
    "runtime fetch": undefined,
    "contrib/fetch_node": nodeFetcher,
    "contrib/fetch_deno": denoFetcher,
    "in-process fetch": inProcess,
  };
  try {
    for (const [name, fetch] of Object.entries(fetches)) {
      const conn = await new DataSource({ nodes: [redirector.url], fetch, retryBaseDelayMs: 1 })
        .getConnection();
      try {
        for (const code of [301, 302, 303, 307, 308]) {
          status = code;
          for (const text of ['POST /cnt/_doc {"n": 1}', 'POST /cnt/_search {"size": 1}']) {
            const before = redirectorHits;
            const error = await conn.createStatement().execute(text).catch((e) => e);
            const what = `${name} ${code} ${text}`;
            assert.ok(error instanceof RedirectError, `${what}: ${error}`);
            assert.equal(error.code, "REDIRECT");
            assert.equal(error.status, code, what);
            assert.equal(
              error.location,
              location.replace("user:pa55word@", "***@").replace("t0k3n", "***"),
            );
            assert.doesNotMatch(`${error.message} ${error.stack}`, /pa55word|t0k3n/, what);
            if (fetch !== inProcess) {
              assert.equal(redirectorHits - before, 1, `${what}: not retried`);
            }
          }
        }
      } finally {
        await conn.close();
      }
    }
    assert.equal(elsewhereHits, 0, "no request ever reached the redirect's target");
  } finally {
    nodeFetcher.close();
    denoFetcher.close();
    await redirector.stop();
    await elsewhere.stop();
  }
});

/** A node:http server that answers every request with `answer(method, path)` as JSON text. */
async function answering(answer: (method: string, path: string) => string) {
  return await httpServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(answer(req.method ?? "", req.url ?? ""));
  });
}

Deno.test("a 2xx of the wrong shape over the wire is an InvalidResponseError, never 0 rows or a count of 1", async () => {
  let body = "[]";
  const server = await answering(() => body);
  const conn = await new DataSource({ nodes: [server.url], maxRetries: 0 }).getConnection();
  try {
    const cases: [string, string][] = [
      ["POST /i/_search {}", "[]"],
      ["POST /i/_search {}", '{"took":1,"timed_out":false}'],
      ["GET /i/_count", "[]"],
      ["GET /i/_count", '{"_shards":{"total":1}}'],
      ['PUT /i/_doc/1 {"n": 1}', "[]"],
      ['POST /i/_doc {"n": 1}', '{"acknowledged":true}'],
      ['POST /_bulk\n{"index":{"_index":"i"}}\n{"n":1}\n', '{"took":1,"errors":false}'],
      ['POST /i/_update/1 {"doc": {"n": 2}}', '{"_id":"1"}'],
      ["DELETE /i/_doc/1", "[]"],
      ['POST /i/_delete_by_query {"query": {"match_all": {}}}', '{"took":1}'],
    ];
    for (const [text, answer] of cases) {
      body = answer;
      const error = await conn.createStatement().execute(text).catch((e) => e);
      assert.ok(error instanceof InvalidResponseError, `${text} → ${answer}: ${error}`);
      assert.equal(error.status, 200);
    }
    // What the caller trimmed with filter_path is theirs to trim.
    body = '{"aggregations":{"n":{"value":3}}}';
    const rs = await conn.createStatement()
      .executeQuery(
        'POST /i/_search?filter_path=aggregations {"aggs": {"n": {"max": {"field": "n"}}}}',
      );
    assert.equal(rs.rowCount, 0);
    assert.deepEqual(rs.aggregations, { n: { value: 3 } });
  } finally {
    await conn.close();
    await server.stop();
  }
});

Deno.test("counts past 2^53 read exactly: COUNT, getLong, queryForNumber, by-query update counts", async () => {
  const big = "9007199254740993"; // 2^53 + 1; as a double it would read ...992
  const server = await answering((_method, path) =>
    path.includes("_count")
      ? `{"count":${big},"_shards":{"total":1,"successful":1,"skipped":0,"failed":0}}`
      : path.includes("_update_by_query")
      ? `{"took":1,"total":${big},"updated":${big},"failures":[]}`
      : `{"took":1,"total":${big},"deleted":${big},"failures":[]}`
  );
  const ds = new DataSource({ nodes: [server.url] });
  const conn = await ds.getConnection();
  try {
    const rs = await conn.createStatement().executeQuery("GET /huge/_count");
    assert.ok(rs.next());
    assert.equal(rs.getLong("COUNT"), BigInt(big));
    assert.equal(rs.getObject("COUNT"), BigInt(big));

    const jdbc = new JdbcTemplate(ds);
    assert.equal(await jdbc.queryForNumber("GET /huge/_count"), BigInt(big));
    assert.equal(await jdbc.queryForLong("GET /huge/_count"), BigInt(big));

    for (const text of ["POST /huge/_update_by_query {}", "POST /huge/_delete_by_query {}"]) {
      const stmt = conn.createStatement();
      assert.equal(await stmt.execute(text), false);
      assert.equal(stmt.getLargeUpdateCount(), BigInt(big), text);
      assert.equal(stmt.getUpdateCount(), Number(big), `${text}: the nearest double, not 0`);
    }
  } finally {
    await conn.close();
    await server.stop();
  }
});

Deno.test("a bound value nested 100,000 deep is a BindError before anything is sent; so are deep templates", async () => {
  const engine = new Engine();
  let sent = 0;
  const fetch = Object.assign(
    (url: string, init: RequestInit) => (sent++, engine.fetch(url, init)),
    { [Symbol.for("searchvisitor.inProcessFetch")]: true },
  );
  const ds = new DataSource({ nodes: ["http://engine"], fetch });
  const conn = await ds.getConnection();
  try {
    let deep: unknown = "x";
    for (let i = 0; i < 100_000; i++) deep = { bool: { must: [deep] } };
    const jdbc = new JdbcTemplate(ds);
    const attempts: [string, () => Promise<unknown>][] = [
      [
        "statement",
        () => conn.createStatement().executeQuery('POST /i/_search {"query": ?}', [deep]),
      ],
      ["template", () => jdbc.queryForList('POST /i/_search {"query": #{q}}', { q: deep })],
      ["batch", async () => {
        const ps = conn.prepareStatement("PUT /i/_doc/{?} ?");
        ps.setObject(1, "1");
        ps.setObject(2, { n: deep });
        ps.addBatch();
        return await ps.executeBatch();
      }],
    ];
    for (const [what, attempt] of attempts) {
      const error = await attempt().catch((e) => e);
      assert.ok(error instanceof BindError, `${what}: ${error}`);
      assert.match(error.message, /nests deeper than 512 levels/);
    }
    const rules = 'POST /i/_search {"query": ' + "@{if, a, ".repeat(100_000) + "{}" +
      "}".repeat(100_000) + "}";
    const error = await jdbc.queryForList(rules, { a: true }).catch((e) => e);
    assert.ok(error instanceof CommandSyntaxError, String(error));
    assert.equal(sent, 0, "nothing was sent");
  } finally {
    await conn.close();
    engine.close();
  }
});

Deno.test("the XML test language refuses user['constructor'] and user['__proto__'] as it refuses user.constructor", async () => {
  const engine = new Engine();
  const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch, indexRefresh: true });
  try {
    const mapper = (test: string) =>
      `<mapper namespace="users">
  <select id="find">POST /users/_search {"query": <if test="${test}">{"term": {"name": #{user.name}}}</if><if test="user == null">{"match_all": {}}</if>}</select>
</mapper>`;
    for (
      const test of [
        "user.constructor != null",
        "user['constructor'] != null",
        "user['__proto__'] != null",
      ]
    ) {
      assert.throws(
        () => parseMapperFile(mapper(test)),
        (e: unknown) => e instanceof Error && /is not reachable in a test/.test(e.message),
        test,
      );
    }
    // The same statement with an own member runs on the engine.
    await new JdbcTemplate(ds).executeUpdate('PUT /users/_doc/1 {"name": "ann"}');
    const find = parseMapperFile(mapper("user['name'] != null")).statements.get("find")!;
    const r = find.render({ user: { name: "ann" } });
    const rows = await new JdbcTemplate(ds).queryForList(r.text, r.args);
    assert.deepEqual(rows.map((row) => row._ID), ["1"]);
  } finally {
    engine.close();
  }
});
