import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("_explain with q: the id still picks the document (404 when it does not exist)", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/t", { mappings: { properties: { title: { type: "text" } } } });
  await call(engine, "PUT", "/t/_doc/1", { title: "time clocks" });
  await call(engine, "PUT", "/t/_doc/2?refresh=true", { title: "other" });
  const hit = await call(engine, "GET", "/t/_explain/1?q=title:time");
  assert.equal(hit.code, 200);
  assert.equal(hit.matched, true);
  assert.ok(hit.explanation.value > 0);
  const other = await call(engine, "GET", "/t/_explain/2?q=title:time");
  assert.deepEqual([other.code, other.matched], [200, false]);
  const missing = await call(engine, "GET", "/t/_explain/3?q=title:time");
  assert.deepEqual(missing, { _index: "t", _id: "3", matched: false, code: 404 });
  engine.close();
});

Deno.test("explain: a query the shard cannot build fails as its query_shard_exception", async () => {
  // Real Elasticsearch 9.5.4: a date range mixing epoch millis and text fails with the shard's
  // own exception, not the search's all-shards-failed wrapper.
  const engine = new Engine();
  await call(engine, "PUT", "/d", { mappings: { properties: { when: { type: "date" } } } });
  await call(engine, "PUT", "/d/_doc/1?refresh=true", { when: "2020-01-01T00:00:00Z" });
  const r = await call(engine, "POST", "/d/_explain/1", {
    query: { range: { when: { gte: 946684800000, lt: "2024-01-01T00:00:00Z" } } },
  });
  const why = "failed to parse date field [2024-01-01T00:00:00Z] with format [epoch_millis]";
  assert.equal(r.code, 400);
  const error = r.error as Record<string, unknown>;
  assert.equal(error.type, "query_shard_exception");
  assert.equal(error.reason, `failed to create query: ${why}: [${why}]`);
  assert.equal(error.index, "d");
  assert.equal(typeof error.index_uuid, "string");
  const cause = error.caused_by as { type: string; caused_by: { type: string } };
  assert.deepEqual([cause.type, cause.caused_by.type], [
    "parse_exception",
    "illegal_argument_exception",
  ]);
  assert.equal(error.phase, undefined);
  engine.close();
});

Deno.test("_explain: a must conjunction inside a must is inlined, as Lucene rewrites it", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0, one shard: a fuzzy `and` match is a
  // conjunction beside the nested-docs filter; its clauses sit at the top level.
  for (
    const [flavour, brown] of [["elasticsearch", 0.18232156], ["opensearch", 0.082873434]] as const
  ) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/f", {
      settings: { number_of_shards: 1 },
      mappings: { properties: { body: { type: "text" }, items: { type: "nested" } } },
    });
    await call(engine, "PUT", "/f/_doc/1", { body: "brown dog" });
    await call(engine, "PUT", "/f/_doc/2?refresh=true", { body: "brown over" });
    const r = await call(engine, "POST", "/f/_explain/1", {
      query: { match: { body: { query: "brown over", operator: "AND", fuzziness: "AUTO" } } },
    });
    assert.equal(
      r.explanation.description,
      "Failure to meet condition(s) of required/prohibited clause(s)",
    );
    assert.deepEqual(
      r.explanation.details.map((d: { value: number; description: string }) => [
        d.value,
        d.description,
      ]),
      [
        [brown, "weight(body:brown in 0) [PerFieldSimilarity], result of:"],
        [0, "no match on required clause (body:over)"],
        [0, "match on required clause, product of:"],
      ],
    );
    const nested = await call(engine, "POST", "/f/_explain/2", {
      query: {
        bool: {
          must: [
            { bool: { must: [{ match: { body: "brown" } }, { match: { body: "over" } }] } },
            { match: { body: "dog" } },
          ],
        },
      },
    });
    assert.deepEqual(
      nested.explanation.details.map((d: { description: string }) => d.description),
      [
        "weight(body:brown in 1) [PerFieldSimilarity], result of:",
        "weight(body:over in 1) [PerFieldSimilarity], result of:",
        "no match on required clause (body:dog)",
      ],
    );
    engine.close();
  }
});
