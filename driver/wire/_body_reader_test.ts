import assert from "node:assert/strict";
import { readBody, TooLarge } from "./_body_reader.ts";
import { Transport } from "./transport.ts";
import { ResponseTooLargeError } from "../errors.ts";

/** A response that records whether its body stream or its text() was used. */
function recorded(text: string, headers: Record<string, string>) {
  const res = new Response(text, { headers });
  const seen = { stream: false, text: false };
  const spy = {
    headers: res.headers,
    get body() {
      seen.stream = true;
      return res.body;
    },
    text() {
      seen.text = true;
      return res.text();
    },
  } as unknown as Response;
  return { res: spy, seen };
}

const signal = new AbortController().signal;
const length = (s: string) => String(new TextEncoder().encode(s).byteLength);

Deno.test("readBody: a trusted declared length within the limit is read as text, not streamed", async () => {
  const body = '{"a":"é"}';
  const { res, seen } = recorded(body, { "content-length": length(body) });
  assert.equal(await readBody(res, { limit: 100, trustLength: true }, signal), body);
  assert.deepEqual(seen, { stream: false, text: true });
});

Deno.test("readBody: a declared length over the limit is refused before reading", async () => {
  const { res, seen } = recorded("{}", { "content-length": "5000" });
  await assert.rejects(readBody(res, { limit: 100, trustLength: true }, signal), TooLarge);
  assert.equal(seen.text, false);
  const untrusted = recorded("{}", { "content-length": "5000" });
  await assert.rejects(
    readBody(untrusted.res, { limit: 100, trustLength: false }, signal),
    TooLarge,
  );
  assert.equal(untrusted.seen.text, false);
});

Deno.test("readBody: without a length, untrusted, or encoded, the body is streamed and counted", async () => {
  const body = "x".repeat(300);
  for (
    const [headers, trust] of [
      [{}, true], // no length (chunked)
      [{ "content-length": length(body) }, false], // an injected fetch's length
      [{ "content-length": "20", "content-encoding": "gzip" }, true], // decoded on the way
    ] as const
  ) {
    const ok = recorded(body, headers);
    assert.equal(await readBody(ok.res, { limit: 1000, trustLength: trust }, signal), body);
    assert.deepEqual(ok.seen, { stream: true, text: false }, JSON.stringify(headers));
    const over = recorded(body, headers);
    await assert.rejects(readBody(over.res, { limit: 100, trustLength: trust }, signal), TooLarge);
  }
});

Deno.test("transport over loopback: the cap holds for a declared length and for a chunked body", async () => {
  const big = "[" + '"0123456789",'.repeat(20_000) + "0]"; // ~260 KB
  const small = '{"ok":true}';
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/small") return new Response(small); // content-length: read as text
    if (path === "/declared") return new Response(big); // content-length over the cap
    // Chunked, no length: the cap is counted while streaming.
    const bytes = new TextEncoder().encode(big);
    return new Response(
      new ReadableStream({
        start(c) {
          for (let at = 0; at < bytes.length; at += 16_384) c.enqueue(bytes.slice(at, at + 16_384));
          c.close();
        },
      }),
    );
  });
  try {
    const t = new Transport({
      nodes: [`http://127.0.0.1:${server.addr.port}`],
      maxResponseBytes: 64 * 1024,
      maxRetries: 0,
    });
    assert.equal((await t.request({ method: "GET", path: "/small" })).body, small);
    for (const path of ["/declared", "/chunked"]) {
      const error = await t.request({ method: "GET", path }).catch((e) => e);
      assert.ok(error instanceof ResponseTooLargeError, `${path}: ${error}`);
      assert.equal(error.limit, 64 * 1024);
    }
    const roomy = new Transport({
      nodes: [`http://127.0.0.1:${server.addr.port}`],
      maxResponseBytes: 1024 * 1024,
    });
    assert.equal((await roomy.request({ method: "GET", path: "/chunked" })).body, big);
    assert.equal((await roomy.request({ method: "GET", path: "/declared" })).body, big);
  } finally {
    await server.shutdown();
  }
});
