import assert from "node:assert/strict";
import { trace, type Tracer } from "npm:@opentelemetry/api@1.9.1";
import { DataSource, ResponseError, type TransportEvent } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { type OtelAttributes, otelListener, type OtelTracer } from "./otel.ts";

interface Recorded {
  name: string;
  kind?: number;
  attributes: OtelAttributes;
  status?: { code: number; message?: string };
  ended: boolean;
}

function recorder(): { tracer: OtelTracer; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const tracer: OtelTracer = {
    startSpan(name, options) {
      const span: Recorded = {
        name,
        kind: options?.kind,
        attributes: { ...options?.attributes },
        ended: false,
      };
      spans.push(span);
      return {
        setAttributes: (a) => Object.assign(span.attributes, a),
        setStatus: (s) => (span.status = s),
        end: () => (span.ended = true),
      };
    },
  };
  return { tracer, spans };
}

Deno.test("otel: one client span per request with the db-client attributes, over the real engine", async () => {
  const engine = new Engine();
  const { tracer, spans } = recorder();
  const seen: TransportEvent[] = [];
  const ds = new DataSource("http://elastic:s3cret@search.local:9201", {
    fetch: engine.fetch,
    indexRefresh: true,
    onEvent: otelListener(tracer, { system: "opensearch", next: (e) => seen.push(e) }),
  });
  await using conn = await ds.getConnection();
  const stmt = conn.createStatement();
  await stmt.executeUpdate('PUT /people/_doc/1 {"name": "Ada"}');
  await stmt.executeQuery('POST /people/_search {"query": {"match_all": {}}}');
  await assert.rejects(stmt.executeQuery("GET /missing/_search"), ResponseError);
  engine.close();
  assert.deepEqual(spans.map((s) => s.name), ["index", "search", "search"]);
  const search = spans[1]!;
  assert.equal(search.kind, 2);
  assert.equal(search.ended, true);
  assert.equal(search.status, undefined);
  assert.deepEqual(
    { ...search.attributes, "http.response.body.size": undefined },
    {
      "db.system": "opensearch",
      "db.operation": "search",
      "db.operation.name": "search",
      "server.address": "search.local",
      "server.port": 9201,
      "http.request.method": "POST",
      "url.full": "http://search.local:9201/people/_search",
      "db.elasticsearch.path_parts.index": "people",
      "http.request.body.size": '{"query":{"match_all":{}}}'.length,
      "http.response.status_code": 200,
      "http.response.body.size": undefined,
    },
  );
  const failed = spans[2]!;
  assert.equal(failed.attributes["http.response.status_code"], 404);
  assert.equal(failed.attributes["error.type"], "404");
  assert.equal(failed.status?.code, 2);
  assert.equal(seen.length, 6, "the chained listener gets every event");
  assert.doesNotMatch(JSON.stringify(spans), /s3cret/);
});

Deno.test("otel: retries are separate spans with resend_count; a dead node ends with error.type", async () => {
  const { tracer, spans } = recorder();
  let calls = 0;
  const ds = new DataSource({
    nodes: ["http://a:9200", "http://b:9200"],
    retryBaseDelayMs: 0,
    fetch: () =>
      ++calls === 1
        ? Promise.reject(new TypeError("connection refused"))
        : Promise.resolve(Response.json({ count: 1 })),
    onEvent: otelListener(tracer),
  });
  await ds.transport.request({ method: "GET", path: "/_count" });
  assert.deepEqual(
    spans.map((s) => [s.attributes["server.address"], s.attributes["http.request.resend_count"]]),
    [
      ["a", undefined],
      ["b", 1],
    ],
  );
  assert.equal(spans[0]!.attributes["error.type"], "TypeError");
  assert.equal(spans[0]!.status?.message, "TypeError: connection refused");
  assert.ok(spans.every((s) => s.ended));
});

Deno.test("otel: a real @opentelemetry/api tracer fits the interface (no-op without an SDK)", async () => {
  const real: Tracer = trace.getTracer("searchvisitor-test");
  const engine = new Engine();
  const ds = new DataSource({
    nodes: ["http://e"],
    fetch: engine.fetch,
    onEvent: otelListener(real),
  });
  await using conn = await ds.getConnection();
  const rs = await conn.createStatement().executeQuery("GET /");
  assert.ok(rs.next());
  engine.close();
});
