import assert from "node:assert/strict";
import {
  ChunkedDecoder,
  framingOf,
  Http1ProtocolError,
  idleLimitOf,
  loopbackFallbacks,
  parseResponseHead,
  refusedHead,
  strayAfterHead,
} from "./_http1.ts";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (parts: Uint8Array[]): string =>
  parts.map((p) => new TextDecoder().decode(p)).join("");

Deno.test("parseResponseHead: status, reason and fields (lowercased, trimmed, in order)", () => {
  const head = parseResponseHead(
    "HTTP/1.1 404 Not Found\r\nContent-Type:  application/json \r\nX-A: 1\r\nx-a: 2",
  );
  assert.equal(head.status, 404);
  assert.equal(head.statusText, "Not Found");
  assert.equal(head.minor, 1);
  assert.deepEqual(head.fields, [["content-type", "application/json"], ["x-a", "1"], [
    "x-a",
    "2",
  ]]);
  assert.equal(parseResponseHead("HTTP/1.0 200").statusText, "");
});

Deno.test("parseResponseHead: malformed heads are refused", () => {
  for (
    const bad of [
      "HTTP/2 200 OK",
      "HTTP/1.1 20 OK",
      "ICY 200 OK",
      "HTTP/1.1 200 OK\r\nno colon",
      "HTTP/1.1 200 OK\r\n folded: value",
      "HTTP/1.1 200 OK\r\nbad name: x",
      "HTTP/1.1 200 OK\r\n: empty name",
      "HTTP/1.1 200 OK\r\nx-a: 1\nx-b: 2",
      "HTTP/1.1 200 OK\r\nx-a: 1\rx-b: 2",
      "HTTP/1.1 200 OK\r\nx-a: 1\0",
      "HTTP/1.1 200 OK\nx-a: 1",
      "HTTP/1.1 200 OK\r\nx-ä: 1",
      "HTTP/1.1 200 OK\r\n",
    ]
  ) {
    assert.throws(() => parseResponseHead(bad), Http1ProtocolError, bad);
  }
});

Deno.test("framingOf: length, chunked, until close, none; keep-alive by version and header", () => {
  const head = (status: number, fields: [string, string][], minor = 1) =>
    parseResponseHead(
      `HTTP/1.${minor} ${status}${fields.map(([n, v]) => `\r\n${n}: ${v}`).join("")}`,
    );
  assert.deepEqual(framingOf(head(200, [["content-length", "12"]]), "GET"), {
    framing: { kind: "length", length: 12 },
    keepAlive: true,
  });
  assert.deepEqual(framingOf(head(200, [["content-length", "7, 7"]]), "GET").framing, {
    kind: "length",
    length: 7,
  });
  // Chunked wins over a content-length (RFC 9112 §6.3).
  assert.deepEqual(
    framingOf(head(200, [["content-length", "5"], ["transfer-encoding", "chunked"]]), "GET"),
    { framing: { kind: "chunked" }, keepAlive: true },
  );
  assert.deepEqual(framingOf(head(200, [["transfer-encoding", "gzip"]]), "GET"), {
    framing: { kind: "close" },
    keepAlive: false,
  });
  assert.deepEqual(framingOf(head(200, []), "GET"), {
    framing: { kind: "close" },
    keepAlive: false,
  });
  for (const [status, method] of [[204, "GET"], [304, "GET"], [200, "HEAD"]] as const) {
    assert.equal(
      framingOf(head(status, [["content-length", "10"]]), method).framing.kind,
      "none",
    );
  }
  assert.equal(
    framingOf(head(200, [["content-length", "1"], ["connection", "close"]]), "GET").keepAlive,
    false,
  );
  assert.equal(framingOf(head(200, [["content-length", "1"]], 0), "GET").keepAlive, false);
  assert.equal(
    framingOf(head(200, [["content-length", "1"], ["connection", "keep-alive"]], 0), "GET")
      .keepAlive,
    true,
  );
});

Deno.test("framingOf: conflicting or malformed content-length is refused (no smuggling)", () => {
  for (const value of ["1, 2", "-1", "0x10", "", "1 2", "9999999999999999"]) {
    assert.throws(
      () => framingOf(parseResponseHead(`HTTP/1.1 200\r\ncontent-length: ${value}`), "GET"),
      Http1ProtocolError,
      value,
    );
  }
  assert.throws(
    () =>
      framingOf(parseResponseHead("HTTP/1.1 200\r\ncontent-length: 1\r\ncontent-length: 2"), "GET"),
    Http1ProtocolError,
  );
});

Deno.test("ChunkedDecoder: decodes across every split, with extensions and trailers", () => {
  const wire =
    "4;ext=1\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nx-t: 1\r\n\r\nNEXT";
  const all = bytes(wire);
  for (let split = 0; split <= all.length; split++) {
    const decoder = new ChunkedDecoder();
    const out: Uint8Array[] = [];
    const first = decoder.push(all.subarray(0, split), (d) => out.push(d.slice()));
    const second = first >= 0
      ? first
      : decoder.push(all.subarray(split), (d) => out.push(d.slice()));
    assert.equal(text(out), "Wikipedia in\r\n\r\nchunks.", `split at ${split}`);
    assert.ok(decoder.done);
    // Where the body ended: just before NEXT, in whichever push saw the end.
    assert.equal(first >= 0 ? first : split + second, all.length - 4, `split at ${split}`);
  }
});

Deno.test("ChunkedDecoder: byte by byte", () => {
  const decoder = new ChunkedDecoder();
  const out: Uint8Array[] = [];
  const wire = bytes("3\r\nabc\r\n0\r\n\r\n");
  let end = -1;
  for (let i = 0; i < wire.length; i++) {
    end = decoder.push(wire.subarray(i, i + 1), (d) => out.push(d.slice()));
  }
  assert.equal(text(out), "abc");
  assert.equal(end, 1);
});

Deno.test("ChunkedDecoder: malformed chunks are refused", () => {
  for (const wire of ["zz\r\n", "3\r\nabcX\r\n", "3\nabc\r\n", "1".repeat(5000)]) {
    assert.throws(
      () => new ChunkedDecoder().push(bytes(wire), () => {}),
      Http1ProtocolError,
      wire.slice(0, 20),
    );
  }
});

Deno.test("FieldHeaders: reads before and after a change, listing and cookies", async () => {
  const { FieldHeaders } = await import("./_node_response.ts");
  const headers = new FieldHeaders(
    parseResponseHead("HTTP/1.1 200 OK\r\nX-A: 1\r\nset-cookie: a=1\r\nx-a:2 \r\nSet-Cookie: b=2"),
  );
  assert.equal(headers.get("x-a"), "1, 2");
  assert.equal(headers.get("X-A"), "1, 2");
  assert.equal(headers.get("x-b"), null);
  assert.equal(headers.get("x-"), null);
  assert.equal(headers.get("a=1\r\nx-a"), null);
  assert.equal(headers.has("Set-Cookie"), true);
  assert.deepEqual(headers.getSetCookie(), ["a=1", "b=2"]);
  headers.set("x-a", "3");
  headers.append("x-c", "4");
  assert.equal(headers.get("x-a"), "3");
  assert.deepEqual([...headers], [
    ["set-cookie", "a=1"],
    ["set-cookie", "b=2"],
    ["x-a", "3"],
    ["x-c", "4"],
  ]);
  headers.delete("X-A");
  assert.equal(headers.get("x-a"), null);
});

Deno.test("_http1: a Keep-Alive timeout shortens the idle limit, with a margin", () => {
  assert.equal(idleLimitOf("timeout=5", 30_000), 4_000);
  assert.equal(idleLimitOf("timeout=1, max=100", 30_000), 500);
  assert.equal(idleLimitOf("Timeout = 60", 30_000), 30_000);
  assert.equal(idleLimitOf("max=5", 30_000), 30_000);
});

Deno.test("_http1: bytes after an answer with no body are stray, after one with a body not", () => {
  assert.equal(strayAfterHead({ kind: "none" }, 3), true);
  assert.equal(strayAfterHead({ kind: "length", length: 0 }, 1), true);
  assert.equal(strayAfterHead({ kind: "none" }, 0), false);
  assert.equal(strayAfterHead({ kind: "length", length: 3 }, 3), false);
  assert.equal(strayAfterHead({ kind: "chunked" }, 5), false);
});

Deno.test("refusedHead: a 400 or 431 to a head over 8 KiB, in each payload form", () => {
  const big = `GET / HTTP/1.1\r\nx-big: ${"h".repeat(9000)}\r\n\r\n`;
  const small = `POST / HTTP/1.1\r\ncontent-length: 9000\r\n\r\n${"b".repeat(9000)}`;
  for (const status of [400, 431]) {
    assert.equal(refusedHead(status, big), true);
    assert.equal(refusedHead(status, bytes(big)), true);
    assert.equal(refusedHead(status, [bytes(big), bytes("{}")]), true);
    // A large body behind a small head is not a refused head.
    assert.equal(refusedHead(status, small), false);
    assert.equal(refusedHead(status, bytes(small)), false);
    assert.equal(refusedHead(status, [bytes(small.slice(0, 41)), bytes("b".repeat(9000))]), false);
  }
  assert.equal(refusedHead(413, big), false);
  assert.equal(refusedHead(200, bytes(big)), false);
});

Deno.test("loopbackFallbacks: a refused localhost is tried on the loopback addresses only", () => {
  const refused = { code: "ECONNREFUSED" };
  assert.deepEqual(loopbackFallbacks("localhost", refused), ["127.0.0.1", "::1"]);
  // Names under localhost (RFC 6761), any case, with a trailing dot.
  for (const name of ["LocalHost", "localhost.", "es.localhost", "a.b.localhost"]) {
    assert.deepEqual(loopbackFallbacks(name, refused), ["127.0.0.1", "::1"], name);
  }
  // The address the error says was tried is not tried again (Node's `address`, an
  // AggregateError's `errors` when it tried several).
  assert.deepEqual(
    loopbackFallbacks("localhost", { ...refused, address: "127.0.0.1" }),
    ["::1"],
  );
  assert.deepEqual(
    loopbackFallbacks("localhost", {
      ...refused,
      errors: [{ address: "::1" }, { address: "127.0.0.1" }],
    }),
    [],
  );
  assert.deepEqual(loopbackFallbacks("localhost", { code: "EHOSTUNREACH" }), [
    "127.0.0.1",
    "::1",
  ]);
  // Any other name, and any failure after which no other address would answer: nothing.
  for (const name of ["example.com", "localhost.example.com", "notlocalhost", "127.0.0.1", "::1"]) {
    assert.deepEqual(loopbackFallbacks(name, refused), [], name);
  }
  for (const error of [{ code: "ECONNRESET" }, { code: "ENOTFOUND" }, { code: 111 }, null, "x"]) {
    assert.deepEqual(loopbackFallbacks("localhost", error), []);
  }
});
