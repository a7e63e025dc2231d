// The engine against hostile single requests, over raw HTTP to a real serve() on loopback: dot
// segments routed as data, requests that would take time or memory out of proportion answered
// within bounds or refused with Elasticsearch's 4xx, and Elasticsearch's remaining limits.

import assert from "node:assert/strict";
import { RawServer } from "./support/raw_http.ts";
import { call } from "./support/engine_call.ts";

async function withServer(
  fn: (s: RawServer) => Promise<void>,
  options: ConstructorParameters<typeof RawServer>[0] = {},
): Promise<void> {
  const s = await new RawServer(options).start();
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

Deno.test("raw path: %2e%2e is a document id, never a step up to the index or another one", async () => {
  await withServer(async (s) => {
    assert.equal((await s.call("PUT", "/victim/_doc/keep?refresh=true", { a: 1 })).code, 201);
    assert.equal((await s.call("PUT", "/other")).code, 200);
    const put = await s.call("PUT", "/victim/_doc/%2e%2e?refresh=true", { a: 2 });
    assert.deepEqual([put.code, put._index, put._id], [201, "victim", ".."]);
    const got = await s.call("GET", "/victim/_doc/%2E%2e");
    assert.deepEqual([got.code, got._id, got._source], [200, "..", { a: 2 }]);
    const deleted = await s.call("DELETE", "/victim/_doc/%2e%2e");
    assert.deepEqual([deleted.code, deleted.result, deleted._id], [200, "deleted", ".."]);
    const up = await s.call("DELETE", "/victim/_doc/%2e%2e/%2e%2e/other");
    assert.equal(up.code, 400);
    assert.equal(
      up.error,
      "no handler found for uri [/victim/_doc/%2e%2e/%2e%2e/other] and method [DELETE]",
    );
    const single = await s.call("DELETE", "/victim/_doc/.");
    assert.deepEqual([single.code, single.result], [404, "not_found"]);
    assert.equal((await s.call("HEAD", "/victim")).code, 200);
    assert.equal((await s.call("HEAD", "/other")).code, 200);
    assert.equal((await s.call("GET", "/victim/_doc/keep")).found, true);
    // engine.fetch with a URL string routes on the path as written too
    const inProcess = await call(s.engine, "DELETE", "/victim/_doc/%2e%2e/%2e%2e/other");
    assert.equal(inProcess.code, 400);
    assert.equal((await call(s.engine, "PUT", "/victim/_doc/%2e%2e", {})).code, 201);
    assert.equal((await call(s.engine, "DELETE", "/victim/_doc/%2e%2e")).result, "deleted");
    assert.equal((await s.call("HEAD", "/victim")).code, 200);
  });
});
