// Scores on a three-shard index: each shard's own statistics (query_then_fetch) or the index's
// (dfs_query_then_fetch), ties by shard. Expected values: the answers of Elasticsearch 9.5.4 and
// OpenSearch 3.8.0 to the same index and searches.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const TITLES = [
  "quick fox",
  "lazy dog",
  "fox fox fox",
  "brown fox jumps",
  "quick brown dog",
  "the fox",
  "dog",
  "fox and dog and cat",
  "quick",
  "a fox",
];

async function threeShards(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour, log: () => {} });
  await call(engine, "PUT", "/s", {
    settings: { number_of_shards: 3, number_of_replicas: 0 },
    mappings: { properties: { title: { type: "text" } } },
  });
  const lines = TITLES.flatMap((title, i) => [
    JSON.stringify({ index: { _index: "s", _id: String(i) } }),
    JSON.stringify({ title }),
  ]);
  await call(engine, "POST", "/_bulk?refresh=true", lines.join("\n") + "\n");
  return engine;
}

const six = (n: number) => Number(n.toPrecision(6));

async function scores(engine: Engine, path: string, explain = false) {
  const r = await call(engine, "POST", path, { query: { match: { title: "fox" } }, explain });
  return {
    max: six(r.hits.max_score),
    hits: r.hits.hits.map((h: { _id: string; _score: number; _shard?: string }) =>
      explain ? [h._id, six(h._score), h._shard] : [h._id, six(h._score)]
    ),
  };
}

Deno.test("query_then_fetch: each shard scores with its own statistics", async () => {
  const es = await threeShards("elasticsearch");
  // Elasticsearch 9.5.4.
  assert.deepEqual(await scores(es, "/s/_search", true), {
    max: 0.676196,
    hits: [
      ["2", 0.676196, "[s][0]"],
      ["9", 0.499176, "[s][2]"],
      ["0", 0.492168, "[s][0]"],
      ["5", 0.492168, "[s][0]"],
      ["3", 0.420817, "[s][2]"],
      ["7", 0.325366, "[s][0]"],
    ],
  });
  es.close();
  const os = await threeShards("opensearch");
  // OpenSearch 3.8.0 (its routing over 768 routing shards places the ids elsewhere).
  assert.deepEqual(await scores(os, "/s/_search", true), {
    max: 0.481589,
    hits: [
      ["9", 0.481589, "[s][2]"],
      ["2", 0.2499, "[s][1]"],
      ["0", 0.182485, "[s][1]"],
      ["3", 0.156312, "[s][1]"],
      ["5", 0.100492, "[s][0]"],
      ["7", 0.0705111, "[s][0]"],
    ],
  });
  os.close();
});

Deno.test("dfs_query_then_fetch: the index's statistics, equal scores in shard order", async () => {
  const es = await threeShards("elasticsearch");
  // Elasticsearch 9.5.4: ids 0 and 5 on shard 0, 9 on shard 2.
  assert.deepEqual(await scores(es, "/s/_search?search_type=dfs_query_then_fetch"), {
    max: 0.784681,
    hits: [["2", 0.784681], ["0", 0.564588], ["5", 0.564588], ["9", 0.564588], [
      "3",
      0.47728,
    ], ["7", 0.364537]],
  });
  es.close();
  const os = await threeShards("opensearch");
  // OpenSearch 3.8.0: 5 on shard 0, 0 on shard 1, 9 on shard 2.
  assert.deepEqual(await scores(os, "/s/_search?search_type=dfs_query_then_fetch"), {
    max: 0.356673,
    hits: [["2", 0.356673], ["5", 0.256631], ["0", 0.256631], ["9", 0.256631], [
      "3",
      0.216946,
    ], ["7", 0.165699]],
  });
  os.close();
});

Deno.test("a deleted document still counts in its shard's statistics until merged", async () => {
  for (
    const [flavour, want] of [
      // Elasticsearch 9.5.4 after DELETE /s/_doc/2?refresh=true: shard 0's scores unchanged.
      ["elasticsearch", [["9", 0.499176], ["0", 0.492168], ["5", 0.492168], ["3", 0.420817], [
        "7",
        0.325366,
      ]]],
      // OpenSearch 3.8.0, the same.
      ["opensearch", [["9", 0.481589], ["0", 0.182485], ["3", 0.156312], ["5", 0.100492], [
        "7",
        0.0705111,
      ]]],
    ] as const
  ) {
    const engine = await threeShards(flavour);
    await call(engine, "DELETE", "/s/_doc/2?refresh=true");
    assert.deepEqual((await scores(engine, "/s/_search")).hits, want);
    engine.close();
  }
});

Deno.test("nested objects and their inner hits score with their shard's statistics", async () => {
  const skus = [
    ["s1", "s2"],
    ["s1"],
    ["s2", "s3"],
    ["s1", "s1", "s3"],
    ["s3"],
    ["s1", "s2", "s3"],
    ["s2"],
    ["s1", "s3"],
    ["s2", "s2"],
    ["s1"],
  ];
  for (
    const [flavour, want] of [
      // Elasticsearch 9.5.4: [id, _score, the inner hits' max_score].
      ["elasticsearch", [
        ["0", 1.2321435, 1.2321435],
        ["5", 1.2321435, 1.2321435],
        ["7", 1.2321435, 1.2321435],
        ["3", 0.5753642, 0.2876821],
        ["1", 0.2876821, 0.2876821],
        ["9", 0.2876821, 0.2876821],
      ]],
      // OpenSearch 3.8.0 scores a keyword term as a constant.
      ["opensearch", [
        ["3", 2, 1],
        ["5", 1, 1],
        ["7", 1, 1],
        ["0", 1, 1],
        ["1", 1, 1],
        ["9", 1, 1],
      ]],
    ] as const
  ) {
    const engine = new Engine({ flavour, log: () => {} });
    await call(engine, "PUT", "/n", {
      settings: { number_of_shards: 3, number_of_replicas: 0 },
      mappings: {
        properties: { items: { type: "nested", properties: { sku: { type: "keyword" } } } },
      },
    });
    const lines = skus.flatMap((s, i) => [
      JSON.stringify({ index: { _index: "n", _id: String(i) } }),
      JSON.stringify({ items: s.map((sku) => ({ sku })) }),
    ]);
    await call(engine, "POST", "/_bulk?refresh=true", lines.join("\n") + "\n");
    const r = await call(engine, "POST", "/n/_search", {
      _source: false,
      query: {
        nested: {
          path: "items",
          query: { term: { "items.sku": "s1" } },
          score_mode: "sum",
          inner_hits: { size: 1, _source: false },
        },
      },
    });
    assert.deepEqual(
      r.hits.hits.map((
        h: { _id: string; _score: number; inner_hits: { items: { hits: { max_score: number } } } },
      ) => [h._id, h._score, h.inner_hits.items.hits.max_score]),
      want,
    );
    engine.close();
  }
});

Deno.test("the top-first plan on several shards gives the exhaustive path's hits", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await threeShards(flavour);
    for (const query of [{ match: { title: "fox dog" } }, { match: { title: "quick brown" } }]) {
      const page = (extra: Record<string, unknown>) =>
        call(engine, "POST", "/s/_search", { query, size: 3, ...extra });
      const fast = await page({});
      const full = await page({ track_total_hits: true });
      assert.deepEqual(fast.hits.hits, full.hits.hits);
      assert.equal(fast.hits.max_score, full.hits.max_score);
      assert.deepEqual(fast.hits.total, full.hits.total);
    }
    engine.close();
  }
});
