import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";
import { autoExpandReplicas } from "./settings.ts";

Deno.test("auto_expand_replicas: parsed with Elasticsearch's messages", () => {
  assert.equal(autoExpandReplicas("false"), undefined);
  assert.deepEqual(autoExpandReplicas("0-1"), { min: 0, max: 1 });
  assert.deepEqual(autoExpandReplicas("1-all"), { min: 1, max: Infinity });
  assert.throws(() => autoExpandReplicas("boom"), /from value: \[boom\] at index -1/);
  assert.throws(() => autoExpandReplicas("boom-1"), /from value: \[boom-1\] at index 4/);
  assert.throws(() => autoExpandReplicas("2-1"), /must be =< maxReplicas but wasn't 2 > 1/);
});

Deno.test("auto_expand_replicas: one node keeps 0-x green and 1-x yellow", async () => {
  const engine = new Engine();
  assert.equal(
    (await call(engine, "PUT", "/a", { settings: { auto_expand_replicas: "0-all" } })).code,
    200,
  );
  await call(engine, "PUT", "/b", { settings: { index: { auto_expand_replicas: "1-2" } } });
  const a = await call(engine, "GET", "/_cluster/health/a");
  assert.equal(a.status, "green");
  assert.equal(a.unassigned_shards, 0);
  const b = await call(engine, "GET", "/_cluster/health/b");
  assert.equal(b.status, "yellow");
  const bad = await call(engine, "PUT", "/c", { settings: { auto_expand_replicas: "1-boom" } });
  assert.equal(bad.code, 400);
  assert.equal(bad.error.caused_by.type, "number_format_exception");
  const put = await call(engine, "PUT", "/_all/_settings", {
    index: { auto_expand_replicas: "0-1" },
  });
  assert.equal(put.code, 200);
  assert.equal((await call(engine, "GET", "/_cluster/health/b")).status, "green");
});
