// contrib/fetch_deno and contrib/fetch_node at the byte level: what they write, and how they read
// answers a node:http server would never send (chunked with trailers, interim answers, lies
// about lengths, garbage). One suite, run by each adapter's wire test file (and on Bun by
// contrib/_run_tests_bun.ts).

import assert from "node:assert/strict";
import { brotliCompressSync, deflateSync } from "node:zlib";
import { tcpServer, until } from "./loopback_servers.ts";
import type { FetchAdapter } from "./fetch_adapter_suite.ts";

const OK = "HTTP/1.1 200 OK\r\n";
const LATIN1 = new TextDecoder("latin1");

/** Registers the shared wire tests (`Deno.test`) for `adapter`. */
export function fetchAdapterWireSuite(adapter: Pick<FetchAdapter, "name" | "make">): void {
  const { name, make } = adapter;
  Deno.test(`${name} wire: the request head is what fetch would send`, async () => {
    const heads: string[] = [];
    const srv = await tcpServer((socket, head) => {
      heads.push(head);
      socket.write(`${OK}content-length: 0\r\n\r\n`);
    });
    const fetch = make();
    try {
      await fetch(`${srv.url}/a b/é?q=1#frag`, {
        method: "post",
        headers: { Accept: "application/json", Host: "evil", Connection: "close", "X-N": " 1 " },
        body: '{"é":1}',
      });
      const port = new URL(srv.url).port;
      assert.deepEqual(heads[0]!.split("\r\n"), [
        "POST /a%20b/%C3%A9?q=1 HTTP/1.1",
        `host: 127.0.0.1:${port}`,
        "accept: application/json",
        "x-n: 1",
        "content-type: text/plain;charset=UTF-8",
        "content-length: 8",
      ]);
      await fetch(`${srv.url}/`, {
        method: "PUT",
        headers: new Headers({ "content-type": "x/y" }),
        body: new Uint8Array([1, 2]),
      });
      assert.deepEqual(heads[1]!.split("\r\n").slice(2), [
        "content-type: x/y",
        "content-length: 2",
      ]);
      await fetch(`${srv.url}/`);
      assert.deepEqual(heads[2]!.split("\r\n").slice(0, 1), ["GET / HTTP/1.1"]);
      assert.equal(srv.connections(), 1);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: what fetch refuses is refused before anything is sent`, async () => {
    const fetch = make();
    try {
      const url = "http://127.0.0.1:9/";
      await assert.rejects(fetch(url, { headers: { "x-a": "1\r\nx-b: 2" } }), TypeError);
      await assert.rejects(fetch(url, { headers: { "bad name": "1" } }), TypeError);
      await assert.rejects(fetch(url, { method: "GET", body: "{}" }), TypeError);
      await assert.rejects(fetch(url, { method: "CONNECT" }), TypeError);
      await assert.rejects(fetch("http://user:pw@127.0.0.1:9/"), TypeError);
      await assert.rejects(fetch(url, { headers: { "x-a": "\u2603" } }), TypeError);
    } finally {
      fetch.close();
    }
  });

  Deno.test(`${name} wire: chunked bodies with trailers, written in pieces; the socket is reused`, async () => {
    const srv = await tcpServer((socket) => {
      const parts = [
        `${OK}transfer-encoding: chunked\r\ncontent-type: text/plain\r\n\r\n5\r`,
        "\nhello\r\n6;ext\r\n wo",
        "rld\r\n0\r\nx-trailer: 1\r\n",
        "\r\n",
      ];
      parts.forEach((p, i) => setTimeout(() => socket.write(p), i * 5));
    });
    const fetch = make();
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${srv.url}/`);
        assert.equal(await res.text(), "hello world");
      }
      assert.equal(srv.connections(), 1);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: bytes past content-length are dropped with their socket`, async () => {
    const srv = await tcpServer((socket) => {
      socket.write(
        `${OK}content-length: 5\r\n\r\nhelloHTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nbad`,
      );
    });
    const fetch = make();
    try {
      assert.equal(await (await fetch(`${srv.url}/`)).text(), "hello");
      assert.equal(await (await fetch(`${srv.url}/`)).text(), "hello");
      // The smuggled "answer" was never taken for the second request's.
      assert.equal(srv.connections(), 2);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: interim answers are skipped; no-body answers have a null body`, async () => {
    const srv = await tcpServer((socket, head) => {
      if (head.startsWith("GET /hints")) {
        socket.write("HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n");
        socket.write(`${OK}content-length: 2\r\n\r\nok`);
      } else if (head.startsWith("HEAD")) {
        socket.write(`${OK}content-length: 1234\r\n\r\n`);
      } else socket.write("HTTP/1.1 204 No Content\r\n\r\n");
    });
    const fetch = make();
    try {
      assert.equal(await (await fetch(`${srv.url}/hints`)).text(), "ok");
      const head = await fetch(`${srv.url}/`, { method: "HEAD" });
      assert.equal(head.body, null);
      assert.equal(head.headers.get("content-length"), "1234");
      const none = await fetch(`${srv.url}/`, { method: "DELETE" });
      assert.equal(none.status, 204);
      assert.equal(none.body, null);
      assert.equal(await none.text(), "");
      assert.equal(srv.connections(), 1);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: a body without length is read until the server closes`, async () => {
    const srv = await tcpServer((socket) => {
      socket.write(`${OK}content-type: text/plain\r\n\r\nall of `);
      setTimeout(() => socket.end("it"), 10);
    });
    const fetch = make();
    try {
      assert.equal(await (await fetch(`${srv.url}/`)).text(), "all of it");
      assert.equal(await (await fetch(`${srv.url}/`)).text(), "all of it");
      assert.equal(srv.connections(), 2);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: malformed answers reject with ERR_INVALID_HTTP_RESPONSE`, async () => {
    const answers = [
      "SPDY/3 200 OK\r\n\r\n",
      `${OK}content-length: 1\r\ncontent-length: 2\r\n\r\nx`,
      `${OK}transfer-encoding: chunked\r\n\r\nzz\r\n`,
      `${OK}x: ${"y".repeat(70_000)}`,
    ];
    const srv = await tcpServer((socket, _head, index) => void socket.write(answers[index]!));
    const fetch = make();
    try {
      for (const answer of answers) {
        const error = await fetch(`${srv.url}/`).then((r) => r.text()).catch((e) => e);
        assert.equal(error.code, "ERR_INVALID_HTTP_RESPONSE", answer.slice(0, 40));
      }
      await until(() => srv.closed() === answers.length);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: response headers, a body stream, clone and blob`, async () => {
    const srv = await tcpServer((socket) => {
      socket.write(
        `${OK}Set-Cookie: a=1\r\nSet-Cookie: b=2\r\nX-Many: 1\r\nx-many: 2\r\nContent-Length: 4\r\n\r\nbody`,
      );
    });
    const fetch = make();
    try {
      const res = await fetch(`${srv.url}/`);
      assert.equal(res.ok, true);
      assert.equal(res.statusText, "OK");
      assert.equal(res.url, `${srv.url}/`);
      assert.equal(res.headers.get("X-MANY"), "1, 2");
      assert.deepEqual(res.headers.getSetCookie(), ["a=1", "b=2"]);
      assert.deepEqual([...res.headers.keys()], [
        "content-length",
        "set-cookie",
        "set-cookie",
        "x-many",
      ]);
      const copy = res.clone();
      assert.equal(await res.text(), "body");
      assert.equal(await copy.text(), "body");
      assert.equal(res.bodyUsed, true);
      await assert.rejects(res.text(), TypeError);
      const again = await fetch(`${srv.url}/`);
      assert.equal(await (await again.blob()).text(), "body");
      const streamed = await fetch(`${srv.url}/`);
      const reader = streamed.body!.getReader();
      assert.equal(new TextDecoder().decode((await reader.read()).value), "body");
      assert.equal((await reader.read()).done, true);
      assert.equal(streamed.bodyUsed, true);
      // A body read whole once it has arrived: plain bytes, read once.
      const whole = await fetch(`${srv.url}/`);
      await new Promise((r) => setTimeout(r, 20)); // the body has arrived
      const bytes = await whole.bytes();
      assert.equal(Object.getPrototypeOf(bytes), Uint8Array.prototype);
      assert.deepEqual(bytes, new TextEncoder().encode("body"));
      assert.equal(whole.bodyUsed, true);
      await assert.rejects(whole.json(), TypeError);
      const bad = await fetch(`${srv.url}/`);
      await assert.rejects(bad.json(), SyntaxError);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: deflate and br are decoded, unknown codings passed through`, async () => {
    const text = "ünïcode ".repeat(500);
    const bodies: Record<string, Uint8Array> = {
      deflate: deflateSync(text),
      br: brotliCompressSync(text),
      zstd_unknown: new TextEncoder().encode("raw"),
    };
    const srv = await tcpServer((socket, head) => {
      const coding = /GET \/(\w+)/.exec(head)![1]!;
      const body = bodies[coding]!;
      socket.write(
        `${OK}content-encoding: ${coding}\r\ncontent-length: ${body.byteLength}\r\n\r\n`,
      );
      socket.write(body);
    });
    const fetch = make();
    try {
      assert.equal(await (await fetch(`${srv.url}/deflate`)).text(), text);
      assert.equal(await (await fetch(`${srv.url}/br`)).text(), text);
      assert.equal(await (await fetch(`${srv.url}/zstd_unknown`)).text(), "raw");
      assert.equal(srv.connections(), 1);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: bytes after a body-less answer drop its connection`, async () => {
    const srv = await tcpServer((socket) => {
      socket.write(`HTTP/1.1 204 No Content\r\n\r\n${OK}content-length: 3\r\n\r\nbad`);
    });
    const fetch = make();
    try {
      assert.equal((await fetch(`${srv.url}/`, { method: "DELETE" })).status, 204);
      assert.equal((await fetch(`${srv.url}/`, { method: "DELETE" })).status, 204);
      // The stray "answer" was never taken for the second request's.
      assert.equal(srv.connections(), 2);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: dot segments and backslashes are resolved as fetch resolves them`, async () => {
    // Sent as written, `/p/./_doc/1` is a request for a document in index `.` to the engines.
    const lines: string[] = [];
    const srv = await tcpServer((socket, head) => {
      lines.push(head.slice(0, head.indexOf("\r\n")));
      socket.write(`${OK}content-length: 0\r\n\r\n`);
    });
    const fetch = make();
    try {
      const paths = [
        "/p/./_doc/1",
        "/p/x/../_doc/1",
        "/p/x/%2E%2e/_doc/1?v",
        "/p/%2e/_doc/1",
        "/p/_doc/a\\b",
      ];
      for (const path of paths) await (await fetch(`${srv.url}${path}`)).text();
      assert.deepEqual(lines, [
        "GET /p/_doc/1 HTTP/1.1",
        "GET /p/_doc/1 HTTP/1.1",
        "GET /p/_doc/1?v HTTP/1.1",
        "GET /p/_doc/1 HTTP/1.1",
        "GET /p/_doc/a/b HTTP/1.1",
      ]);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: an answer before the body is written in full closes its connection`, async () => {
    // As OpenSearch 3.8 does with a body over `http.max_content_length` (asked with curl and a raw
    // socket): `413` with `content-length: 0` as soon as the head is read, the connection kept,
    // the declared body read and discarded, then the next request answered; bytes that are no
    // request line are answered `400` and the connection closed.
    const LIMIT = 1024 * 1024;
    const seen: string[] = [];
    const state = new WeakMap<object, { pending: string; skip: number }>();
    const srv = await tcpServer(() => {}, {
      onData(socket, chunk) {
        let s = state.get(socket);
        if (s === undefined) state.set(socket, s = { pending: "", skip: 0 });
        s.pending += LATIN1.decode(chunk);
        for (;;) {
          if (s.skip > 0) {
            const n = Math.min(s.skip, s.pending.length);
            s.skip -= n;
            s.pending = s.pending.slice(n);
            if (s.skip > 0) return;
          }
          if (s.pending.length === 0) return;
          // A request starts with its method (the body here has no capital letter).
          const line = s.pending.slice(0, s.pending.indexOf("\r\n") + 2);
          if (
            !/^[A-Z]/.test(s.pending) || (line !== "" && !/^[A-Z]+ \S+ HTTP\/1\.1\r\n$/.test(line))
          ) {
            seen.push("garbage");
            socket.end(
              `HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
            );
            return;
          }
          const end = s.pending.indexOf("\r\n\r\n");
          if (end < 0) return;
          const head = s.pending.slice(0, end);
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
          const first = head.slice(0, head.indexOf("\r\n"));
          if (length > LIMIT) {
            seen.push(`413 ${first}`);
            s.pending = s.pending.slice(end + 4);
            s.skip = length;
            socket.write("HTTP/1.1 413 Request Entity Too Large\r\ncontent-length: 0\r\n\r\n");
            // Read the rest a little later, so the client is still writing when it has the answer.
            socket.pause();
            setTimeout(() => socket.resume(), 50);
            continue;
          }
          if (s.pending.length < end + 4 + length) return;
          s.pending = s.pending.slice(end + 4 + length);
          seen.push(first);
          socket.write(`${OK}content-length: ${first.length}\r\n\r\n${first}`);
        }
      },
    });
    const fetch = make();
    try {
      const body = `{"index":{}}\n{"s":"${"x".repeat(1000)}"}\n`.repeat(8 * 1024);
      const first = await fetch(`${srv.url}/p/_bulk`, { method: "POST", body });
      assert.equal(first.status, 413);
      assert.equal(await first.text(), "");
      const next = await fetch(`${srv.url}/_cluster/health`);
      assert.equal(await next.text(), "GET /_cluster/health HTTP/1.1");
      assert.deepEqual(seen, ["413 POST /p/_bulk HTTP/1.1", "GET /_cluster/health HTTP/1.1"]);
      assert.equal(srv.connections(), 2);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });

  Deno.test(`${name} wire: a 400 to a head over 8 KiB closes its connection`, async () => {
    // As Elasticsearch 9.5 and OpenSearch 3.8 answer a head over http.max_header_size (16 KiB),
    // asked with a raw socket: 400 too_long_http_header_exception, the connection kept open, and
    // nothing sent on it afterwards ever answered.
    const reason = '{"error":{"type":"too_long_http_header_exception"},"status":400}';
    const deaf = new WeakSet<object>();
    const srv = await tcpServer((socket, head) => {
      if (deaf.has(socket)) return;
      if (head.length > 16 * 1024) {
        deaf.add(socket);
        socket.write(
          `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n` +
            `content-length: ${reason.length}\r\n\r\n${reason}`,
        );
        return;
      }
      if (head.includes("x-bad:")) {
        socket.write(`HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n`);
        return;
      }
      socket.write(`${OK}content-length: 2\r\n\r\n{}`);
    });
    const fetch = make();
    try {
      const refused = await fetch(`${srv.url}/`, { headers: { "x-big": "h".repeat(20_000) } });
      assert.equal(refused.status, 400);
      assert.equal(await refused.text(), reason);
      // Without a deadline a request sent on the deaf connection would wait forever.
      const next = await fetch(`${srv.url}/_cluster/health`, {
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(await next.text(), "{}");
      assert.equal(srv.connections(), 2);
      // A 400 to an ordinary head keeps the connection.
      const bad = await fetch(`${srv.url}/`, { headers: { "x-bad": "h".repeat(4_000) } });
      assert.equal(bad.status, 400);
      await bad.text();
      assert.equal((await fetch(`${srv.url}/`)).status, 200);
      assert.equal(srv.connections(), 2);
    } finally {
      fetch.close();
      await srv.stop();
    }
  });
}
