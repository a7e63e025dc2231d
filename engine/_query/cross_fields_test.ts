import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

const DOCS = [
  { title: "fox", body: "fox dog dog" },
  { title: "dog", body: "cat" },
  { title: "cat fox", body: "fox" },
  { title: "bird", body: "dog fox cat bird" },
  { title: "dog dog", body: "bird" },
];

async function scores(query: Reply): Promise<Array<[string, number]>> {
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/t", {
    mappings: { properties: { title: { type: "text" }, body: { type: "text" } } },
  });
  for (const [i, doc] of DOCS.entries()) await call(engine, "PUT", `/t/_doc/${i + 1}`, doc);
  await call(engine, "POST", "/t/_refresh");
  const res = await call(engine, "POST", "/t/_search", { query });
  engine.close();
  return res.hits.hits.map((h: Reply) => [h._id, h._score]);
}

// Expected values: real OpenSearch 3.8.0 on the same five documents in a one-shard index.
Deno.test("cross_fields blends each term's document frequency over its fields", async () => {
  assert.deepEqual(
    await scores({
      multi_match: { query: "fox dog", fields: ["title", "body"], type: "cross_fields" },
    }),
    [["1", 0.68310374], ["5", 0.48830923], ["4", 0.4562791], ["2", 0.45060888], [
      "3",
      0.30799803,
    ]],
  );
});

Deno.test("cross_fields and combined_fields score a repeated term twice", async () => {
  assert.deepEqual(
    await scores({
      multi_match: { query: "fox fox", fields: ["title^2", "body"], type: "cross_fields" },
    }),
    [["3", 0.61599606], ["1", 0.59228665], ["4", 0.3477397]],
  );
  assert.deepEqual(
    await scores({ combined_fields: { query: "dog dog", fields: ["title", "body"] } }),
    [["5", 1.1317847], ["1", 1.0425898], ["2", 0.957104], ["4", 0.6673976]],
  );
});
