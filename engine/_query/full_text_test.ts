import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";
import { phraseFreq } from "./full_text.ts";

Deno.test("cross_fields scores each field with the blended document frequency", async () => {
  // OpenSearch's search/50_multi_match.yml documents; the scores are the answers of
  // Elasticsearch 9.5.4 and OpenSearch 3.8.0 (shape:red holds in one document of one, so the
  // blend caps color's frequency at shape's total term frequency, 2).
  const docs = [
    { color: "orange red yellow" },
    { color: "orange red purple", shape: "red square" },
    { color: "orange red yellow purple" },
  ];
  for (
    const [flavour, want] of [
      ["elasticsearch", [["2", 28.817213], ["1", 0.49005115], ["3", 0.43445712]]],
      ["opensearch", [["2", 13.098733], ["1", 0.22275053], ["3", 0.1974805]]],
    ] as const
  ) {
    const engine = new Engine({ flavour, log: () => {} });
    for (let i = 0; i < docs.length; i++) await call(engine, "PUT", `/test/_doc/${i + 1}`, docs[i]);
    await call(engine, "POST", "/test/_refresh");
    const r = await call(engine, "POST", "/test/_search", {
      query: {
        multi_match: {
          query: "red",
          type: "cross_fields",
          fields: ["color", "shape^100"],
          tie_breaker: 0.1,
        },
      },
    });
    assert.deepEqual(
      r.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]),
      want,
    );
    engine.close();
  }
});

Deno.test("sloppy phrases count every stop within the slop; a repeated term needs two places", async () => {
  const docs = [
    "search jumps over brown search lazy fox",
    "jumps quick engine search token",
    "quick fox",
    "quick brown quick dog",
  ];
  for (
    const [flavour, sloppy, repeated] of [
      // Elasticsearch 9.5.4: doc 1 holds "jumps search" twice within 2 (before and after).
      ["elasticsearch", [["1", 0.859112], ["2", 0.6224179]], [["4", 0.4904281]]],
      ["opensearch", [["1", 0.39050543], ["2", 0.28291726]], [["4", 0.22292185]]],
    ] as const
  ) {
    const engine = new Engine({ flavour, log: () => {} });
    const lines = docs.flatMap((b, i) => [
      JSON.stringify({ index: { _index: "p", _id: String(i + 1) } }),
      JSON.stringify({ b }),
    ]);
    await call(engine, "POST", "/_bulk?refresh=true", lines.join("\n") + "\n");
    const hits = async (query: string, slop: number) =>
      (await call(engine, "POST", "/p/_search", {
        query: { match_phrase: { b: { query, slop } } },
      }))
        .hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]);
    assert.deepEqual(await hits("jumps search", 2), sloppy);
    // "quick fox" holds one quick: no phrase of two.
    assert.deepEqual(await hits("quick quick", 1), repeated);
    engine.close();
  }
});

Deno.test("a sloppy phrase that repeats a term takes the nearest occurrences not yet taken", () => {
  // "a b a b a b a b a b": the phrase "b a a a a b" needs four distinct a's and two b's. Both
  // real engines (Elasticsearch 9.5.4, OpenSearch 3.8.0) match it with slop 10; taking only the
  // two occurrences beside the wanted position ran out of a's and matched nothing.
  const a = Int32Array.of(0, 2, 4, 6, 8);
  const b = Int32Array.of(1, 3, 5, 7, 9);
  assert.ok(phraseFreq([b, a, a, a, a, b], 10) > 0);
  assert.equal(phraseFreq([b, a, a, a, a, b], 0), 0);
  // Five a's cannot fill six places, however large the slop.
  assert.equal(phraseFreq([a, a, a, a, a, a], 100), 0);
});

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
