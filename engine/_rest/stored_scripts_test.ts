import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply } from "../../tests/support/engine_call.ts";

Deno.test("stored scripts: put, get, delete, and the refusals, as the real engines answer", async () => {
  // Real OpenSearch 3.8.0 (Elasticsearch 9.5.4 answers the same for a missing script and the
  // refusals; its distribution has no painless or mustache module to store scripts in).
  const engine = new Engine({ flavour: "opensearch" });
  const call = (method: string, path: string, body?: unknown) =>
    jsonReply(engine, method, path, body).then((r) => [r.status, r.body]);
  assert.deepEqual(await call("GET", "/_scripts/nope"), [404, { _id: "nope", found: false }]);
  const [status, body] = await call("DELETE", "/_scripts/nope");
  assert.deepEqual([status, body.error.type, body.error.reason], [
    404,
    "resource_not_found_exception",
    "stored script [nope] does not exist and cannot be deleted",
  ]);
  assert.deepEqual(
    await call("PUT", "/_scripts/s1", {
      script: { lang: "painless", source: "Math.log(_score * 2)" },
    }),
    [200, { acknowledged: true }],
  );
  assert.deepEqual(await call("GET", "/_scripts/s1"), [200, {
    _id: "s1",
    found: true,
    script: { lang: "painless", source: "Math.log(_score * 2)" },
  }]);
  await call("PUT", "/_scripts/t1", {
    script: { lang: "mustache", source: { query: { match: { m: "{{q}}" } } } },
  });
  assert.deepEqual(await call("GET", "/_scripts/t1"), [200, {
    _id: "t1",
    found: true,
    script: {
      lang: "mustache",
      source: '{"query":{"match":{"m":"{{q}}"}}}',
      options: { content_type: "application/json; charset=UTF-8" },
    },
  }]);
  assert.deepEqual(await call("DELETE", "/_scripts/s1"), [200, { acknowledged: true }]);
  assert.deepEqual(await call("GET", "/_scripts/s1"), [404, { _id: "s1", found: false }]);
  for (
    const [script, reason] of [
      [{ source: "1" }, "must specify lang for stored script"],
      [{ lang: "nope", source: "1" }, "unable to put stored script with unsupported lang [nope]"],
    ] as const
  ) {
    const [code, refused] = await call("PUT", "/_scripts/x", { script });
    assert.deepEqual([code, refused.error.type, refused.error.reason], [
      400,
      "illegal_argument_exception",
      reason,
    ]);
  }
  engine.close();
});
