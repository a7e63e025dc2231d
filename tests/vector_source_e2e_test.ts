// Entity reads name the index's dense_vector fields in `_source` (Elasticsearch 9 leaves vector
// values out of `_source` unless a read names them): lambda lists and streams, the mapper's reads
// by key. Against the embedded engine; set ES_URL (an Elasticsearch 9 node) to run it there too.
import assert from "node:assert/strict";
import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";
import { BaseMapper, Configuration, SimpleMapper } from "../mapper/mod.ts";
import { defineEntity } from "../template/mod.ts";

class Item {
  id = "";
  t = "";
  emb: number[] = [];
}
const index = `vsrc_${Date.now()}`;
defineEntity(Item, { index, key: "id" });

@SimpleMapper({ entity: Item })
class ItemMapper extends BaseMapper<Item> {}

async function setup() {
  const url = Deno.env.get("ES_URL") || undefined; // the test task sets it empty
  const engine = url ? undefined : new Engine();
  const sent: string[] = [];
  const fetch = (input: string, init: RequestInit) => {
    const u = new URL(input);
    sent.push(`${init.method} ${decodeURIComponent(u.pathname + u.search)} ${init.body ?? ""}`);
    return engine ? engine.fetch(input, init) : globalThis.fetch(input, init);
  };
  const ds = new DataSource({ nodes: [url ?? "http://engine"], fetch, indexRefresh: true });
  const lambda = new LambdaTemplate(ds);
  await lambda.jdbc.execute("PUT /{?} ?", [index, {
    mappings: {
      properties: { emb: { type: "dense_vector", dims: 3 }, t: { type: "keyword" } },
    },
  }]);
  await lambda.insert(Item).applyEntity([
    Object.assign(new Item(), { id: "1", t: "a", emb: [0.5, 1, 2] }),
    Object.assign(new Item(), { id: "2", t: "b", emb: [1, 0, 0] }),
  ]).executeSumResult();
  const close = async () => {
    await lambda.jdbc.execute("DELETE /{?}", [index]);
    engine?.close();
  };
  return { ds, lambda, sent, close };
}

Deno.test("entity reads bring dense_vector values back: lambda list, stream, mapper by key", async () => {
  const { ds, lambda, sent, close } = await setup();
  try {
    const list = await lambda.query(Item).eq("t", "a").queryForList();
    assert.deepEqual(list.map((i) => i.emb), [[0.5, 1, 2]]);
    assert.ok(sent.some((s) => s.includes('"_source":["*","emb"]')), "the vector is named");
    const streamed: number[][] = [];
    for await (const item of lambda.query(Item).orderBy("t").stream()) streamed.push(item.emb);
    assert.deepEqual(streamed, [[0.5, 1, 2], [1, 0, 0]]);

    const mapper = new Configuration().newSession(ds).createMapper(ItemMapper);
    assert.deepEqual((await mapper.selectById("2"))?.emb, [1, 0, 0]);
    assert.deepEqual((await mapper.selectByIds(["1", "2"])).map((i) => i.emb), [[0.5, 1, 2], [
      1,
      0,
      0,
    ]]);
    assert.ok(sent.some((s) => s.includes("_source_includes=*,emb")));
    // A select names its fields itself; a read of a bare index is left as written.
    const picked = await lambda.query(Item).select("t").eq("t", "b").queryForMapList();
    assert.deepEqual(picked.map((d) => d.emb), [undefined]);
  } finally {
    await close();
  }
});

Deno.test("without vector fields nothing is added to the reads", async () => {
  const engine = new Engine();
  const sent: string[] = [];
  const fetch = (input: string, init: RequestInit) => {
    sent.push(`${init.method} ${new URL(input).search} ${init.body ?? ""}`);
    return engine.fetch(input, init);
  };
  const lambda = new LambdaTemplate(
    new DataSource({ nodes: ["http://engine"], fetch, indexRefresh: true }),
  );
  class Plain {
    id = "";
    t = "";
  }
  defineEntity(Plain, { index: "plain", key: "id" });
  await lambda.insert(Plain).applyEntity([Object.assign(new Plain(), { id: "1", t: "a" })])
    .executeSumResult();
  assert.equal((await lambda.query(Plain).queryForList()).length, 1);
  assert.ok(sent.every((s) => !s.includes("_source")), sent.join("\n"));
  engine.close();
});
