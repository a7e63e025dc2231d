import assert from "node:assert/strict";
import { readWarnings } from "./_executor.ts";
import { DataSource } from "../jdbc/data_source.ts";
import { FakeEs } from "../../tests/support/fake_es.ts";
import { InvalidResponseError } from "../errors.ts";
import { ResultSet } from "../jdbc/result_set.ts";
import { executeFirst } from "../jdbc/statement.ts";

Deno.test("Warning headers become messages", () => {
  const headers = new Headers();
  headers.append(
    "warning",
    '299 Elasticsearch-8.15.0-abc "[types removal] Specifying types, is deprecated."',
  );
  headers.append("warning", '299 Elasticsearch-8.15.0-abc "say \\"hi\\""');
  assert.deepEqual(readWarnings(headers), [
    "[types removal] Specifying types, is deprecated.",
    'say "hi"',
  ]);
  assert.deepEqual(readWarnings(new Headers()), []);
  assert.deepEqual(readWarnings(new Headers({ warning: "odd" })), ["odd"]);
});

Deno.test("a result set carries the response's warnings", async () => {
  const fake = new FakeEs().on((req) =>
    req.path.endsWith("_search")
      ? Response.json({ hits: { hits: [] } }, {
        headers: { warning: '299 Elasticsearch-8.15.0 "deprecated thing"' },
      })
      : undefined
  );
  const conn = await new DataSource({ nodes: ["http://h:9200"], fetch: fake.fetch })
    .getConnection();
  const stmt = conn.createStatement();
  assert.deepEqual((await stmt.executeQuery("POST /i/_search")).warnings, ["deprecated thing"]);
  assert.deepEqual((await stmt.executeQuery("POST /i/_count")).warnings, []);
});

Deno.test("the last command's plan: methods, paths and rewrites are told apart", async () => {
  const seen: string[] = [];
  const fetch = (url: string | URL | Request, init?: RequestInit) => {
    const path = String(url).slice("http://h:9200".length);
    seen.push(`${init?.method} ${path}`);
    const body = path.startsWith("/_cat")
      ? "[]"
      : init?.method === "DELETE"
      ? '{"acknowledged":true}'
      : path.includes("_count")
      ? '{"count":3}'
      : '{"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_id":"1","_source":{"a":1}}]}}';
    return Promise.resolve(
      new Response(body, { headers: { "content-type": "application/json" } }),
    );
  };
  const conn = await new DataSource({ nodes: ["http://h:9200"], fetch, indexRefresh: true })
    .getConnection();
  const stmt = conn.createStatement();
  // The same text twice: the second run sends the same rewritten path (not rewritten twice).
  for (let i = 0; i < 2; i++) {
    assert.equal((await stmt.executeQuery("GET /_cat/indices")).rowCount, 0);
  }
  const rs = await stmt.executeQuery("POST /i/_search");
  assert.deepEqual(rs.toArray(), [{ _ID: "1", _DOC: '{"a":1}' }]);
  // Same path, another method: another endpoint (a DELETE of a search is a write).
  assert.equal(await stmt.executeUpdate("DELETE /i/_search"), 1);
  assert.equal((await stmt.executeQuery("POST /i/_count")).next(), true);
  // Bound path values: each bound path has its own plan.
  const ps = conn.prepareStatement("POST /{?}/_count");
  for (const index of ["a", "b", "a"]) {
    ps.setObject(1, index);
    const count = await ps.executeQuery();
    count.next();
    assert.equal(count.getLong("COUNT"), 3n);
  }
  assert.deepEqual(seen, [
    "GET /_cat/indices?format=json",
    "GET /_cat/indices?format=json",
    "POST /i/_search",
    "DELETE /i/_search",
    "POST /i/_count",
    "POST /a/_count",
    "POST /b/_count",
    "POST /a/_count",
  ]);
});

Deno.test("the content type read on demand still names garbage and text answers", async () => {
  const fetch = (url: string | URL | Request) => {
    const path = String(url).slice("http://h:9200".length);
    if (path.startsWith("/_nodes/hot_threads")) {
      return Promise.resolve(
        new Response("::: {node}\n  hot", { headers: { "content-type": "text/plain" } }),
      );
    }
    if (path.startsWith("/labelled")) {
      // Valid JSON under a wrong label is read as JSON.
      return Promise.resolve(
        new Response('{"hits":{"hits":[{"_id":"x","_source":{"b":2}}]}}', {
          headers: { "content-type": "text/html" },
        }),
      );
    }
    return Promise.resolve(
      new Response("<html>login</html>", { headers: { "content-type": "text/html" } }),
    );
  };
  const conn = await new DataSource({ nodes: ["http://h:9200"], fetch }).getConnection();
  const stmt = conn.createStatement();
  const text = await stmt.executeQuery("GET /_nodes/hot_threads");
  assert.ok(text.next());
  assert.match(String(text.getObject(1)), /hot/);
  assert.deepEqual((await stmt.executeQuery("POST /labelled/_search")).toArray(), [
    { _ID: "x", _DOC: '{"b":2}' },
  ]);
  await assert.rejects(() => stmt.executeQuery("POST /i/_search"), (e: unknown) => {
    assert.ok(e instanceof InvalidResponseError);
    assert.equal(e.contentType, "text/html");
    assert.match(e.message, /HTTP 200 \(text\/html\): an HTML page came where JSON is due/);
    return true;
  });
});

Deno.test("warnings are read from the headers when asked for: sub-searches, tables, none", async () => {
  const warning = {
    warning: '299 Elasticsearch-8.15.0 "old \\"x\\"", 299 Elasticsearch-8.15.0 "b"',
  };
  const fake = new FakeEs().on((req) =>
    req.path.includes("_msearch")
      ? Response.json({ responses: [{ hits: { hits: [] } }, { hits: { hits: [] } }] }, {
        headers: warning,
      })
      : req.path.startsWith("/_cat/indices")
      ? Response.json([{ index: "a" }], { headers: warning })
      : req.path.endsWith("_search")
      ? Response.json({ hits: { hits: [{ _id: "1", _source: {} }] } })
      : undefined
  );
  const conn = await new DataSource({ nodes: ["http://h:9200"], fetch: fake.fetch })
    .getConnection();
  const stmt = conn.createStatement();
  assert.equal(
    await stmt.execute(
      'POST /_msearch\n{"index":"a"}\n{"query":{"match_all":{}}}\n{"index":"b"}\n{"query":{"match_all":{}}}',
    ),
    true,
  );
  const first = stmt.getResultSet()!;
  assert.equal(stmt.getMoreResults(), true);
  const second = stmt.getResultSet()!;
  assert.deepEqual(first.warnings, ['old "x"', "b"]);
  assert.deepEqual(second.warnings, ['old "x"', "b"]);
  assert.equal(first.warnings, first.warnings); // read once
  const cat = await stmt.executeQuery("GET /_cat/indices");
  assert.deepEqual(cat.warnings, ['old "x"', "b"]);
  const plain = await stmt.executeQuery("POST /i/_search");
  assert.deepEqual(plain.toArray(), [{ _ID: "1", _DOC: "{}" }]);
  assert.deepEqual(plain.warnings, []);
  assert.ok(Object.isFrozen(plain.warnings));
  // A result set made by hand: its given warnings, or those of its given headers.
  assert.deepEqual(new ResultSet(["a"], [], { warnings: ["w"] }).warnings, ["w"]);
  assert.deepEqual(
    new ResultSet(["a"], [], { headers: new Headers({ warning: '299 x "h"' }) }).warnings,
    ["h"],
  );
  assert.deepEqual(new ResultSet(["a"], [], {}).warnings, []);
});

Deno.test("a read run again with the same values sends the same request; other values their own", async () => {
  const seen: string[] = [];
  const fetch = (url: string | URL | Request, init?: RequestInit) => {
    seen.push(`${init?.method} ${String(url).slice("http://h:9200".length)} ${init?.body}`);
    return Promise.resolve(Response.json({ hits: { hits: [{ _id: "1", _source: {} }] } }));
  };
  const conn = await new DataSource({ nodes: ["http://h:9200"], fetch }).getConnection();
  const text = 'POST /{?}/_search {"query": {"term": {"tag": ?}}}';
  for (const [index, tag] of [["a", "x"], ["a", "x"], ["a", "y"], ["b", "y"], ["a", "x"]]) {
    const rs = await executeFirst(conn, text, [index, tag]) as ResultSet;
    assert.deepEqual(rs.toArray(), [{ _ID: "1", _DOC: "{}" }]);
  }
  // A statement's run in between (a command of its own) does not disturb the next read.
  await conn.createStatement().executeQuery('POST /c/_search {"size": 1}');
  await executeFirst(conn, text, ["a", "x"]);
  assert.deepEqual(seen, [
    'POST /a/_search {"query":{"term":{"tag":"x"}}}',
    'POST /a/_search {"query":{"term":{"tag":"x"}}}',
    'POST /a/_search {"query":{"term":{"tag":"y"}}}',
    'POST /b/_search {"query":{"term":{"tag":"y"}}}',
    'POST /a/_search {"query":{"term":{"tag":"x"}}}',
    'POST /c/_search {"size":1}',
    'POST /a/_search {"query":{"term":{"tag":"x"}}}',
  ]);
});
