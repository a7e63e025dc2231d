import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

// Scores OpenSearch 3.8.0 and Elasticsearch 9.5.4 gave for the same three documents.
async function docs(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/k", {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        tag: { type: "keyword" },
        k2: { type: "keyword", doc_values: false },
        items: { type: "nested", properties: { sku: { type: "keyword" }, t: { type: "text" } } },
      },
    },
  });
  const lines = [
    { tag: "a", k2: "a", items: [{ sku: "s1", t: "x y" }, { sku: "s2", t: "x" }] },
    { tag: "b", k2: "b", items: [{ sku: "s1", t: "y" }] },
    { tag: "a", k2: "a" },
  ].flatMap((d, i) => [JSON.stringify({ index: { _id: String(i + 1) } }), JSON.stringify(d)]);
  await call(engine, "POST", "/k/_bulk?refresh=true", lines.join("\n") + "\n");
  return engine;
}

async function scores(engine: Engine, query: unknown): Promise<Array<[string, number]>> {
  const r = await call(engine, "POST", "/k/_search", { query });
  return r.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]);
}

Deno.test("OpenSearch: a term on a keyword with doc values scores its boost", async () => {
  const os = await docs("opensearch");
  assert.deepEqual(await scores(os, { term: { tag: { value: "a", boost: 3 } } }), [
    ["1", 3],
    ["3", 3],
  ]);
  assert.deepEqual(await scores(os, { match: { tag: "a" } }), [["1", 1], ["3", 1]]);
  assert.deepEqual(await scores(os, { term: { k2: "a" } }), [["1", 0.21363801], [
    "3",
    0.21363801,
  ]]);
  assert.deepEqual(
    await scores(os, { bool: { should: [{ term: { tag: "a" } }, { term: { tag: "b" } }] } }),
    [["1", 1], ["2", 1], ["3", 1]],
  );
  assert.deepEqual(
    await scores(os, {
      nested: { path: "items", query: { term: { "items.sku": "s1" } }, score_mode: "sum" },
    }),
    [["1", 1], ["2", 1]],
  );
});

Deno.test("Elasticsearch: a term on a keyword scores BM25", async () => {
  const es = await docs("elasticsearch");
  assert.deepEqual(await scores(es, { term: { tag: { value: "a", boost: 3 } } }), [
    ["1", 1.4100108],
    ["3", 1.4100108],
  ]);
  assert.deepEqual(
    await scores(es, { bool: { should: [{ term: { tag: "a" } }, { term: { tag: "b" } }] } }),
    [["2", 0.9808291], ["1", 0.4700036], ["3", 0.4700036]],
  );
});
