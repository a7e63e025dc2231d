import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

// Elasticsearch 9.5.4, a three-shard index holding documents "0", "1" and "2": the ids it had
// generated, "YuTwNqIBh3WpBktc3zk6", "ik3YNqIBI_4BBOG_bm9y" and "i03ZNqIBI_4BBOG_tW_j", got
// `_seq_no` 0, 2 and 3 there (the first on a shard none of the three is on, the other two on
// one holding two of them). Given those ids, the engine places the documents where it did.
Deno.test("ids: documents written without an id take the ids given, one per document", async () => {
  const given = [
    "YuTwNqIBh3WpBktc3zk6",
    "ik3YNqIBI_4BBOG_bm9y",
    "i03ZNqIBI_4BBOG_tW_j",
    "b1",
    "b2",
  ];
  const engine = new Engine({ ids: () => given.shift() ?? "fallback" });
  try {
    await json(engine, "PUT", "/i", { settings: { number_of_shards: 3 } });
    for (const id of ["0", "1", "2"]) await json(engine, "PUT", `/i/_doc/${id}`, { a: 1 });
    const written = [];
    for (let n = 0; n < 3; n++) {
      written.push((await json(engine, "POST", "/i/_doc", { a: 2 })).body);
    }
    assert.deepEqual(written.map((w) => [w._id, w._seq_no]), [
      ["YuTwNqIBh3WpBktc3zk6", 0],
      ["ik3YNqIBI_4BBOG_bm9y", 2],
      ["i03ZNqIBI_4BBOG_tW_j", 3],
    ]);
    const bulk = await engine.fetch("http://engine/i/_bulk", {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: '{"index":{}}\n{"a":2}\n{"index":{"_id":"x"}}\n{"a":3}\n{"create":{}}\n{"a":4}\n',
    });
    const items = (await bulk.json()).items as Array<Record<string, { _id: string }>>;
    assert.deepEqual(items.map((i) => Object.values(i)[0]!._id), ["b1", "x", "b2"]);
    assert.equal((await json(engine, "POST", "/i/_doc", { a: 5 })).body._id, "fallback");
  } finally {
    engine.close();
  }
});

Deno.test("ids: random 20-character ids by default", async () => {
  const engine = new Engine();
  try {
    await json(engine, "PUT", "/i", {});
    const a = (await json(engine, "POST", "/i/_doc", { a: 1 })).body._id;
    const b = (await json(engine, "POST", "/i/_doc", { a: 1 })).body._id;
    assert.match(a, /^[A-Za-z0-9_-]{20}$/);
    assert.notEqual(a, b);
  } finally {
    engine.close();
  }
});
