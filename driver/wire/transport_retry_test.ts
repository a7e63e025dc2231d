import assert from "node:assert/strict";
import { Transport, type TransportOptions, type TransportRequest } from "./transport.ts";
import {
  ConnectionError,
  OutcomeUnknownError,
  ResponseError,
  ResponseTooLargeError,
  TimeoutError,
} from "../errors.ts";
import { isIdempotent } from "./retry_policy.ts";

type Fault = "reset" | "502" | "504" | "stall";

/** A fetch that fails with `fault` on the first call and answers 200 JSON afterwards. */
function faulty(fault: Fault) {
  let calls = 0;
  const fetch = (_url: string, init: RequestInit): Promise<Response> => {
    calls++;
    if (calls > 1) return Promise.resolve(Response.json({ _id: "x", result: "created" }));
    if (fault === "reset") {
      return Promise.reject(new TypeError("connection closed before message completed"));
    }
    if (fault === "stall") {
      return new Promise((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason))
      );
    }
    return Promise.resolve(new Response("<html>Bad Gateway</html>", { status: Number(fault) }));
  };
  return { fetch, calls: () => calls };
}

function make(fetch: TransportOptions["fetch"], more: Partial<TransportOptions> = {}) {
  return new Transport({
    nodes: ["http://a:9200"],
    fetch,
    retryBaseDelayMs: 1,
    timeoutMs: 40,
    requestTimeoutMs: 10_000, // attempts time out; the request's deadline is not what is tested
    deadNodeBaseMs: 0,
    ...more,
  });
}

const NOT_IDEMPOTENT: TransportRequest[] = [
  { method: "POST", path: "/idx/_doc", body: "{}" },
  { method: "POST", path: "/idx/_update/1", body: '{"script":"ctx._source.n++"}' },
  { method: "POST", path: "/_bulk", body: '{"index":{"_index":"i"}}\n{}\n', ndjson: true },
  { method: "POST", path: "/idx/_update_by_query", body: "{}" },
  { method: "PUT", path: "/idx/_create/1", body: "{}" },
  { method: "PUT", path: "/idx/_doc/1?if_seq_no=1&if_primary_term=1", body: "{}" },
  { method: "POST", path: "/_search/scroll", body: '{"scroll_id":"s"}' },
];
const IDEMPOTENT: TransportRequest[] = [
  { method: "GET", path: "/idx/_doc/1" },
  { method: "HEAD", path: "/idx" },
  { method: "DELETE", path: "/idx/_doc/1" },
  { method: "PUT", path: "/idx/_doc/1", body: "{}" },
  { method: "POST", path: "/idx/_search", body: "{}" },
  { method: "PUT", path: "/idx/_mapping", body: "{}" },
];

Deno.test("policy table: what may be re-sent after the request may have arrived", () => {
  for (const r of NOT_IDEMPOTENT) assert.equal(isIdempotent(r.method, r.path), false, r.path);
  for (const r of IDEMPOTENT) assert.equal(isIdempotent(r.method, r.path), true, r.path);
});

Deno.test("after a reset, 502, 504 or stall: idempotent requests are re-sent, others fail as OutcomeUnknownError sent once", async () => {
  for (const fault of ["reset", "502", "504", "stall"] as const) {
    for (const req of NOT_IDEMPOTENT) {
      const f = faulty(fault);
      const error = await make(f.fetch).request(req).catch((e) => e);
      assert.ok(error instanceof OutcomeUnknownError, `${fault} ${req.path}: ${error}`);
      assert.equal(error.sent, true);
      assert.match(error.message, /unknown/);
      assert.match(error.message, /http:\/\/a:9200/);
      assert.equal(f.calls(), 1, `${fault} ${req.path} was sent once`);
    }
    for (const req of IDEMPOTENT) {
      const f = faulty(fault);
      const res = await make(f.fetch).request(req);
      assert.equal(res.status, 200);
      assert.equal(f.calls(), 2, `${fault} ${req.method} ${req.path} was retried once`);
    }
    const marked = faulty(fault);
    await make(marked.fetch).request({ ...NOT_IDEMPOTENT[1]!, idempotent: true });
    assert.equal(marked.calls(), 2, "a caller-marked request is retried");
  }
});

Deno.test("429 and connect-phase failures are retried for every request; Retry-After beyond the deadline is not waited for", async () => {
  let calls = 0;
  const busyOnce = () =>
    Promise.resolve(
      calls++ === 0
        ? new Response("{}", { status: 429, headers: { "retry-after": "0" } })
        : Response.json({ _id: "a", result: "created" }, { status: 201 }),
    );
  assert.equal((await make(busyOnce).request(NOT_IDEMPOTENT[0]!)).status, 201);
  assert.equal(calls, 2);

  calls = 0;
  const refusedOnce = () =>
    calls++ === 0
      ? Promise.reject(
        new TypeError("fetch failed", {
          cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
        }),
      )
      : Promise.resolve(Response.json({ _id: "a", result: "created" }, { status: 201 }));
  assert.equal((await make(refusedOnce).request(NOT_IDEMPOTENT[0]!)).status, 201);
  assert.equal(calls, 2);

  calls = 0;
  const later =
    () => (calls++,
      Promise.resolve(new Response("{}", { status: 429, headers: { "retry-after": "3600" } })));
  const error = await make(later).request(NOT_IDEMPOTENT[0]!).catch((e) => e);
  assert.ok(error instanceof ResponseError && error.status === 429);
  assert.equal(calls, 1, "a Retry-After past the request's deadline ends the retries");
});

Deno.test("a connection failure names the node and the cause code", async () => {
  const fetch = () =>
    Promise.reject(
      new TypeError("fetch failed", {
        cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      }),
    );
  const error = await make(fetch, { maxRetries: 1 }).request({ method: "GET", path: "/" })
    .catch((e) => e);
  assert.ok(error instanceof ConnectionError);
  assert.match(error.message, /Could not reach http:\/\/a:9200 \(ECONNREFUSED\)/);
});

Deno.test("a hanging node is marked dead, the other node serves meanwhile, then it is tried again", async () => {
  const hits = { a: 0, b: 0 };
  const fetch = (url: string, init: RequestInit): Promise<Response> => {
    if (url.startsWith("http://a")) {
      hits.a++;
      return new Promise((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason))
      );
    }
    hits.b++;
    return Promise.resolve(Response.json({ count: 1 }));
  };
  const t = new Transport({
    nodes: ["http://a:9200", "http://b:9200"],
    fetch,
    timeoutMs: 30,
    requestTimeoutMs: 10_000, // only the attempt times out here, however busy the machine is
    retryBaseDelayMs: 1,
    deadNodeBaseMs: 500, // long enough that a busy machine still sends all six within it
  });
  for (let k = 0; k < 6; k++) {
    assert.equal((await t.request({ method: "GET", path: "/i/_count" })).status, 200);
  }
  assert.equal(hits.a, 1, "the dead node is skipped while it is dead");
  assert.equal(hits.b, 6);
  assert.deepEqual(t.deadNodes, ["http://a:9200"]);
  await new Promise((r) => setTimeout(r, 600));
  await t.request({ method: "GET", path: "/i/_count" });
  assert.equal(hits.a, 2, "after its backoff the node is asked again");
});

Deno.test("the per-request deadline bounds all attempts; the caller's signal reaches fetch", async () => {
  let calls = 0;
  const hung = (_url: string, init: RequestInit) =>
    new Promise<Response>((_, reject) => {
      calls++;
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });
  const t = make(hung, { timeoutMs: 30, requestTimeoutMs: 70, maxRetries: 10 });
  const error = await t.request({ method: "GET", path: "/" }).catch((e) => e);
  assert.ok(error instanceof TimeoutError, String(error));
  assert.match(error.message, /requestTimeoutMs 70 ms/);
  assert.ok(calls <= 3, `attempts stop at the deadline (${calls})`);

  let seen: AbortSignal | undefined;
  const t2 = make((_u, init) => {
    seen = init.signal ?? undefined;
    return new Promise(() => {});
  }, { timeoutMs: 60_000 });
  const controller = new AbortController();
  const pending = t2.request({ method: "GET", path: "/", signal: controller.signal });
  await new Promise((r) => setTimeout(r, 0));
  controller.abort(new Error("user left"));
  await assert.rejects(pending, /^Error: user left$/, "the caller's own reason");
  assert.equal(seen?.aborted, true, "fetch's own signal was aborted");
});

Deno.test("maxResponseBytes cuts off an endless body while streaming, and a declared oversize", async () => {
  let pulls = 0;
  const endless = () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulls++;
            controller.enqueue(new Uint8Array(1024).fill(32));
          },
        }),
      ),
    );
  const error = await make(endless, { maxResponseBytes: 10_000 })
    .request({ method: "GET", path: "/" }).catch((e) => e);
  assert.ok(error instanceof ResponseTooLargeError, String(error));
  assert.equal(error.limit, 10_000);
  assert.ok(pulls < 20, `reading stopped near the limit (${pulls} chunks)`);
  const lying = () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          pull: (c) => c.enqueue(new Uint8Array(1024)),
        }),
        { headers: { "content-length": "10" } },
      ),
    );
  await assert.rejects(
    make(lying, { maxResponseBytes: 10_000 }).request({ method: "GET", path: "/" }),
    ResponseTooLargeError,
    "an injected fetch's declared length is not trusted",
  );
  const declared = () =>
    Promise.resolve(new Response("{}", { headers: { "content-length": "999999" } }));
  await assert.rejects(
    make(declared, { maxResponseBytes: 100 }).request({ method: "GET", path: "/" }),
    ResponseTooLargeError,
  );
  const ok = await make(() => Promise.resolve(Response.json({ a: "é" }))).request({
    method: "GET",
    path: "/",
  });
  assert.deepEqual(JSON.parse(ok.body), { a: "é" });
});

Deno.test("a body that stalls after the status: a write is OutcomeUnknownError with the status", async () => {
  const stalled = (_u: string, init: RequestInit) =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"_id":'));
            init.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
          },
        }),
        { status: 201 },
      ),
    );
  const error = await make(stalled).request(NOT_IDEMPOTENT[0]!).catch((e) => e);
  assert.ok(error instanceof OutcomeUnknownError, String(error));
  assert.equal(error.status, 201);
});

Deno.test("secrets of the authorization header are scrubbed from error bodies", async () => {
  const echo = (_u: string, init: RequestInit) =>
    Promise.resolve(
      new Response(`bad header ${new Headers(init.headers).get("authorization")}`, {
        status: 400,
      }),
    );
  const t = make(echo, { authorization: `Basic ${btoa("elastic:Sentinel-Pw-123")}` });
  const error = await t.request({ method: "GET", path: "/" }).catch((e) => e);
  assert.ok(error instanceof ResponseError);
  assert.doesNotMatch(
    error.message + JSON.stringify(error) + String(error.body),
    /Sentinel-Pw-123|ZWxhc3RpYzpTZW50aW5lbC1Qdy0xMjM/,
  );
});

Deno.test("a refused connect on a node that answered before may hide a re-send: a POST is not sent again", async () => {
  // Deno's fetch re-sends a request on a new connection when a pooled one broke under it, and
  // reports only the refused connect: the node may have applied the first copy.
  const sent: string[] = [];
  let answered = 0;
  const fetch = (url: string): Promise<Response> => {
    sent.push(url);
    if (url.startsWith("http://a") && answered++ === 0) {
      return Promise.resolve(Response.json({ ok: true }));
    }
    return Promise.reject(
      new TypeError("client error (Connect): tcp connect error: Connection refused (os error 111)"),
    );
  };
  const transport = new Transport({
    nodes: ["http://a:9200", "http://b:9200"],
    fetch,
    retryBaseDelayMs: 0,
  });
  await transport.request({ method: "GET", path: "/" }); // a answers: its connections may be pooled
  const error = await transport.request({ method: "POST", path: "/_bulk", body: "{}\n" })
    .catch((e) => e);
  // b never answered: its refusal is a safe connect failure, retried on a (which answered: unsafe).
  assert.ok(error instanceof OutcomeUnknownError, String(error));
  assert.match(
    error.message,
    /a new connection was refused \(ECONNREFUSED\) by a node that had answered/,
  );
  assert.deepEqual(sent.slice(1), ["http://b:9200/_bulk", "http://a:9200/_bulk"]);
  // A node marked dead since is known gone: its refused connect is safe again.
  const again = await transport.request({ method: "POST", path: "/_bulk", body: "{}\n" })
    .catch((e) => e);
  assert.ok(again instanceof ConnectionError, String(again));
});

Deno.test("a scroll page, a conditional DELETE and a write whose bound id spells an endpoint are sent once", async () => {
  const once: TransportRequest[] = [
    // A scroll page: the id in the body (GET with a body goes out as POST), the path, the query.
    { method: "GET", path: "/_search/scroll", body: '{"scroll":"1m","scroll_id":"s"}' },
    { method: "GET", path: "/_search/scroll/c2Nyb2xs?scroll=1m" },
    { method: "POST", path: "/_search/scroll?scroll_id=s&scroll=1m" },
    // Conditional deletes: a second attempt would answer 409 for a delete that succeeded.
    { method: "DELETE", path: "/idx/_doc/1?if_seq_no=3&if_primary_term=1" },
    { method: "DELETE", path: "/idx/_doc/1?version=7&version_type=external" },
    // Classified as written: the id `_search` (or `_count`, `_refresh`) is a bound value.
    { method: "POST", path: "/cnt/_update/_search", pathTemplate: "/cnt/_update/{?}" },
    { method: "POST", path: "/cnt/_update/_count", pathTemplate: "/cnt/_update/{?}" },
    {
      method: "POST",
      path: "/cnt/_update/_refresh?refresh=true",
      pathTemplate: "/cnt/_update/{?}",
    },
  ];
  for (const fault of ["reset", "502"] as const) {
    for (const req of once) {
      const f = faulty(fault);
      const error = await make(f.fetch).request(req).catch((e) => e);
      assert.ok(
        error instanceof OutcomeUnknownError,
        `${fault} ${req.method} ${req.path}: ${error}`,
      );
      assert.equal(error.sent, true);
      assert.equal(f.calls(), 1, `${fault} ${req.method} ${req.path} was sent once`);
    }
    // Clearing a scroll, a plain delete and a search written as such are still re-sent.
    for (
      const req of [
        { method: "DELETE", path: "/_search/scroll", body: '{"scroll_id":["s"]}' },
        { method: "DELETE", path: "/idx/_doc/1?refresh=true" },
        { method: "POST", path: "/cnt/_search", pathTemplate: "/{?}/_search" },
        { method: "PUT", path: "/cnt/_doc/_search", pathTemplate: "/cnt/_doc/{?}" },
      ] satisfies TransportRequest[]
    ) {
      const f = faulty(fault);
      assert.equal((await make(f.fetch).request(req)).status, 200);
      assert.equal(f.calls(), 2, `${fault} ${req.method} ${req.path} was re-sent`);
    }
  }
});
