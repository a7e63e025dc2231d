import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

Deno.test("match_phrase with slop counts matches as Lucene's sloppy matcher does", async () => {
  // Real OpenSearch 3.8.0 over these four documents, `jumps search` with slop 2. Doc 1 matches
  // twice (search before jumps, and two positions after it): 2 / 3; docs 3 and 4 once at
  // distance 2, doc 2 once exactly.
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/p", { mappings: { properties: { body: { type: "text" } } } });
  const docs = [
    "search jumps over brown search lazy fox",
    "jumps index dog jumps search",
    "stone search jumps shard",
    "jumps quick engine search",
  ];
  for (const [i, body] of docs.entries()) await call(engine, "PUT", `/p/_doc/${i + 1}`, { body });
  await call(engine, "POST", "/p/_refresh");
  const res = await call(engine, "POST", "/p/_search", {
    query: { match_phrase: { body: { query: "jumps search", slop: 2 } } },
  });
  assert.deepEqual(res.hits.hits.map((h: Reply) => [h._id, h._score]), [
    ["2", 0.09578228],
    ["1", 0.06309013],
    ["3", 0.051901728],
    ["4", 0.051901728],
  ]);
  engine.close();
});

Deno.test("minimum_should_match above the optional clauses matches nothing", async () => {
  // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4, one doc titled `visitor token quick`: hits.
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/m/_doc/1?refresh=true", { title: "visitor token quick" });
  const cases: Array<[Reply, number]> = [
    [{ match: { title: { query: "token visitor", operator: "and", minimum_should_match: 1 } } }, 0],
    [{
      match: { title: { query: "token visitor", operator: "and", minimum_should_match: "100%" } },
    }, 1],
    [
      { match: { title: { query: "token visitor", operator: "and", minimum_should_match: "-1" } } },
      1,
    ],
    [{ match: { title: { query: "token", operator: "and", minimum_should_match: 1 } } }, 1],
    [{ match: { title: { query: "token visitor", minimum_should_match: 3 } } }, 0],
    [{ match: { title: { query: "token visitor", minimum_should_match: "150%" } } }, 0],
    [{ match: { title: { query: "token visitor", minimum_should_match: 2 } } }, 1],
    [{
      bool: {
        should: [{ match: { title: "token" } }, { match: { title: "visitor" } }],
        minimum_should_match: 3,
      },
    }, 0],
    [{ multi_match: { query: "token visitor", fields: ["title"], minimum_should_match: 3 } }, 0],
  ];
  for (const [query, hits] of cases) {
    const res = await call(engine, "POST", "/m/_search", { query });
    assert.equal(res.hits.total.value, hits, JSON.stringify(query));
  }
  engine.close();
});
