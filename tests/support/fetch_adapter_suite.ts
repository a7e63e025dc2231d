// The behaviour both contrib/fetch_deno and contrib/fetch_node keep, as one suite each adapter's
// test file runs on its own fetch (contrib/fetch_deno_test.ts, contrib/fetch_node_test.ts; on
// Bun through contrib/_run_tests_bun.ts).

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createServer, type RequestListener } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import { gzipSync } from "node:zlib";
import {
  ConnectionError,
  DataSource,
  OutcomeUnknownError,
  ResponseTooLargeError,
  TimeoutError,
} from "../../driver/mod.ts";
import { JdbcTemplate } from "../../template/mod.ts";
import { Engine, serve } from "../../engine/mod.ts";
import { httpServer as rawServer, tcpServer, until } from "./loopback_servers.ts";

/** A fetch adapter under test. */
export interface FetchAdapter {
  /** Its name, the prefix of its tests' names. */
  readonly name: string;
  /** Creates its fetch. */
  make(options?: { maxSockets?: number }): AdapterFetch;
  /** Creates its fetch trusting only the CA certificate `ca` (PEM) for `https:`. */
  trusting(ca: string): AdapterFetch;
  /** The `code` of the connect failure on a server whose certificate it does not trust. */
  readonly untrustedCode: string;
}

/** What the suite uses of an adapter's fetch. */
export interface AdapterFetch {
  (url: string, init?: RequestInit): Promise<Response>;
  close(): void;
}

/** Registers the shared tests (`Deno.test`) for `adapter`. */
export function fetchAdapterSuite(adapter: FetchAdapter): void {
  const { name, make, trusting } = adapter;
  Deno.test(`${name}: JdbcTemplate reads and writes through it against the engine`, async () => {
    const engine = new Engine();
    const server = await serve(engine, { port: 0 });
    const fetch = make({ maxSockets: 4 });
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

  Deno.test(`${name}: an abort before the answer destroys the socket and rejects`, async () => {
    const srv = await rawServer(() => {/* never answers */});
    const fetch = make();
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

  Deno.test(`${name}: an abort while the body streams fails the read`, async () => {
    const srv = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"partial": ');
    });
    const fetch = make();
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

  Deno.test(`${name}: an endless body is cut off at maxResponseBytes, not buffered`, async () => {
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
    const fetch = make();
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

  Deno.test(`${name}: a refused connection is a connect-phase failure, retried`, async () => {
    const srv = await rawServer(() => {});
    const url = srv.url;
    await srv.stop();
    const fetch = make();
    try {
      const error = await fetch(`${url}/`).catch((e) => e);
      assert.equal(error.code, "ECONNREFUSED");
      const lookup = await fetch("http://no-such-host.invalid/").catch((e) => e);
      assert.equal(lookup.code, "ENOTFOUND");
      assert.match(lookup.message, /^tcp connect error: could not connect/);
      await writeRetried(url, fetch);
    } finally {
      fetch.close();
    }
  });

  Deno.test(`${name}: bodies other than text or bytes are refused with a TypeError`, async () => {
    const fetch = make();
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

  Deno.test(`${name}: a reset mid-response is retried for a search, unknown for a write`, async () => {
    const seen: string[] = [];
    const srv = await tcpServer((socket, head, index) => {
      seen.push(head.slice(0, head.indexOf(" HTTP/")));
      // Requests 0, 1 and 3 get half an answer, then a reset.
      if (index !== 2) {
        socket.write(
          "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 99\r\n\r\n{",
        );
        return void setTimeout(() => socket.resetAndDestroy(), 5);
      }
      const body =
        '{"hits":{"total":{"value":1,"relation":"eq"},"hits":[{"_id":"1","_source":{"a":1}}]}}';
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
    });
    const fetch = make();
    try {
      const error = await fetch(`${srv.url}/x`).then((r) => r.text()).catch((e) => e);
      assert.equal(error.code, "ECONNRESET");
      const ds = new DataSource({ nodes: [srv.url], fetch, maxRetries: 2, retryBaseDelayMs: 1 });
      const jdbc = new JdbcTemplate(ds);
      // A search is safe to repeat: the second attempt answers.
      assert.deepEqual(await jdbc.queryForList("POST /p/_search {}"), [{
        _ID: "1",
        _DOC: '{"a":1}',
      }]);
      // A write may have been applied: never sent twice, reported as unknown.
      await assert.rejects(jdbc.executeUpdate('POST /p/_doc {"a": 1}'), OutcomeUnknownError);
      assert.deepEqual(seen, ["GET /x", "POST /p/_search", "POST /p/_search", "POST /p/_doc"]);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name}: an abort while waiting for a socket withdraws the request`, async () => {
    const release: (() => void)[] = [];
    const srv = await rawServer((_req, res) => release.push(() => res.end("{}")));
    const fetch = make({ maxSockets: 1 });
    try {
      const first = fetch(`${srv.url}/a`);
      await until(() => release.length === 1);
      const controller = new AbortController();
      const queued = fetch(`${srv.url}/b`, { signal: controller.signal });
      controller.abort(new Error("gave up"));
      await assert.rejects(queued, /gave up/);
      release.shift()!();
      assert.equal(await (await first).text(), "{}");
      // The socket goes on with the next request; the withdrawn one was never sent.
      const third = fetch(`${srv.url}/c`);
      await until(() => release.length === 1);
      release.shift()!();
      assert.equal((await third).status, 200);
      assert.equal(srv.connections(), 1);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name}: large bodies arrive whole, with a length or chunked`, async () => {
    const big = Buffer.alloc(6 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = 97 + (i * 7919 % 26);
    const srv = await rawServer((req, res) => {
      if (req.url === "/length") {
        res.writeHead(200, { "content-length": big.length });
        res.end(big);
      } else {
        res.writeHead(200, { "content-type": "application/json" }); // chunked
        for (let at = 0; at < big.length; at += 100_000) res.write(big.subarray(at, at + 100_000));
        res.end();
      }
    });
    const fetch = make();
    try {
      for (const path of ["/length", "/chunked"]) {
        const res = await fetch(`${srv.url}${path}`);
        assert.ok(Buffer.from(await res.bytes()).equals(big), path);
        const stream = await fetch(`${srv.url}${path}`);
        let total = 0;
        for await (const chunk of stream.body!) total += chunk.byteLength;
        assert.equal(total, big.length, path);
      }
      // Through the driver: a large search answer under its limit is read whole.
      const hits = Array.from(
        { length: 2_000 },
        (_, i) => ({ _id: `${i}`, _source: { t: "x".repeat(500) } }),
      );
      const answer = JSON.stringify({ hits: { total: { value: 2_000, relation: "eq" }, hits } });
      const es = await rawServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(answer);
      });
      try {
        const jdbc = new JdbcTemplate(new DataSource({ nodes: [es.url], fetch }));
        const rows = await jdbc.queryForList("POST /p/_search {}");
        assert.equal(rows.length, 2_000);
      } finally {
        await es.stop();
      }
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name}: a gzip answer is decoded, for the driver too`, async () => {
    const answer = JSON.stringify({
      hits: {
        total: { value: 1, relation: "eq" },
        hits: [{ _id: "z", _source: { s: "é".repeat(3000) } }],
      },
    });
    const srv = await rawServer((_req, res) => {
      const zipped = gzipSync(answer);
      res.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": zipped.length,
      });
      res.end(zipped);
    });
    const fetch = make();
    try {
      const res = await fetch(`${srv.url}/x`);
      assert.equal(res.headers.get("content-encoding"), "gzip");
      assert.equal(await res.text(), answer);
      const jdbc = new JdbcTemplate(
        new DataSource({ nodes: [srv.url], fetch, maxResponseBytes: 1000 }),
      );
      // The limit counts decoded bytes: 3000 × "é" passes 1000 once inflated.
      await assert.rejects(jdbc.queryForList("POST /p/_search {}"), ResponseTooLargeError);
      const roomy = new JdbcTemplate(new DataSource({ nodes: [srv.url], fetch }));
      const rows = await roomy.queryForList("POST /p/_search {}");
      assert.equal(JSON.parse(rows[0]!._DOC as string).s, "é".repeat(3000));
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name}: sockets are reused, and one the server closed when idle is not`, async () => {
    const srv = await rawServer((_req, res) => res.end("ok"), { keepAliveTimeout: 2_000 });
    const fetch = make();
    try {
      for (let i = 0; i < 20; i++) assert.equal(await (await fetch(`${srv.url}/`)).text(), "ok");
      assert.equal(srv.connections(), 1);
    } finally {
      fetch.close();
      await srv.stop();
    }
    // This server closes each connection 30 ms after its answer, without a Keep-Alive hint.
    const closing = await tcpServer((socket) => {
      socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
      setTimeout(() => socket.end(), 30);
    });
    const fetch2 = make();
    try {
      assert.equal(await (await fetch2(`${closing.url}/`)).text(), "ok");
      await until(() => closing.closed() === 1);
      // A write after the idle close goes out on a fresh socket, not the dead one.
      const res = await fetch2(`${closing.url}/`, { method: "POST", body: "{}" });
      assert.equal(await res.text(), "ok");
      assert.equal(closing.connections(), 2);
    } finally {
      fetch2.close();
      await closing.stop();
    }
  });

  Deno.test(`${name}: a failed TLS handshake is a connect-phase failure, retried`, async () => {
    // A plain-text server on an https: URL: the handshake fails before anything is sent.
    const srv = await tcpServer(() => {}, {
      onData: (socket) => socket.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n"),
    });
    const fetch = make();
    try {
      const url = srv.url.replace("http:", "https:");
      const error = await fetch(`${url}/`).catch((e) => e);
      assert.match(String(error.message), /^tcp connect error: /);
      await writeRetried(url, fetch);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name}: the driver's deadline ends a body that stalls after its head`, async () => {
    // A declared length the driver trusts (it reads the text at once): the stall must still end.
    const srv = await rawServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": 1000 });
      res.write('{"hits": ');
    });
    const fetch = make();
    try {
      const ds = new DataSource({ nodes: [srv.url], fetch, timeoutMs: 150, maxRetries: 0 });
      const started = Date.now();
      await assert.rejects(new JdbcTemplate(ds).queryForList("POST /p/_search {}"), TimeoutError);
      assert.ok(Date.now() - started < 2_000);
      await until(() => srv.closed() === 1);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name}: https with a trusted CA, reused; an untrusted one is a connect failure`, async (t) => {
    const pair = await caSigned();
    if (pair === undefined) return void t.step({ name: "openssl missing", ignore: true, fn() {} });
    const { createServer } = await import("node:https");
    let connections = 0;
    const server = createServer({ key: pair.key, cert: pair.cert }, (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"hits":{"total":{"value":0,"relation":"eq"},"hits":[]}}');
    });
    server.on("secureConnection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    const trusted = trusting(pair.ca);
    const untrusted = make();
    try {
      const jdbc = new JdbcTemplate(new DataSource({ nodes: [url], fetch: trusted }));
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await jdbc.queryForList("POST /p/_search {}"), []);
      }
      assert.equal(connections, 1);
      const error = await untrusted(`${url}/`).catch((e) => e);
      assert.equal(error.code, adapter.untrustedCode);
      assert.match(error.message, /^tcp connect error: the TLS handshake/);
    } finally {
      trusted.close();
      untrusted.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  Deno.test(`${name}: a large request body is written whole, and the next request follows it`, async () => {
    const sizes: number[] = [];
    const srv = await rawServer((req, res) => {
      let size = 0;
      req.on("data", (chunk: Uint8Array) => size += chunk.byteLength);
      req.on("end", () => {
        sizes.push(size);
        res.end("{}");
      });
    });
    const fetch = make();
    try {
      const url = `${srv.url}/_bulk`;
      // 8 MiB of NDJSON (more than a socket takes in one write) and a multi-byte character.
      const line = JSON.stringify({ index: { _index: "p" } }) + "\n" +
        JSON.stringify({ t: "é".repeat(500) }) + "\n";
      const body = line.repeat(Math.ceil(8 * 1024 * 1024 / line.length));
      const res = await fetch(url, { method: "POST", body });
      assert.equal(await res.text(), "{}");
      assert.equal((await fetch(url, { method: "POST", body: "{}" })).status, 200);
      assert.deepEqual(sizes, [new TextEncoder().encode(body).byteLength, 2]);
      assert.equal(srv.connections(), 1);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  // `localhost` may resolve to one loopback address (or to ::1 first) while the server listens on
  // the other only: a refused connection is tried on the other loopback address. This host's
  // resolver decides which of the two cases below takes the fallback; each must answer.
  for (const host of ["127.0.0.1", "::1"]) {
    const skip = host === "::1" && !IPV6_LOOPBACK;
    Deno.test({
      name: `${name}: localhost reaches a server listening on ${host} only` +
        (skip ? " (ignored: this host has no IPv6 loopback to listen on)" : ""),
      ignore: skip,
      fn: async () => {
        const srv = await listenOn(host, 0, (_req, res) => res.end(host));
        const fetch = make();
        try {
          for (let i = 0; i < 3; i++) {
            assert.equal(await (await fetch(`http://localhost:${srv.port}/`)).text(), host);
          }
          // The connection that stood is the one kept: the refused attempt was no connection.
          assert.equal(srv.connections(), 1);
        } finally {
          fetch.close();
          await srv.stop();
        }
      },
    });
  }

  Deno.test(`${name}: localhost where nothing listens stays a connect failure, retried`, async () => {
    const srv = await listenOn("127.0.0.1", 0, () => {});
    const port = srv.port;
    await srv.stop();
    const fetch = make();
    try {
      const error = await fetch(`http://localhost:${port}/`).catch((e) => e);
      assert.equal(error.code, "ECONNREFUSED");
      assert.match(error.message, /^tcp connect error: could not connect to localhost:/);
      await writeRetried(`http://localhost:${port}`, fetch);
    } finally {
      fetch.close();
    }
  });

  Deno.test(`${name}: a localhost request that may have been sent is not sent again`, async () => {
    // Both loopback addresses on one port (::1 where the host has it), each resetting a
    // connection once a request arrived on it: the fallback is for refused connections only.
    let requests = 0;
    const onSocket = (socket: Socket) => {
      socket.on("error", () => {});
      socket.once("data", () => {
        requests++;
        socket.resetAndDestroy();
      });
    };
    const servers = [await tcpListen("127.0.0.1", 0, onSocket)];
    if (IPV6_LOOPBACK) servers.push(await tcpListen("::1", servers[0]!.port, onSocket));
    const url = `http://localhost:${servers[0]!.port}`;
    const fetch = make();
    try {
      const error = await fetch(`${url}/p/_doc`, { method: "POST", body: '{"a":1}' })
        .catch((e) => e);
      assert.equal(error.code, "ECONNRESET");
      assert.doesNotMatch(error.message, /tcp connect error/);
      assert.equal(requests, 1);
      const ds = new DataSource({ nodes: [url], fetch, maxRetries: 2, retryBaseDelayMs: 1 });
      await assert.rejects(
        new JdbcTemplate(ds).executeUpdate('POST /p/_doc {"a": 1}'),
        OutcomeUnknownError,
      );
      assert.equal(requests, 2);
    } finally {
      fetch.close();
      await Promise.all(servers.map((s) => s.stop()));
    }
  });
}

/** Whether this host has an IPv6 loopback to listen on (asked once, when the suite loads). */
const IPV6_LOOPBACK = await new Promise<boolean>((resolve) => {
  const server = createTcpServer();
  server.once("error", () => resolve(false));
  server.listen(0, "::1", () => server.close(() => resolve(true)));
});

/** A listening server on `host`, with its port, accepted connections and `stop`. */
interface Listening {
  readonly port: number;
  connections(): number;
  stop(): Promise<void>;
}

/** A node:http server with `handler` on `host` (a loopback address) and `port` (0: any). */
async function listenOn(host: string, port: number, handler: RequestListener): Promise<Listening> {
  const server = createServer(handler);
  let opened = 0;
  server.on("connection", () => opened++);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => opened,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A node:net server on `host` and `port` (0: any), each connection given to `onSocket`. */
async function tcpListen(
  host: string,
  port: number,
  onSocket: (socket: Socket) => void,
): Promise<Listening> {
  const sockets = new Set<Socket>();
  let opened = 0;
  const server = createTcpServer((socket) => {
    opened++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => opened,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A throwaway CA and a certificate for 127.0.0.1 it signed (rustls, under `Deno.connectTls`,
 * refuses a CA certificate used as the server's own), or undefined without openssl.
 */
async function caSigned(): Promise<{ key: string; cert: string; ca: string } | undefined> {
  const dir = await Deno.makeTempDir();
  const run = async (args: string[]) =>
    (await new Deno.Command("openssl", { args, stdout: "null", stderr: "null" }).output())
      .success;
  try {
    const ok = await run(
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=ca"]
        .concat(["-keyout", `${dir}/ca.key`, "-out", `${dir}/ca.pem`]),
    ) &&
      await run(
        ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=t"]
          .concat(["-keyout", `${dir}/k.pem`, "-out", `${dir}/r.csr`]),
      ) &&
      (await Deno.writeTextFile(`${dir}/ext`, "subjectAltName=IP:127.0.0.1\n"), true) &&
      await run(
        ["x509", "-req", "-in", `${dir}/r.csr`, "-CA", `${dir}/ca.pem`, "-CAkey", `${dir}/ca.key`]
          .concat(["-CAcreateserial", "-days", "1", "-extfile", `${dir}/ext`])
          .concat(["-out", `${dir}/c.pem`]),
      );
    if (!ok) return undefined;
    return {
      key: await Deno.readTextFile(`${dir}/k.pem`),
      cert: await Deno.readTextFile(`${dir}/c.pem`),
      ca: await Deno.readTextFile(`${dir}/ca.pem`),
    };
  } catch {
    return undefined; // no openssl on this machine
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A write through the driver on `fetch` to `url`, which refuses the connection: retried (and so
 * failing after two attempts) only because nothing was sent, so the driver must have seen a
 * connect failure.
 */
async function writeRetried(url: string, fetch: AdapterFetch): Promise<void> {
  const ds = new DataSource({ nodes: [url], fetch, maxRetries: 1, retryBaseDelayMs: 1 });
  await using conn = await ds.getConnection();
  await assert.rejects(
    conn.createStatement().executeUpdate('POST /p/_doc {"a": 1}'),
    (e: Error) => e instanceof ConnectionError && /2 attempt/.test(e.message),
  );
}
