import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { MAX_BODY_BYTES } from "./handle.ts";

Deno.test("oversized bodies are refused with 413 before reading", async () => {
  const engine = new Engine();
  const res = await engine.fetch("http://e/_bulk", {
    method: "POST",
    headers: { "content-length": String(MAX_BODY_BYTES + 1) },
    body: "x",
  });
  assert.equal(res.status, 413);
  await res.body?.cancel();
  engine.close();
});

Deno.test("bad input never takes the engine down", async () => {
  const engine = new Engine();
  await (await engine.fetch("http://e/x", { method: "PUT" })).body?.cancel();
  const bodies = ["{", "[]", "null", '{"query":{"nope":{}}}', '{"size":"x"}', '{"from":100000}'];
  for (const body of bodies) {
    const res = await engine.fetch("http://e/x/_search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    assert.ok(res.status >= 400 && res.status < 500, `${body} → ${res.status}`);
    const json = await res.json();
    assert.equal(typeof json.error, "object");
  }
  const ok = await engine.fetch("http://e/");
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  engine.close();
});

Deno.test("HEAD answers carry no body", async () => {
  const engine = new Engine();
  const res = await engine.fetch("http://e/missing", { method: "HEAD" });
  assert.equal(res.status, 404);
  assert.equal(await res.text(), "");
  engine.close();
});

Deno.test("X-Opaque-Id is echoed", async () => {
  const engine = new Engine();
  const res = await engine.fetch("http://e/", { headers: { "x-opaque-id": "trace-1" } });
  assert.equal(res.headers.get("x-opaque-id"), "trace-1");
  await res.body?.cancel();
  engine.close();
});

Deno.test("bodies need a JSON Content-Type, as on Elasticsearch (406 otherwise)", async () => {
  const engine = new Engine();
  const plain = await engine.fetch("http://e/x/_doc/1", { method: "PUT", body: "{}" });
  assert.equal(plain.status, 406);
  assert.deepEqual(await plain.json(), {
    error: "Content-Type header [text/plain;charset=UTF-8] is not supported",
    status: 406,
  });
  const missing = await engine.fetch("http://e/x/_doc/1", {
    method: "PUT",
    body: new Uint8Array([123, 125]),
  });
  assert.deepEqual(await missing.json(), { error: "Content-Type header is missing", status: 406 });
  const ndjson = await engine.fetch("http://e/_bulk", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: '{"index":{"_index":"x","_id":"1"}}\n{}\n',
  });
  assert.equal(ndjson.status, 200);
  await ndjson.body?.cancel();
  engine.close();
});

/** The type of an error and of each cause beneath it, top first. */
function chain(error: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (let e: Record<string, unknown> | undefined = error; e; e = e.caused_by as typeof e) {
    out.push(String(e.type));
  }
  return out;
}

Deno.test("a body that is not JSON is refused as each product's JSON reader says", async () => {
  // Real answers to POST /i/_search (reasons aside): Elasticsearch 9.5.4 wraps Jackson's
  // exception, OpenSearch 3.8.0 shows Jackson's own. `{"query": {` on Elasticsearch:
  // {"error":{"root_cause":[{"type":"x_content_e_o_f_exception","reason":"[1:12] Unexpected end
  // of file"}],"type":"x_content_e_o_f_exception",…,"caused_by":{"type":"json_e_o_f_exception",…}}
  // on OpenSearch: {"error":{"root_cause":[{"type":"unexpected_end_of_input_exception",…}],"type":
  // "unexpected_end_of_input_exception",…,"caused_by":{"type":"unexpected_end_of_input_exception"…
  // `{"query":}` on OpenSearch: {"error":{"root_cause":[{"type":"json_parse_exception",…}],"type":
  // "json_parse_exception",…,"caused_by":{"type":"stream_read_exception",…}},"status":400}
  const cases: [string, string[], string[]][] = [
    ['{"query": {', ["x_content_e_o_f_exception", "json_e_o_f_exception"], [
      "unexpected_end_of_input_exception",
      "unexpected_end_of_input_exception",
    ]],
    ['{"query":}', ["x_content_parse_exception", "json_parse_exception"], [
      "json_parse_exception",
      "stream_read_exception",
    ]],
    ['{"a" 1}', ["x_content_parse_exception", "json_parse_exception"], [
      "json_parse_exception",
      "stream_read_exception",
    ]],
  ];
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await (await engine.fetch("http://e/i", { method: "PUT" })).body?.cancel();
    for (const [body, es, os] of cases) {
      const res = await engine.fetch("http://e/i/_search", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      assert.equal(res.status, 400);
      const { error } = await res.json();
      const want = flavour === "opensearch" ? os : es;
      assert.deepEqual(chain(error), want, `${flavour} ${body}`);
      // The root cause is the top exception: Jackson's are not the products' own.
      assert.deepEqual(error.root_cause.map((c: { type: string }) => c.type), [want[0]]);
    }
    // A document: Elasticsearch 9.5.4 document_parsing_exception → x_content_parse_exception →
    // json_parse_exception; OpenSearch 3.8.0 mapper_parsing_exception → json_parse_exception →
    // stream_read_exception; the root cause is the document's exception on both.
    const res = await engine.fetch("http://e/i/_doc/1", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: '{"a" 1}',
    });
    const { error } = await res.json();
    assert.deepEqual(
      chain(error),
      flavour === "opensearch"
        ? ["mapper_parsing_exception", "json_parse_exception", "stream_read_exception"]
        : ["document_parsing_exception", "x_content_parse_exception", "json_parse_exception"],
    );
    assert.equal(error.root_cause[0].type, error.type);
    engine.close();
  }
});
