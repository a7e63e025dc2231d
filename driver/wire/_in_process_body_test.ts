import assert from "node:assert/strict";
import { readInProcessBody, TooLarge } from "./_body_reader.ts";
import { utf8Length } from "../_utf8.ts";
import { Transport } from "./transport.ts";
import { ResponseTooLargeError } from "../errors.ts";

const IN_PROCESS = Symbol.for("searchvisitor.inProcessFetch");

/** A fetch marked in-process that answers `body` and records how the body was read. */
function marked(body: string, headers: Record<string, string> = {}) {
  const seen = { stream: false, text: false };
  const fetchFn = () => {
    const res = new Response(body, { headers });
    return Promise.resolve({
      status: 200,
      headers: res.headers,
      get body() {
        seen.stream = true;
        return res.body;
      },
      text() {
        seen.text = true;
        return res.text();
      },
    } as unknown as Response);
  };
  Object.defineProperty(fetchFn, IN_PROCESS, { value: true });
  return { fetchFn, seen };
}

Deno.test("utf8Length counts as TextEncoder does, pairs and lone surrogates included", () => {
  for (const s of ["", "abc", "é", "€uro", "😀", "a😀b", "\ud800", "x\udc00y", "\ud800\ud800"]) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).byteLength, JSON.stringify(s));
  }
});

Deno.test("readInProcessBody: read whole as text, held to the limit by UTF-8 size", async () => {
  assert.equal(await readInProcessBody(new Response('{"a":1}'), 7), '{"a":1}');
  await assert.rejects(readInProcessBody(new Response('{"a":1}'), 6), TooLarge);
  // 3 characters, 6 bytes: within the character count, over in bytes.
  await assert.rejects(readInProcessBody(new Response("ééé"), 5), TooLarge);
  assert.equal(await readInProcessBody(new Response("ééé"), 6), "ééé");
  // A declared length over the limit is refused before the body is read.
  let read = false;
  const real = new Response("{}", { headers: { "content-length": "5000" } });
  const declared = {
    headers: real.headers,
    body: real.body,
    text: () => (read = true, real.text()),
  } as unknown as Response;
  await assert.rejects(readInProcessBody(declared, 100), TooLarge);
  assert.equal(read, false);
});

Deno.test("transport: a fetch marked in-process is read by text(), not streamed", async () => {
  const { fetchFn, seen } = marked('{"ok":true}');
  const t = new Transport({ nodes: ["http://engine"], fetch: fetchFn });
  const res = await t.request({ method: "GET", path: "/" });
  assert.equal(res.body, '{"ok":true}');
  assert.deepEqual(seen, { stream: false, text: true });
  // Unmarked, the same fetch is streamed and counted.
  const plain = marked('{"ok":true}');
  const unmarked = (() => plain.fetchFn()) as typeof plain.fetchFn;
  await new Transport({ nodes: ["http://engine"], fetch: unmarked }).request({
    method: "GET",
    path: "/",
  });
  assert.deepEqual(plain.seen, { stream: true, text: false });
});

Deno.test("transport: the cap holds for an in-process fetch, declared or not", async () => {
  const big = "x".repeat(5_000);
  for (const headers of [{}, { "content-length": "5000" }] as Record<string, string>[]) {
    const { fetchFn } = marked(big, headers);
    const t = new Transport({ nodes: ["http://engine"], fetch: fetchFn, maxResponseBytes: 1_000 });
    const error = await t.request({ method: "GET", path: "/" }).catch((e) => e);
    assert.ok(error instanceof ResponseTooLargeError, String(error));
    assert.equal(error.limit, 1_000);
  }
});

Deno.test("transport: an in-process fetch that ignores the signal is still cut off by the timeout", async () => {
  const never = () => new Promise<Response>(() => {});
  Object.defineProperty(never, IN_PROCESS, { value: true });
  const t = new Transport({ nodes: ["http://engine"], fetch: never, timeoutMs: 20, maxRetries: 0 });
  const error = await t.request({ method: "GET", path: "/" }).catch((e) => e);
  assert.ok(
    error instanceof Error && /timed out|within|deadline/i.test(error.message),
    String(error),
  );
});

Deno.test("transport: long in-process attempts that hang are released, the clock read or not", async () => {
  const never = () => new Promise<Response>(() => {});
  Object.defineProperty(never, IN_PROCESS, { value: true });
  const t = new Transport({
    nodes: ["http://engine"],
    fetch: never,
    timeoutMs: 2_000,
    maxRetries: 0,
  });
  // The first reads the clock and arms the tick; the second starts while that tick is pending
  // (a long attempt: its start is stamped by the tick).
  const first = t.request({ method: "GET", path: "/a" }).catch((e) => e);
  const second = t.request({ method: "GET", path: "/b" }).catch((e) => e);
  for (const error of await Promise.all([first, second])) {
    assert.ok(error instanceof Error && /timed out/i.test(error.message), String(error));
  }
});

Deno.test("transport: the caller's abort rejects an in-process request with its reason", async () => {
  const never = () => new Promise<Response>(() => {});
  Object.defineProperty(never, IN_PROCESS, { value: true });
  const t = new Transport({ nodes: ["http://engine"], fetch: never, maxRetries: 3 });
  const caller = new AbortController();
  const pending = t.request({ method: "GET", path: "/", signal: caller.signal });
  caller.abort(new Error("user left"));
  await assert.rejects(pending, /user left/);
  // Already aborted: rejected with the same reason, never retried.
  await assert.rejects(t.request({ method: "GET", path: "/", signal: caller.signal }), /user left/);
  const fine = Object.assign(() => Promise.resolve(Response.json({ ok: 1 })), {
    [IN_PROCESS]: true,
  });
  const ok = new Transport({ nodes: ["http://engine"], fetch: fine });
  await assert.rejects(
    ok.request({ method: "GET", path: "/", signal: caller.signal }),
    /user left/,
  );
});
