// contrib/fetch_node on the runtimes it is for, through the installed package: run by
// .ci/npm_smoke.sh with `node fetch_node_check.mjs` (Node 20 and 22) and `bun fetch_node_check.mjs`.
// The Deno tests beside the code run it over Deno's node:net; this checks the same contract where
// users run it: the driver against the engine, decoded and chunked bodies, aborts, and the retry
// policy's view of failures before and after a request was sent.
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { gzipSync } from "node:zlib";
import { nodeFetch } from "@searchvisitor/searchvisitor/contrib/fetch_node";
import {
  ConnectionError,
  DataSource,
  OutcomeUnknownError,
} from "@searchvisitor/searchvisitor/driver";
import { JdbcTemplate } from "@searchvisitor/searchvisitor/template";
import { Engine, serve } from "@searchvisitor/searchvisitor/engine";

const runtime = globalThis.Bun ? `bun ${globalThis.Bun.version}` : `node ${process.version}`;
const listen = (server) =>
  new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`))
  );
const fetch = nodeFetch({ maxSockets: 8 });

// The driver against the engine: a write, then searches 16 at a time.
const engine = new Engine();
const server = await serve(engine, { port: 0 });
{
  const jdbc = new JdbcTemplate(new DataSource({ nodes: [server.url], fetch }));
  assert.equal(await jdbc.executeUpdate('PUT /p/_doc/1?refresh=true {"n": #{n}}', { n: 7 }), 1);
  const all = await Promise.all(
    Array.from({ length: 16 }, () => jdbc.queryForList("POST /p/_search {}")),
  );
  for (const rows of all) assert.deepEqual(rows, [{ _ID: "1", _DOC: '{"n":7}' }]);
  const head = await fetch(`${server.url}/p`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.body, null);
}
await server.close();
engine.close();

// Bodies: gzip decoded, a large chunked body whole, an abort while it streams fails the read.
const big = "x".repeat(3 * 1024 * 1024);
const bodies = http.createServer((req, res) => {
  if (req.url === "/gzip/_search") {
    const zipped = gzipSync('{"hits":{"hits":[{"_id":"g","_source":{"z":"ü"}}]}}');
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    res.end(zipped);
  } else if (req.url === "/big") {
    for (let at = 0; at < big.length; at += 65_536) res.write(big.slice(at, at + 65_536));
    res.end();
  } else {
    res.writeHead(200);
    res.write("partial");
  }
});
const bodiesUrl = await listen(bodies);
{
  const jdbc = new JdbcTemplate(new DataSource({ nodes: [bodiesUrl], fetch }));
  assert.deepEqual(await jdbc.queryForList("POST /gzip/_search {}"), [{
    _ID: "g",
    _DOC: '{"z":"ü"}',
  }]);
  assert.equal((await (await fetch(`${bodiesUrl}/big`)).text()).length, big.length);
  const controller = new AbortController();
  const res = await fetch(`${bodiesUrl}/hang`, { signal: controller.signal });
  const text = res.text();
  controller.abort(new Error("stop"));
  await assert.rejects(text, /stop/);
}
bodies.closeAllConnections();
bodies.close();

// A refused port: nothing was sent, so even a write is retried (and then reported unreachable).
const spare = net.createServer();
const refusedUrl = await listen(spare);
await new Promise((resolve) => spare.close(resolve));
{
  const ds = new DataSource({ nodes: [refusedUrl], fetch, maxRetries: 1, retryBaseDelayMs: 1 });
  await assert.rejects(
    new JdbcTemplate(ds).executeUpdate('POST /p/_doc {"a": 1}'),
    (e) => e instanceof ConnectionError && /2 attempt/.test(e.message),
  );
}

// A reset after the request was sent: a write is never repeated, its outcome is unknown.
let writes = 0;
const resetting = net.createServer((socket) => {
  socket.on("error", () => {});
  socket.once("data", () => {
    writes++;
    socket.write("HTTP/1.1 200 OK\r\ncontent-length: 50\r\n\r\n{");
    setTimeout(() => socket.resetAndDestroy(), 5);
  });
});
const resettingUrl = await listen(resetting);
{
  const ds = new DataSource({ nodes: [resettingUrl], fetch, maxRetries: 2, retryBaseDelayMs: 1 });
  await assert.rejects(
    new JdbcTemplate(ds).executeUpdate('POST /p/_doc {"a": 1}'),
    OutcomeUnknownError,
  );
  assert.equal(writes, 1);
}
resetting.close();

// `localhost` reaches a server on either loopback address: a refused connect on one is tried on
// the other (never on an address outside loopback), whichever `localhost` resolves to first.
for (const host of ["127.0.0.1", "::1"]) {
  const only = http.createServer((_req, res) => res.end(host));
  const bound = await new Promise((resolve) => {
    only.once("error", () => resolve(false));
    only.listen(0, host, () => resolve(true));
  });
  if (!bound) continue; // no IPv6 loopback on this host
  const text = await (await fetch(`http://localhost:${only.address().port}/`)).text();
  assert.equal(text, host);
  only.closeAllConnections();
  only.close();
}

fetch.close();
console.log(`fetch_node check ok on ${runtime}`);
