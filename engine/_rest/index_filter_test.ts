import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

// Every expected list below is what Elasticsearch 9.5.4 and OpenSearch 3.8.0 answered on the
// same indices (2026-12-02): the filter is rewritten per shard, never run.
async function setup(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/fd1", {
    mappings: { properties: { d: { type: "date" }, n: { type: "long" }, t: { type: "keyword" } } },
  });
  await call(engine, "PUT", "/fd2", { mappings: { properties: { d: { type: "date" } } } });
  await call(engine, "PUT", "/fd1/_doc/1?refresh=true", { d: "2020-01-01", n: 5, t: "a" });
  return engine;
}

async function kept(engine: Engine, filter: unknown): Promise<string[]> {
  const caps = await call(engine, "POST", "/fd1,fd2/_field_caps?fields=d", {
    index_filter: filter,
  });
  assert.equal(caps.code, 200, JSON.stringify(caps));
  return caps.indices;
}

const BOTH: [unknown, string[]][] = [
  [{ match_all: {} }, ["fd1", "fd2"]],
  [{ match_none: {} }, []],
  [{ term: { n: 6 } }, ["fd1"]], // no document holds 6: kept all the same
  [{ range: { n: { gte: 10 } } }, ["fd1"]], // numeric ranges are not rewritten
  [{ exists: { field: "n" } }, ["fd1"]],
  [{ fuzzy: { zz: "a" } }, []],
  [{ match: { zz: "a" } }, ["fd1", "fd2"]], // full-text queries are kept
  [{ regexp: { zz: "a" } }, ["fd1", "fd2"]],
  [{ query_string: { query: "zz:1" } }, ["fd1", "fd2"]],
  [{ nested: { path: "zz", query: { match_all: {} } } }, ["fd1", "fd2"]],
  [{ range: { d: { gte: "2021-01-01" } } }, []],
  [{ range: { d: { lte: "2021-01-01" } } }, ["fd1"]], // fd2 has no dates
  [{ range: { d: { gt: "2020-01-01" } } }, []],
  [{ range: { d: { gte: "2019-01-01", lte: "2019-12-31" } } }, []],
  [{ bool: { should: [{ term: { zz: 1 } }, { term: { yy: 1 } }] } }, []],
  [{ bool: { should: [{ term: { zz: 1 } }, { term: { d: "2020-01-01" } }] } }, ["fd1", "fd2"]],
  [{ bool: { filter: [{ term: { zz: 1 } }], should: [{ term: { d: "2020-01-01" } }] } }, []],
  [{ constant_score: { filter: { term: { zz: 1 } } } }, []],
  [{ dis_max: { queries: [{ term: { zz: 1 } }] } }, ["fd1", "fd2"]],
  [{
    boosting: { positive: { term: { zz: 1 } }, negative: { match_all: {} }, negative_boost: 0.5 },
  }, []],
  [{ function_score: { query: { term: { zz: 1 } } } }, []],
  [{ terms: { _index: ["fd2", "x"] } }, ["fd2"]],
  [{ prefix: { _index: "fd1" } }, ["fd1"]],
  [{ wildcard: { _index: "*2" } }, ["fd2"]],
  [{ term: { _index: "fd*" } }, ["fd1", "fd2"]],
];

Deno.test("index_filter: the indices the real engines keep", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await setup(flavour);
    for (const [filter, expected] of BOTH) {
      assert.deepEqual(
        await kept(engine, filter),
        expected,
        `${flavour} ${JSON.stringify(filter)}`,
      );
    }
    engine.close();
  }
});

Deno.test("index_filter: a must_not of match_all drops the index on Elasticsearch only", async () => {
  const filter = { bool: { must_not: [{ match_all: {} }] } };
  const es = await setup("elasticsearch");
  assert.deepEqual(await kept(es, filter), []);
  es.close();
  const os = await setup("opensearch");
  assert.deepEqual(await kept(os, filter), ["fd1", "fd2"]);
  os.close();
});
