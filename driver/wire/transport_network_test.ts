// The transport's first attempt to a network fetch (the runtime's own, or one marked
// `searchvisitor.networkFetch`), taken by `#quickFirst`: the size cap (a declared length trusted,
// a body without one counted while it streams), the abort of a body being read, a fetch that
// hangs past its deadline, and every other outcome handed on to the general attempts.

import assert from "node:assert/strict";
import { Transport, type TransportOptions } from "./transport.ts";
import {
  OutcomeUnknownError,
  RedirectError,
  ResponseError,
  ResponseTooLargeError,
  TimeoutError,
} from "../errors.ts";
import { scriptedFetch, type Step } from "../../tests/support/scripted_fetch.ts";

const NETWORK = Symbol.for("searchvisitor.networkFetch");

/** A network-marked fetch that plays `steps` in turn (the last one again), recording the calls. */
function scripted(...steps: Step[]) {
  return scriptedFetch(NETWORK, ...steps);
}

function transport(fetch: TransportOptions["fetch"], options: Partial<TransportOptions> = {}) {
  return new Transport({ nodes: ["http://es:9200"], fetch, retryBaseDelayMs: 1, ...options });
}

/** A body streamed in `chunks` pieces of `size` bytes, with no declared length. */
function streamed(chunks: number, size: number): Response {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ >= chunks) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}

Deno.test("network: an answer with a declared length is read; the fetch gets frozen headers", async () => {
  const text = JSON.stringify({ took: 1, n: 12345678901234567890n.toString() });
  const { fetch, calls } = scripted(() =>
    new Response(text, {
      headers: { "content-length": String(text.length), "x-elastic-product": "Elasticsearch" },
    })
  );
  const t = transport(fetch);
  const res = await t.request({ method: "POST", path: "/idx/_search", body: "{}" });
  assert.equal(res.status, 200);
  assert.equal(res.body, text);
  assert.equal(t.product, "Elasticsearch");
  const init = calls[0]!.init;
  assert.equal(init.redirect, "manual");
  assert.equal(Object.isFrozen(init.headers), true);
  assert.equal(init.signal?.aborted, false);
});

Deno.test("network: a declared length over the cap is refused unread, and not retried", async () => {
  const { fetch, calls } = scripted(() =>
    new Response("x".repeat(10), { headers: { "content-length": "5000" } })
  );
  const t = transport(fetch, { maxResponseBytes: 1000 });
  await assert.rejects(t.request({ method: "GET", path: "/" }), ResponseTooLargeError);
  assert.equal(calls.length, 1);
});

Deno.test("network: a body over the cap without a declared length is cut off while it streams", async () => {
  let pulled = 0;
  const endless = () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(256));
      },
    });
    return new Response(body);
  };
  const { fetch, calls } = scripted(endless);
  const t = transport(fetch, { maxResponseBytes: 4096 });
  await assert.rejects(t.request({ method: "GET", path: "/" }), ResponseTooLargeError);
  assert.equal(calls.length, 1);
  assert.ok(pulled < 64, `reading stopped near the cap (${pulled} chunks)`);
  // Within the cap, a body without a declared length is read whole.
  const small = transport(scripted(() => streamed(3, 100)).fetch, { maxResponseBytes: 4096 });
  assert.equal((await small.request({ method: "GET", path: "/" })).body.length, 300);
});

Deno.test("network: an encoded body is counted while it streams, whatever its declared length", async () => {
  // A declared length that is the encoded size: the decoded text is longer and passes the cap.
  const lying = () =>
    new Response(new Uint8Array(5000).fill(0x61), {
      headers: { "content-length": "100", "content-encoding": "gzip" },
    });
  const t = transport(scripted(lying).fetch, { maxResponseBytes: 1000 });
  await assert.rejects(t.request({ method: "GET", path: "/" }), ResponseTooLargeError);
});

Deno.test("network: a fetch that hangs and ignores its signal is released at the deadline", async () => {
  const { fetch, calls } = scripted(() => new Promise<Response>(() => {}));
  const t = transport(fetch, { timeoutMs: 30, maxRetries: 0 });
  const started = performance.now();
  await assert.rejects(t.request({ method: "GET", path: "/" }), TimeoutError);
  assert.ok(performance.now() - started < 5_000);
  assert.equal(calls.length, 1);
  // A write is not re-sent once it may have reached the server.
  const write = transport(scripted(() => new Promise<Response>(() => {})).fetch, {
    timeoutMs: 30,
  });
  await assert.rejects(
    write.request({ method: "POST", path: "/idx/_doc", body: "{}" }),
    OutcomeUnknownError,
  );
});

Deno.test("network: the caller's abort while the body streams rejects with its reason", async () => {
  const caller = new AbortController();
  const stalled = () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        setTimeout(() => caller.abort(new Error("stop")), 10);
      },
    });
    return new Response(body);
  };
  const t = transport(scripted(stalled).fetch);
  await assert.rejects(
    t.request({ method: "GET", path: "/", signal: caller.signal }),
    (error: unknown) => error instanceof Error && /stop|abort/i.test(String(error)),
  );
});

Deno.test("network: 503 then an answer is retried; a redirect and a 409 are not", async () => {
  const retried = scripted(
    () => new Response("busy", { status: 503 }),
    () => Response.json({ ok: true }),
  );
  const res = await transport(retried.fetch).request({ method: "GET", path: "/" });
  assert.deepEqual(JSON.parse(res.body), { ok: true });
  assert.equal(retried.calls.length, 2);

  const moved = scripted(() =>
    new Response(null, { status: 307, headers: { location: "http://other:9200/" } })
  );
  await assert.rejects(transport(moved.fetch).request({ method: "GET", path: "/" }), RedirectError);
  assert.equal(moved.calls.length, 1);

  const conflict = scripted(() =>
    Response.json({ error: { type: "version_conflict_engine_exception" } }, { status: 409 })
  );
  await assert.rejects(
    transport(conflict.fetch).request({ method: "PUT", path: "/i/_doc/1", body: "{}" }),
    ResponseError,
  );
  assert.equal(conflict.calls.length, 1);
});

Deno.test("network: a rejected fetch on a GET is retried on the next node", async () => {
  let n = 0;
  const { fetch, calls } = scripted(() => {
    if (n++ === 0) {
      return Promise.reject(
        new TypeError("connect", {
          cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }),
        }),
      );
    }
    return Response.json({ ok: true });
  });
  const t = new Transport({
    nodes: ["http://a:9200", "http://b:9200"],
    fetch,
    retryBaseDelayMs: 1,
  });
  const res = await t.request({ method: "GET", path: "/" });
  assert.equal(res.node, "http://b:9200");
  assert.deepEqual(calls.map((c) => c.url), ["http://a:9200/", "http://b:9200/"]);
});

Deno.test("network: a body that stalls past the deadline is a timeout, not a hang", async () => {
  let cancelled = 0;
  const stalled = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(10)); // then nothing more, ever
        },
        cancel() {
          cancelled++;
        },
      }),
    );
  const read = scripted(stalled);
  const t = transport(read.fetch, { timeoutMs: 30 });
  await assert.rejects(t.request({ method: "GET", path: "/" }), TimeoutError);
  assert.ok(read.calls.length >= 1);
  assert.equal(cancelled, read.calls.length); // every stalled body was let go
});
