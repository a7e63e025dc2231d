import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function twoIndices(): Promise<Engine> {
  const engine = new Engine();
  for (const n of [1, 2]) {
    await call(engine, "PUT", `/test_${n}`);
    await call(engine, "PUT", `/test_${n}/_alias/alias_${n}`);
    await call(engine, "PUT", `/test_${n}/_doc/1`, { foo: "bar" });
  }
  await call(engine, "POST", "/_refresh");
  return engine;
}

async function order(engine: Engine, boosts: Reply[], query = ""): Promise<unknown> {
  const r = await call(engine, "POST", `/_all/_search${query}`, { indices_boost: boosts });
  return r.code === 200 ? r.hits.hits.map((h: Reply) => h._index) : [r.code, r.error.type];
}

Deno.test("indices_boost: aliases and patterns boost the indices they name; first match wins", async () => {
  const engine = await twoIndices();
  assert.deepEqual(await order(engine, [{ alias_2: 2 }]), ["test_2", "test_1"]);
  assert.deepEqual(await order(engine, [{ alias_1: 1 }, { alias_2: 0.5 }]), ["test_1", "test_2"]);
  assert.deepEqual(await order(engine, [{ "*_2": 2 }]), ["test_2", "test_1"]);
  assert.deepEqual(await order(engine, [{ "*_1": 1 }, { test_2: 2 }, { alias_1: 3 }]), [
    "test_2",
    "test_1",
  ]);
  engine.close();
});

Deno.test("indices_boost: a name that matches nothing is no such index unless ignore_unavailable", async () => {
  const engine = await twoIndices();
  const boosts = [{ nonexistent: 2 }, { test_1: 1 }, { test_2: 2 }];
  assert.deepEqual(await order(engine, boosts), [404, "index_not_found_exception"]);
  assert.deepEqual(await order(engine, boosts, "?ignore_unavailable=true"), ["test_2", "test_1"]);
  const ms = await engine.fetch("http://engine/_msearch", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: `{"index":"_all"}\n${JSON.stringify({ indices_boost: [{ alias_2: 3 }] })}\n`,
  });
  const reply = await ms.json();
  assert.deepEqual(reply.responses[0].hits.hits.map((h: Reply) => h._index), ["test_2", "test_1"]);
  engine.close();
});
