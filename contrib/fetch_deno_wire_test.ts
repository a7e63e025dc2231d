// contrib/fetch_deno at the byte level: the wire suite both adapters pass
// (tests/support/fetch_adapter_wire_suite.ts), run on this one.

import { denoFetch } from "./fetch_deno.ts";
import { fetchAdapterWireSuite } from "../tests/support/fetch_adapter_wire_suite.ts";
import { tcpServer } from "../tests/support/loopback_servers.ts";
import assert from "node:assert/strict";

const OK = "HTTP/1.1 200 OK\r\n";

fetchAdapterWireSuite({ name: "denoFetch", make: denoFetch });

Deno.test("denoFetch wire: an answer before the body is written in full closes its connection", async () => {
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
      s.pending += Buffer.from(chunk).toString("latin1");
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
          socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
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
  const fetch = denoFetch();
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

Deno.test("denoFetch wire: a 400 to a head over 8 KiB closes its connection", async () => {
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
  const fetch = denoFetch();
  try {
    const refused = await fetch(`${srv.url}/`, { headers: { "x-big": "h".repeat(20_000) } });
    assert.equal(refused.status, 400);
    assert.equal(await refused.text(), reason);
    // Without a deadline a request sent on the deaf connection would wait forever.
    const next = await fetch(`${srv.url}/_cluster/health`, { signal: AbortSignal.timeout(10_000) });
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
