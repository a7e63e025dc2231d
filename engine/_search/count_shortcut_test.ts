import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const MAX = { a: { max: { field: "when" } } };

/** `terminated_early` of each body, as real OpenSearch 3.8.0 answered on the same index. */
async function answers(engine: Engine, bodies: unknown[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const body of bodies) {
    out.push((await call(engine, "POST", "/e3t/_search", body)).terminated_early);
  }
  return out;
}

Deno.test("OpenSearch: terminated_early when a count of no hits with aggregations stops early", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/e3t", {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: { properties: { when: { type: "date" }, tag: { type: "keyword" } } },
  });
  await call(engine, "PUT", "/e3t/_doc/1", { when: "2020-05-01", tag: "a" });
  await call(engine, "PUT", "/e3t/_doc/2?refresh=true", { when: "2021-05-01", tag: "b" });
  const range = { range: { when: { gte: "2020" } } };
  // Real OpenSearch 3.8.0, one shard, two documents, no deletions: true where the total is known
  // without counting (match_all, one term, a bool of one clause, a range every document falls in),
  // not tracked, or passed; absent for a date term, a terms query, a search without aggregations
  // or asking for hits, and with a post_filter.
  assert.deepEqual(
    await answers(engine, [
      { size: 0, aggs: MAX },
      { size: 0, query: { term: { tag: "a" } }, aggs: MAX },
      { size: 0, query: { term: { when: "2020-05-01" } }, aggs: MAX },
      { size: 0, query: range, aggs: MAX },
      { size: 0, query: { range: { when: { gte: "2021" } } }, aggs: MAX, track_total_hits: 2 },
      { size: 0, query: { range: { when: { gte: "2021" } } }, aggs: MAX, track_total_hits: false },
      { size: 0 },
      { size: 1, aggs: MAX },
      { size: 0, aggs: MAX, post_filter: { term: { tag: "a" } } },
      { size: 0, query: { bool: { must: [{ term: { tag: "a" } }] } }, aggs: MAX },
      { size: 0, query: { bool: { should: [{ term: { tag: "a" } }] } }, aggs: MAX },
      { size: 0, query: { match: { tag: "a" } }, aggs: MAX },
      { size: 0, query: { terms: { tag: ["a"] } }, aggs: MAX },
    ]),
    [
      true,
      true,
      undefined,
      true,
      undefined,
      true,
      undefined,
      undefined,
      undefined,
      true,
      true,
      true,
      undefined,
    ],
  );
  // After a deletion a term's count is no longer known; match_all's still is.
  await call(engine, "DELETE", "/e3t/_doc/2?refresh=true");
  assert.deepEqual(
    await answers(engine, [{ size: 0, query: { term: { tag: "a" } }, aggs: MAX }, {
      size: 0,
      aggs: MAX,
    }]),
    [undefined, true],
  );
  engine.close();
});

Deno.test("OpenSearch: nested documents make match_all a filtered query; Elasticsearch never says", async () => {
  // Real OpenSearch 3.8.0 on an index with a nested field: match_all with aggregations → absent,
  // a term on a root field → true. Real Elasticsearch 9.5.4: absent for both.
  for (const flavour of ["opensearch", "elasticsearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/e3t", {
      mappings: { properties: { tag: { type: "keyword" }, items: { type: "nested" } } },
    });
    await call(engine, "PUT", "/e3t/_doc/1?refresh=true", { tag: "a", items: [{ q: 1 }] });
    const aggs = { n: { value_count: { field: "tag" } } };
    assert.deepEqual(
      await answers(engine, [{ size: 0, aggs }, { size: 0, query: { term: { tag: "a" } }, aggs }]),
      flavour === "opensearch" ? [undefined, true] : [undefined, undefined],
    );
    engine.close();
  }
});

Deno.test("OpenSearch: a match of one term repeated counts as the term", async () => {
  // Real OpenSearch 3.8.0, one shard, three documents: true for `dog dog` (with `and` and a
  // minimum_should_match too) as for `dog`, absent for two terms and for the phrase.
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/e3t", {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: { properties: { body: { type: "text" }, n: { type: "integer" } } },
  });
  await call(engine, "PUT", "/e3t/_doc/1", { body: "dog cat", n: 1 });
  await call(engine, "PUT", "/e3t/_doc/2", { body: "dog", n: 2 });
  await call(engine, "PUT", "/e3t/_doc/3?refresh=true", { body: "bird", n: 3 });
  const aggs = { m: { max: { field: "n" } } };
  const queries = [
    { match: { body: "dog dog" } },
    { match: { body: "dog cat" } },
    { match: { body: { query: "dog dog", operator: "and" } } },
    { match: { body: { query: "dog dog", minimum_should_match: 2 } } },
    { match: { body: "dog" } },
    { match_phrase: { body: "dog dog" } },
  ];
  assert.deepEqual(
    await answers(engine, queries.map((query) => ({ size: 0, query, aggs }))),
    [true, undefined, true, true, true, undefined],
  );
  engine.close();
});
