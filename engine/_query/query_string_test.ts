import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

Deno.test("simple_query_string adds a prefix's fields up over *; query_string takes the best", async () => {
  // Real OpenSearch 3.8.0 over these three documents: simple_query_string `qui*` scores
  // 2, 1, 1 (doc 1 matches in title and body), query_string `qui*` 1, 1, 1.
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/s", {
    mappings: {
      properties: { title: { type: "text" }, body: { type: "text" }, n: { type: "integer" } },
    },
  });
  const docs = [
    { title: "quick fox", body: "quiet dog" },
    { title: "quick", body: "slow" },
    { title: "lazy", body: "quilt", n: 3 },
  ];
  for (const [i, doc] of docs.entries()) await call(engine, "PUT", `/s/_doc/${i + 1}`, doc);
  await call(engine, "POST", "/s/_refresh");
  const scores = async (query: Reply) =>
    (await call(engine, "POST", "/s/_search", { query })).hits.hits.map((
      h: Reply,
    ) => [h._id, h._score]);
  assert.deepEqual(await scores({ simple_query_string: { query: "qui*" } }), [
    ["1", 2],
    ["2", 1],
    ["3", 1],
  ]);
  assert.deepEqual(await scores({ query_string: { query: "qui*" } }), [
    ["1", 1],
    ["2", 1],
    ["3", 1],
  ]);
  engine.close();
});
