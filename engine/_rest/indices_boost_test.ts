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

Deno.test("indices_boost with a filtered alias: the filter and the boost both apply, in _msearch too", async () => {
  const engine = new Engine();
  for (const n of [1, 2]) {
    await call(engine, "PUT", `/f_${n}`);
    for (const [id, color] of [["a", "red"], ["b", "blue"]]) {
      await call(engine, "PUT", `/f_${n}/_doc/${id}`, { color, t: "x" });
    }
  }
  await call(engine, "POST", "/_aliases", {
    actions: [{
      add: { indices: ["f_1", "f_2"], alias: "reds", filter: { term: { color: "red" } } },
    }],
  });
  await call(engine, "POST", "/_refresh");
  const r = await call(engine, "POST", "/reds/_search", {
    query: { match: { t: "x" } },
    indices_boost: [{ f_2: 3 }],
  });
  assert.equal(r.code, 200);
  const hits = r.hits.hits.map((h: Reply) => [h._index, h._id]);
  assert.deepEqual(hits, [["f_2", "a"], ["f_1", "a"]]);
  assert.ok(Math.abs(r.hits.hits[0]._score / r.hits.hits[1]._score - 3) < 1e-6);
  // No query: the alias filter alone, every red document scoring the boost.
  const bare = await call(engine, "POST", "/reds/_search", { indices_boost: [{ "f_*": 2 }] });
  assert.deepEqual(bare.hits.hits.map((h: Reply) => [h._id, h._score]), [["a", 2], ["a", 2]]);
  const m = await call(
    engine,
    "POST",
    "/_msearch",
    '{"index":"f_1,f_2"}\n{"query":{"term":{"color":"blue"}},"indices_boost":[{"f_1":4}]}\n',
  );
  assert.deepEqual(m.responses[0].hits.hits.map((h: Reply) => h._index), ["f_1", "f_2"]);
  engine.close();
});
