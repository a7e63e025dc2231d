import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeFetch } from "./fetch_node.ts";
import { ConnectionError, DataSource, ResponseTooLargeError, TimeoutError } from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { Engine, serve } from "../engine/mod.ts";

/** A loopback server with a hand-written handler; `closed` counts sockets the client closed. */
async function rawServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; closed: () => number; stop: () => Promise<void> }> {
  let closed = 0;
  const server = createServer(handler);
  server.on("connection", (socket) => socket.on("close", () => closed++));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    closed: () => closed,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ok(), "condition not reached within 2 s");
};

Deno.test("nodeFetch: JdbcTemplate reads and writes through it against the engine", async () => {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const fetch = nodeFetch({ maxSockets: 4 });
  try {
    const jdbc = new JdbcTemplate(new DataSource({ nodes: [server.url], fetch }));
    assert.equal(await jdbc.executeUpdate('PUT /p/_doc/1?refresh=true {"n": #{n}}', { n: 7 }), 1);
    const rows = await Promise.all(
      Array.from({ length: 8 }, () => jdbc.queryForList("POST /p/_search {}")),
    );
    for (const r of rows) assert.deepEqual(r, [{ _ID: "1", _DOC: '{"n":7}' }]);
    const head = await fetch(`${server.url}/p`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    const missing = await fetch(`${server.url}/nope/_doc/1`, { headers: [["accept", "x/y"]] });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).found, undefined);
  } finally {
    fetch.close();
    await server.close();
    engine.close();
  }
});

Deno.test("nodeFetch: an abort before the answer destroys the socket and rejects", async () => {
  const srv = await rawServer(() => {/* never answers */});
  const fetch = nodeFetch();
  try {
    const started = Date.now();
    await assert.rejects(
      fetch(`${srv.url}/x`, { method: "POST", body: "{}", signal: AbortSignal.timeout(100) }),
      (e: Error) => e.name === "TimeoutError",
    );
    assert.ok(Date.now() - started < 2_000);
    await until(() => srv.closed() === 1);
    // Through the driver: its attempt timeout ends the wait the same way.
    const ds = new DataSource({ nodes: [srv.url], fetch, timeoutMs: 100, maxRetries: 0 });
    await using conn = await ds.getConnection();
    await assert.rejects(conn.createStatement().executeQuery("GET /x/_search"), TimeoutError);
  } finally {
    fetch.close();
    await srv.stop();
  }
});

Deno.test("nodeFetch: an abort while the body streams fails the read", async () => {
  const srv = await rawServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"partial": ');
  });
  const fetch = nodeFetch();
  try {
    const controller = new AbortController();
    const res = await fetch(`${srv.url}/x`, { signal: controller.signal });
    assert.equal(res.status, 200);
    const text = res.text();
    controller.abort(new Error("stop"));
    await assert.rejects(text, /stop/);
    await until(() => srv.closed() === 1);
  } finally {
    fetch.close();
    await srv.stop();
  }
});

Deno.test("nodeFetch: an endless body is cut off at maxResponseBytes, not buffered", async () => {
  let sent = 0;
  const chunk = new Uint8Array(16 * 1024).fill(32);
  const srv = await rawServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write("[");
    // Bounded: at most 64 MiB, and only as fast as the client reads.
    const pump = (): void => {
      while (sent < 64 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
    };
    pump();
  });
  const fetch = nodeFetch();
  try {
    const ds = new DataSource({ nodes: [srv.url], fetch, maxResponseBytes: 256 * 1024 });
    await using conn = await ds.getConnection();
    await assert.rejects(
      conn.createStatement().executeQuery("GET /x/_search"),
      ResponseTooLargeError,
    );
    await until(() => srv.closed() === 1);
    assert.ok(sent < 16 * 1024 * 1024, `the server sent ${sent} bytes before the cut`);
  } finally {
    fetch.close();
    await srv.stop();
  }
});

Deno.test("nodeFetch: a refused connection is a connect-phase failure, retried", async () => {
  const srv = await rawServer(() => {});
  const url = srv.url;
  await srv.stop();
  const fetch = nodeFetch();
  try {
    const error = await fetch(`${url}/`).catch((e) => e);
    assert.equal(error.code, "ECONNREFUSED");
    const ds = new DataSource({ nodes: [url], fetch, maxRetries: 1, retryBaseDelayMs: 1 });
    await using conn = await ds.getConnection();
    // A write is retried only because nothing was sent: the driver must see a connect failure.
    await assert.rejects(
      conn.createStatement().executeUpdate('POST /p/_doc {"a": 1}'),
      (e: Error) => e instanceof ConnectionError && /2 attempt/.test(e.message),
    );
  } finally {
    fetch.close();
  }
});

Deno.test("nodeFetch: bodies other than text or bytes are refused with a TypeError", async () => {
  const fetch = nodeFetch();
  try {
    await assert.rejects(
      fetch("http://127.0.0.1:9/", { method: "POST", body: new URLSearchParams("a=1") }),
      /string or bytes/,
    );
    await assert.rejects(fetch("file:///etc/passwd"), /only http: and https:/);
  } finally {
    fetch.close();
  }
});
