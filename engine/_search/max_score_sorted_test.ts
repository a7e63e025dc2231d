// `hits.max_score` of a search sorted by `_score` and more. Expected values are the answers of
// real Elasticsearch 9.5.4 and OpenSearch 3.8.0 to the same requests (one document matching a
// `term` query on a keyword; Elasticsearch scores it 0.2876821, OpenSearch as a constant 1.0).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const SORTS: unknown[] = [
  ["_score"],
  [{ _score: "desc" }],
  ["_score", "_doc"],
  ["_score", "n"],
  [{ _score: "asc" }],
];

async function maxScores(flavour: "elasticsearch" | "opensearch"): Promise<unknown[]> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/probe", {
    mappings: { properties: { a: { type: "keyword" }, n: { type: "long" } } },
  });
  await call(engine, "PUT", "/probe/_doc/1?refresh=true", { a: "x", n: 1 });
  const out: unknown[] = [];
  const query = { term: { a: "x" } };
  for (const sort of SORTS) {
    out.push((await call(engine, "POST", "/probe/_search", { query, sort })).hits.max_score);
  }
  const tracked = { query, sort: ["_score", "_doc"], track_scores: true };
  out.push((await call(engine, "POST", "/probe/_search", tracked)).hits.max_score);
  engine.close();
  return out;
}

Deno.test("max_score when sorted: Elasticsearch reports it for a sort by _score alone", async () => {
  const s = 0.2876821;
  const got = await maxScores("elasticsearch");
  assert.deepEqual(got.map((v) => typeof v === "number" ? Math.fround(v) : v), [
    Math.fround(s),
    Math.fround(s),
    null,
    null,
    null,
    Math.fround(s),
  ]);
});

Deno.test("max_score when sorted: OpenSearch reports it when _score comes first", async () => {
  assert.deepEqual(await maxScores("opensearch"), [1, 1, 1, 1, null, 1]);
});
