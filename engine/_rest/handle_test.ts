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
