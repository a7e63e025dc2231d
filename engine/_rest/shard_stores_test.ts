import assert from "node:assert/strict";
import { Engine } from "../mod.ts";

// Measured on Elasticsearch 9.5.4 (one node): `ss1` with a replica (yellow), `ss2` without
// (green). `_shard_stores` lists yellow and red shards by default; `status` picks others.
Deno.test("_shard_stores lists the shards of the statuses asked for", async () => {
  const engine = new Engine();
  const call = async (method: string, path: string, body?: string) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method,
      ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } }),
    });
    return { status: res.status, body: await res.json() };
  };
  const names = async (q: string) =>
    Object.keys((await call("GET", `/_shard_stores${q}`)).body.indices);
  try {
    await call("PUT", "/ss1");
    await call("PUT", "/ss2", '{"settings":{"number_of_replicas":0}}');
    assert.deepEqual(await names(""), ["ss1"]);
    assert.deepEqual(await names("?status=green"), ["ss2"]);
    assert.deepEqual(await names("?status=yellow"), ["ss1"]);
    assert.deepEqual(await names("?status=red"), []);
    assert.deepEqual((await names("?status=all")).sort(), ["ss1", "ss2"]);
    assert.deepEqual((await names("?status=green,yellow")).sort(), ["ss1", "ss2"]);
    const store = (await call("GET", "/ss1/_shard_stores")).body.indices.ss1.shards["0"].stores[0];
    assert.equal(store.allocation, "primary");
    assert.equal(typeof store.allocation_id, "string");
    const bad = await call("GET", "/_shard_stores?status=bogus");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.type, "illegal_argument_exception");
    assert.equal(bad.body.error.reason, "unknown cluster health status [bogus]");
  } finally {
    engine.close();
  }
});
