// The transport's first attempt to an in-process fetch (`#quickFirst`): the answers it takes
// itself, and every other outcome handed on to the general attempts, which retry where it is safe.

import assert from "node:assert/strict";
import { requestThen, Transport, type TransportOptions } from "./transport.ts";
import {
  OutcomeUnknownError,
  RedirectError,
  ResponseError,
  ResponseTooLargeError,
  TimeoutError,
} from "../errors.ts";
import { scriptedFetch, type Step } from "../../tests/support/scripted_fetch.ts";

const IN_PROCESS = Symbol.for("searchvisitor.inProcessFetch");

/** An in-process fetch that plays `steps` in turn (the last one again), recording the calls. */
function scripted(...steps: Step[]) {
  return scriptedFetch(IN_PROCESS, ...steps);
}

function transport(fetch: TransportOptions["fetch"], options: Partial<TransportOptions> = {}) {
  return new Transport({ nodes: ["http://engine"], fetch, retryBaseDelayMs: 1, ...options });
}

const ok = () => Response.json({ ok: true });
const never = () => new Promise<Response>(() => {});
const refused = () =>
  Promise.reject(
    new TypeError("connect", {
      cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }),
    }),
  );

Deno.test("in process: an answer is read whole; the fetch gets the transport's frozen headers", async () => {
  const { fetch, calls } = scripted(ok);
  const t = transport(fetch, { headers: { "x-app": "demo" } });
  const res = await t.request({ method: "GET", path: "/idx/_search", body: "{}" });
  assert.equal(res.status, 200);
  assert.deepEqual(JSON.parse(res.body), { ok: true });
  assert.equal(res.node, "http://engine");
  const init = calls[0]!.init;
  assert.equal(init.method, "POST");
  assert.equal(init.redirect, "manual");
  assert.equal(init.body, "{}");
  assert.equal(Object.isFrozen(init.headers), true, "it cannot change what the next request sends");
  assert.deepEqual(init.headers, {
    accept: "application/json",
    "x-app": "demo",
    "content-type": "application/json",
  });
  assert.throws(() => {
    (init.headers as Record<string, string>)["x-app"] = "changed";
  }, TypeError);
  await t.request({ method: "GET", path: "/" });
  assert.deepEqual(calls[1]!.init.headers, { accept: "application/json", "x-app": "demo" });
  assert.equal(calls[1]!.init.body, undefined);
  // A fetch that is not marked in-process gets a copy it may change.
  const plain = (_url: string, init: RequestInit) => {
    (init.headers as Record<string, string>)["x-app"] = "mine";
    return Promise.resolve(ok());
  };
  const copied = transport(plain, { headers: { "x-app": "demo" } });
  await copied.request({ method: "GET", path: "/" });
  await copied.request({ method: "GET", path: "/" });
});

Deno.test("in process: a fetch that throws or rejects before answering is retried when safe", async () => {
  const thrower = scripted(() => {
    throw new TypeError("bad init");
  }, ok);
  const res = await transport(thrower.fetch).request({ method: "GET", path: "/" });
  assert.equal(res.status, 200);
  assert.equal(thrower.calls.length, 2);
  // A refused connect is retried even for a write (nothing was sent) ...
  const connect = scripted(refused, ok);
  const write = await transport(connect.fetch).request({
    method: "POST",
    path: "/i/_doc",
    body: "{}",
  });
  assert.equal(write.status, 200);
  assert.equal(connect.calls.length, 2);
  // ... a reset after sending is not.
  const reset = scripted(() => Promise.reject(new TypeError("connection reset")), ok);
  const error = await transport(reset.fetch)
    .request({ method: "POST", path: "/i/_doc", body: "{}" })
    .catch((e) => e);
  assert.ok(error instanceof OutcomeUnknownError, String(error));
  assert.equal(reset.calls.length, 1);
});

Deno.test("in process: statuses other than the caller's are handled as by any fetch", async () => {
  // A gateway status on a read is retried; the retry's answer is what the caller gets.
  const busy = scripted(() => new Response("busy", { status: 503 }), ok);
  assert.equal((await transport(busy.fetch).request({ method: "GET", path: "/" })).status, 200);
  assert.equal(busy.calls.length, 2);
  // An error status is a ResponseError, its body read.
  const bad = scripted(() =>
    Response.json({ error: { type: "parsing_exception", reason: "nope" } }, { status: 400 })
  );
  const error = await transport(bad.fetch).request({ method: "GET", path: "/" }).catch((e) => e);
  assert.ok(error instanceof ResponseError && error.status === 400, String(error));
  assert.equal(error.type, "parsing_exception");
  // A 404 is an answer only when the request allows it.
  const missing = scripted(() => new Response("{}", { status: 404 }));
  const t = transport(missing.fetch);
  assert.equal((await t.request({ method: "HEAD", path: "/i", allowNotFound: true })).status, 404);
  await assert.rejects(t.request({ method: "HEAD", path: "/i" }), ResponseError);
  // A redirect is never followed.
  const moved = scripted(() =>
    new Response(null, { status: 307, headers: { location: "http://other/" } })
  );
  await assert.rejects(transport(moved.fetch).request({ method: "GET", path: "/" }), RedirectError);
  assert.equal(moved.calls.length, 1);
});

Deno.test("in process: a body that breaks or passes the cap is handled as by any fetch", async () => {
  const broken = () => {
    const res = ok();
    return Object.assign(res, { text: () => Promise.reject(new TypeError("body broke")) });
  };
  const flaky = scripted(broken, ok);
  assert.equal((await transport(flaky.fetch).request({ method: "GET", path: "/" })).status, 200);
  assert.equal(flaky.calls.length, 2, "a read whose body broke is asked again");
  const once = scripted(broken, ok);
  const error = await transport(once.fetch)
    .request({ method: "POST", path: "/i/_doc", body: "{}" })
    .catch((e) => e);
  assert.ok(error instanceof OutcomeUnknownError, String(error));
  const big = scripted(() => new Response("x".repeat(2_000)));
  const tooLarge = await transport(big.fetch, { maxResponseBytes: 1_000 })
    .request({ method: "GET", path: "/" })
    .catch((e) => e);
  assert.ok(tooLarge instanceof ResponseTooLargeError, String(tooLarge));
  assert.equal(big.calls.length, 1, "too large is never retried");
});

Deno.test("in process: what `then` throws rejects and is never retried", async () => {
  const { fetch, calls } = scripted(ok);
  const t = transport(fetch);
  const error = await requestThen(t, { method: "GET", path: "/" }, () => {
    throw new RangeError("mapping failed");
  }).catch((e) => e);
  assert.ok(error instanceof RangeError);
  assert.equal(calls.length, 1);
  assert.equal(await requestThen(t, { method: "GET", path: "/" }, (res) => res.status), 200);
});

Deno.test("in process: a hanging fetch is released at the deadline; a late answer is dropped", async () => {
  let answer: ((res: Response) => void) | undefined;
  const late = scripted(() => new Promise<Response>((resolve) => answer = resolve), ok);
  const t = transport(late.fetch, { timeoutMs: 20, maxRetries: 1 });
  const res = await t.request({ method: "GET", path: "/" });
  assert.equal(res.status, 200, "the retry answered");
  assert.equal(late.calls.length, 2);
  answer!(new Response("late", { status: 500 })); // ignored
  // A write that hangs: its outcome is unknown, not retried.
  const hang = scripted(never);
  const error = await transport(hang.fetch, { timeoutMs: 20 })
    .request({ method: "POST", path: "/i/_doc", body: "{}" })
    .catch((e) => e);
  assert.ok(error instanceof OutcomeUnknownError, String(error));
  assert.equal(hang.calls.length, 1);
  // A read that always hangs: a TimeoutError once its attempts are spent.
  const slow = scripted(never);
  const timeout = await transport(slow.fetch, { timeoutMs: 10, maxRetries: 1 })
    .request({ method: "GET", path: "/" })
    .catch((e) => e);
  assert.ok(timeout instanceof TimeoutError, String(timeout));
  assert.equal(slow.calls.length, 2);
});

Deno.test("in process: a node marked dead is alive again once it answers", async () => {
  const flaky = scripted(() => Promise.reject(new TypeError("connection reset")), ok);
  const t = transport(flaky.fetch, { deadNodeBaseMs: 0 });
  await t.request({ method: "GET", path: "/" }); // answered by the retry
  assert.deepEqual(t.deadNodes, []);
  const again = scripted(ok, () => Promise.reject(new TypeError("connection reset")), ok);
  const t2 = transport(again.fetch, { deadNodeBaseMs: 60_000, maxRetries: 0 });
  await t2.request({ method: "GET", path: "/" }); // answered: the last answer's node
  await assert.rejects(t2.request({ method: "GET", path: "/" }), /reset/); // no retry left
  assert.deepEqual(t2.deadNodes, ["http://engine"]);
  await t2.request({ method: "GET", path: "/" }); // the same node answers again
  assert.deepEqual(t2.deadNodes, [], "an answer after the failure marks it alive");
  assert.equal(again.calls.length, 3);
});
