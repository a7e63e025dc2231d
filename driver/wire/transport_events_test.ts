import assert from "node:assert/strict";
import { DataSource } from "../jdbc/data_source.ts";
import { Transport } from "./transport.ts";
import type { TransportEvent } from "./transport_events.ts";
import { byteLength, operationOf } from "./transport_events.ts";

Deno.test("events: attempts, retries, a node dead then alive, with status, bytes and duration", async () => {
  const events: TransportEvent[] = [];
  const answers = [
    () => Promise.reject(new TypeError("connection refused")),
    () => Promise.resolve(new Response("busy", { status: 503 })),
    () => Promise.resolve(Response.json({ ok: "é" })),
  ];
  const transport = new Transport({
    nodes: ["http://a:9200", "http://b:9200"],
    fetch: () => answers.shift()!(),
    retryBaseDelayMs: 0,
    deadNodeBaseMs: 0, // a dead node is due back at once: the third attempt goes to it again
    onEvent: (e) => events.push(e),
  });
  await transport.request({ method: "PUT", path: "/idx/_doc/1", body: '{"n":"é"}' });
  const brief = events.map((e) =>
    e.type === "node-dead" || e.type === "node-alive"
      ? `${e.type} ${e.node}`
      : `${e.type} ${e.attempt} ${e.node}${
        e.type === "request-end" ? ` ${e.status ?? e.error}` : ""
      }${e.type === "retry" ? ` (${e.reason})` : ""}`
  );
  assert.deepEqual(brief, [
    "request-start 1 http://a:9200",
    "request-end 1 http://a:9200 TypeError: connection refused",
    "node-dead http://a:9200",
    "retry 1 http://a:9200 (TypeError: connection refused)",
    "request-start 2 http://b:9200",
    "request-end 2 http://b:9200 503",
    "retry 2 http://b:9200 (status 503)",
    "request-start 3 http://a:9200",
    "request-end 3 http://a:9200 200",
    "node-alive http://a:9200",
  ]);
  const last = events[8]!;
  assert.ok(last.type === "request-end");
  assert.equal(last.requestBytes, 10);
  assert.equal(last.responseBytes, 11);
  assert.equal(last.operation, "index");
  assert.equal(last.method, "PUT");
  assert.ok(last.durationMs >= 0);
  assert.equal(
    new Set(
      events.filter((e) => "requestId" in e).map((e) => (e as { requestId: number }).requestId),
    ).size,
    1,
  );
});

Deno.test("events: nothing secret — credentials, API keys, bearer tokens, secret query values, headers", async () => {
  const secrets = ["s3cret-pw", "k3y-secret", "b3arer-tok", "p4ss-in-query", "h3ader-val"];
  for (const auth of [undefined, { apiKey: "k3y-secret" }, { bearer: "b3arer-tok" }]) {
    const events: TransportEvent[] = [];
    const ds = new DataSource("http://elastic:s3cret-pw@es:9200", {
      ...(auth ? { auth } : {}),
      headers: { "x-api-key": "h3ader-val" },
      maxRetries: 1,
      retryBaseDelayMs: 0,
      // A hostile fetch that puts every secret it was handed into its error message.
      fetch: (url, init) => {
        const headers = init.headers as Record<string, string>;
        const basic = headers.authorization?.startsWith("Basic ")
          ? atob(headers.authorization.slice(6))
          : "";
        return Promise.reject(new TypeError(`failed ${url} ${JSON.stringify(headers)} ${basic}`));
      },
      onEvent: (e) => events.push(e),
    });
    await assert.rejects(
      ds.transport.request({ method: "GET", path: "/_search?password=p4ss-in-query&q=x" }),
    );
    const text = JSON.stringify(events);
    assert.ok(events.length >= 5, text);
    for (const secret of secrets) {
      assert.doesNotMatch(text, new RegExp(secret), `${secret} in ${text}`);
    }
  }
});

Deno.test("events: a throwing listener never breaks a request; no listener costs nothing", async () => {
  const transport = new Transport({
    nodes: ["http://a:9200"],
    fetch: () => Promise.resolve(Response.json({ count: 1 })),
    onEvent: () => {
      throw new Error("observer bug");
    },
  });
  const res = await transport.request({ method: "GET", path: "/_count" });
  assert.equal(res.status, 200);
});

Deno.test("events: a node that never answers ends the attempt with a timeout error and is marked dead", async () => {
  const events: TransportEvent[] = [];
  const transport = new Transport({
    nodes: ["http://a:9200"],
    timeoutMs: 20,
    maxRetries: 0,
    fetch: (_url, init) =>
      new Promise((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason))
      ),
    onEvent: (e) => events.push(e),
  });
  await assert.rejects(transport.request({ method: "GET", path: "/" }));
  assert.deepEqual(events.map((e) => e.type), ["request-start", "request-end", "node-dead"]);
  const end = events[1]!;
  assert.ok(
    end.type === "request-end" && end.status === undefined && /Timeout/.test(end.error ?? ""),
  );
});

Deno.test("operationOf: endpoint names as Elasticsearch's clients give them", () => {
  const cases: [string, string, string][] = [
    ["GET", "/", "info"],
    ["HEAD", "/", "ping"],
    ["PUT", "/people/_doc/1", "index"],
    ["GET", "/people/_doc/1", "get"],
    ["DELETE", "/people/_doc/1?refresh=true", "delete"],
    ["HEAD", "/people/_doc/1", "exists"],
    ["POST", "/people/_doc", "index"],
    ["POST", "/people/_update/1", "update"],
    ["POST", "/people/_search?size=1", "search"],
    ["POST", "/_bulk", "bulk"],
    ["POST", "/people/_bulk", "bulk"],
    ["GET", "/people/_source/1", "get_source"],
    ["POST", "/people/_delete_by_query", "delete_by_query"],
    ["GET", "/people/_mapping", "indices.get_mapping"],
    ["PUT", "/people/_mapping", "indices.put_mapping"],
    ["PUT", "/people", "indices.create"],
    ["DELETE", "/people", "indices.delete"],
    ["HEAD", "/people", "indices.exists"],
    ["GET", "/_cat/indices", "cat.indices"],
    ["GET", "/_cluster/health", "cluster.health"],
    ["POST", "/_search/scroll", "search"],
    ["POST", "/people/_pit?keep_alive=1m", "open_point_in_time"],
  ];
  for (const [method, path, name] of cases) assert.equal(operationOf(method, path), name, path);
});

Deno.test("byteLength", () => {
  assert.equal(byteLength("aé€😀"), 1 + 2 + 3 + 4);
  assert.equal(byteLength(new Uint8Array(7)), 7);
  assert.equal(byteLength(undefined), 0);
});
