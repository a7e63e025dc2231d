import assert from "node:assert/strict";
import { Transport, type TransportOptions } from "./transport.ts";
import {
  ConnectionError,
  OutcomeUnknownError,
  RedirectError,
  ResponseError,
  TimeoutError,
} from "../errors.ts";
import { FakeEs } from "../../tests/support/fake_es.ts";

function transport(fake: FakeEs, options: Partial<TransportOptions> = {}): Transport {
  return new Transport({
    nodes: ["http://a:9200", "http://b:9200"],
    fetch: fake.fetch,
    retryBaseDelayMs: 1,
    ...options,
  });
}

Deno.test("round-robin over nodes, default headers, GET with a body sent as POST", async () => {
  const fake = new FakeEs();
  const t = transport(fake);
  await t.request({ method: "GET", path: "/idx/_search", body: '{"size":1}' });
  await t.request({ method: "GET", path: "/" });
  await t.request({
    method: "POST",
    path: "/_bulk",
    body: '{"delete":{"_index":"i","_id":"1"}}\n',
    ndjson: true,
  });
  assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.url}`), [
    "POST http://a:9200/idx/_search",
    "GET http://b:9200/",
    "POST http://a:9200/_bulk",
  ]);
  assert.equal(fake.requests[0]!.headers.get("content-type"), "application/json");
  assert.equal(fake.requests[0]!.headers.get("accept"), "application/json");
  assert.equal(fake.requests[1]!.headers.get("content-type"), null);
  assert.equal(fake.requests[2]!.headers.get("content-type"), "application/x-ndjson");
  assert.equal(fake.requests[0]!.body, '{"size":1}');
});

Deno.test("auth, extra headers and gzip compression", async () => {
  const fake = new FakeEs();
  const t = transport(fake, {
    authorization: "ApiKey abc",
    headers: { "X-Opaque-Id": "job-1" },
    compression: true,
  });
  await t.request({ method: "PUT", path: "/idx/_doc/1", body: '{"a":"ü"}' });
  const req = fake.requests[0]!;
  assert.equal(req.headers.get("authorization"), "ApiKey abc");
  assert.equal(req.headers.get("x-opaque-id"), "job-1");
  assert.equal(req.headers.get("content-encoding"), "gzip");
  assert.equal(req.body, '{"a":"ü"}');
});

Deno.test("retries 503 twice, then succeeds: one result, three requests", async () => {
  const fake = new FakeEs();
  let failures = 2;
  fake.on(() => failures-- > 0 ? new Response("busy", { status: 503 }) : undefined);
  const res = await transport(fake).request({ method: "POST", path: "/idx/_count" });
  assert.equal(res.status, 200);
  assert.deepEqual(JSON.parse(res.body), {
    count: 7,
    _shards: { total: 2, successful: 1, failed: 0 },
  });
  assert.equal(fake.requests.length, 3);
});

Deno.test("429 after every retry → ResponseError with the last status", async () => {
  const fake = new FakeEs().on(() => new Response("{}", { status: 429 }));
  await assert.rejects(
    transport(fake, { maxRetries: 2 }).request({ method: "GET", path: "/" }),
    (e: unknown) => e instanceof ResponseError && e.status === 429,
  );
  assert.equal(fake.requests.length, 3);
});

Deno.test("connection refused on every node → ConnectionError after maxRetries+1 attempts", async () => {
  let calls = 0;
  const t = new Transport({
    nodes: ["http://u:secret@a:9200", "http://b:9200"],
    fetch: () => {
      calls++;
      return Promise.reject(new TypeError("error sending request: Connection refused"));
    },
    maxRetries: 3,
    retryBaseDelayMs: 1,
  });
  const error = await t.request({ method: "GET", path: "/" }).catch((e) => e);
  assert.ok(error instanceof ConnectionError);
  assert.equal(calls, 4);
  assert.match(error.message, /4 attempt/);
  assert.match(error.message, /http:\/\/b:9200/);
  assert.doesNotMatch(error.message + String(error) + JSON.stringify(error), /secret/);
  assert.ok(error.cause instanceof TypeError);
});

Deno.test("POST /idx/_doc (server-made id) is never re-sent after a 503 page or a reset", async () => {
  const fake = new FakeEs().on(() => new Response("busy", { status: 503 }));
  const error = await transport(fake)
    .request({ method: "POST", path: "/idx/_doc?routing=a", body: "{}" }).catch((e) => e);
  assert.ok(error instanceof OutcomeUnknownError, String(error));
  assert.equal(error.sent, true);
  assert.equal(error.status, 503);
  assert.equal(fake.requests.length, 1);
  let calls = 0;
  const reset = new Transport({
    nodes: ["http://a:9200"],
    fetch: () => (calls++, Promise.reject(new TypeError("connection reset by peer"))),
  });
  await assert.rejects(
    reset.request({ method: "POST", path: "/idx/_doc", body: "{}" }),
    OutcomeUnknownError,
  );
  assert.equal(calls, 1);
});

Deno.test("a hung fetch times out with TimeoutError", async () => {
  const hung = (_url: string, init: RequestInit) =>
    new Promise<Response>((_, reject) => {
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });
  const t = new Transport({ nodes: ["http://a:9200"], fetch: hung, timeoutMs: 50 });
  const started = Date.now();
  const error = await t.request({ method: "GET", path: "/", command: "GET /" }).catch((e) => e);
  assert.ok(error instanceof TimeoutError, String(error));
  assert.match(error.message, /timed out after 50 ms/);
  assert.ok(Date.now() - started < 2000);
});

Deno.test("a caller's abort rejects with the caller's reason, not a TimeoutError", async () => {
  const hung = (_url: string, init: RequestInit) =>
    new Promise<Response>((_, reject) => {
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
    });
  const t = new Transport({ nodes: ["http://a:9200"], fetch: hung });
  const controller = new AbortController();
  const pending = t.request({ method: "GET", path: "/", signal: controller.signal });
  const reason = new Error("user left");
  controller.abort(reason);
  const error = await pending.catch((e) => e);
  assert.equal(error, reason);
  const plain = new AbortController();
  const second = t.request({ method: "GET", path: "/", signal: plain.signal });
  plain.abort();
  const aborted = await second.catch((e) => e);
  assert.ok(!(aborted instanceof TimeoutError));
  assert.equal(aborted.name, "AbortError");
});

Deno.test("HTML 502 → ResponseError keeping the text (after retries)", async () => {
  const html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
  const fake = new FakeEs().on(() => new Response(html, { status: 502 }));
  const error = await transport(fake, { maxRetries: 1 }).request({ method: "GET", path: "/" })
    .catch((e) => e);
  assert.ok(error instanceof ResponseError);
  assert.equal(error.status, 502);
  assert.equal(error.body, html);
  assert.match(error.message, /502 Bad Gateway/);
  assert.equal(fake.requests.length, 2);
});

Deno.test("409 → ResponseError with version_conflict_engine_exception; 404 passes only when allowed", async () => {
  const fake = new FakeEs({ conflict: ["dup"], missing: ["missing"] });
  const t = transport(fake);
  const error = await t.request({
    method: "PUT",
    path: "/idx/_create/dup",
    body: "{}",
    command: "PUT /idx/_create/dup",
  })
    .catch((e) => e);
  assert.ok(error instanceof ResponseError);
  assert.equal(error.status, 409);
  assert.equal(error.type, "version_conflict_engine_exception");
  assert.equal(error.command, "PUT /idx/_create/dup");
  const missing = await t.request({
    method: "GET",
    path: "/idx/_doc/missing",
    allowNotFound: true,
  });
  assert.equal(missing.status, 404);
  await assert.rejects(t.request({ method: "GET", path: "/idx/_doc/missing" }), ResponseError);
});

Deno.test("the injected fetch is called without a foreign `this`", async () => {
  let self: unknown = "unset";
  const t = new Transport({
    nodes: ["http://a:9200"],
    fetch: function (this: unknown) {
      self = this;
      return Promise.resolve(Response.json({}));
    },
  });
  await t.request({ method: "GET", path: "/" });
  assert.equal(self, undefined);
});

Deno.test("bad transport options are TypeErrors naming the option", () => {
  const nodes = ["http://a:9200"];
  assert.throws(() => new Transport({ nodes, timeoutMs: 0 }), /timeoutMs must be/);
  assert.throws(() => new Transport({ nodes, maxRetries: -1 }), /maxRetries must be/);
  assert.throws(() => new Transport({ nodes, retryBaseDelayMs: 1.5 }), /retryBaseDelayMs/);
  assert.throws(() => new Transport({ nodes: [] }), /at least one node/);
});

Deno.test("every fetch is asked not to follow redirects; a 3xx (or an opaque redirect) is a RedirectError, not retried", async () => {
  const redirects: (RequestRedirect | undefined)[] = [];
  for (const status of [301, 303, 307, 308, 0]) {
    let calls = 0;
    const fetch = (_url: string, init: RequestInit) => {
      calls++;
      redirects.push(init.redirect);
      const res = new Response("", {
        status: status === 0 ? 200 : status,
        headers: status === 0 ? {} : { location: "http://u:secret@other:9200/x" },
      });
      // What a browser's fetch hands back for `redirect: "manual"`: type opaqueredirect, status 0.
      if (status === 0) {
        Object.defineProperties(res, { type: { value: "opaqueredirect" }, status: { value: 0 } });
      }
      return Promise.resolve(res);
    };
    const t = new Transport({ nodes: ["http://a:9200"], fetch, retryBaseDelayMs: 1 });
    const error = await t.request({ method: "POST", path: "/cnt/_doc", body: "{}" }).catch((e) =>
      e
    );
    assert.ok(error instanceof RedirectError, `${status}: ${error}`);
    assert.equal(error.status, status);
    assert.equal(error.location, status === 0 ? undefined : "http://***@other:9200/x");
    assert.doesNotMatch(error.message, /secret/);
    assert.equal(calls, 1, `${status} was not retried`);
  }
  assert.deepEqual(new Set(redirects), new Set(["manual"]));
});
