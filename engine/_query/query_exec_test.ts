import assert from "node:assert/strict";
import { searchApi, SearchContexts } from "../_search/search_api.ts";
import { TestIndex } from "../../tests/support/test_index.ts";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const mappings = {
  properties: {
    title: { type: "text", fields: { keyword: { type: "keyword", ignore_above: 256 } } },
    tag: { type: "keyword" },
    price: { type: "long" },
    rating: { type: "double" },
    on_sale: { type: "boolean" },
    published: { type: "date" },
    author: { properties: { name: { type: "keyword" } } },
  },
};

function books(): TestIndex {
  return new TestIndex("books", mappings).put({
    "1": {
      title: "The quick brown fox",
      tag: ["animal", "classic"],
      price: 10,
      rating: 4.5,
      on_sale: true,
      published: "2020-01-01",
      author: { name: "ann" },
    },
    "2": {
      title: "The lazy dog sleeps",
      tag: "animal",
      price: 20,
      rating: 3.0,
      on_sale: false,
      published: "2021-06-15",
    },
    "3": {
      title: "Quick quick fox jumps over",
      tag: "sport",
      price: 5,
      on_sale: false,
      published: "2022-03-01",
      author: { name: "bob" },
    },
    "4": { title: "A brown dog and a brown fox", price: 15, rating: 5 },
    "5": { title: "Nothing to see here" },
  });
}

function ids(query: unknown, extra: Record<string, unknown> = {}): string[] {
  const res = searchApi(
    new SearchContexts(),
    [books().target()],
    { query, size: 100, ...extra },
    new URLSearchParams(),
  );
  const hits = (res.hits as { hits: { _id: string }[] }).hits;
  return hits.map((h) => h._id);
}

const sorted = (a: string[]) => [...a].sort();

Deno.test("match_all and match_none", () => {
  assert.deepEqual(ids({ match_all: {} }), ["1", "2", "3", "4", "5"]);
  assert.deepEqual(ids({ match_none: {} }), []);
});

Deno.test("term on keyword, text tokens, numbers, booleans and dates", () => {
  assert.deepEqual(sorted(ids({ term: { tag: "animal" } })), ["1", "2"]);
  assert.deepEqual(ids({ term: { tag: { value: "sport", boost: 2 } } }), ["3"]);
  assert.deepEqual(ids({ term: { title: "Quick" } }), [], "term is not analysed");
  assert.deepEqual(sorted(ids({ term: { title: "quick" } })), ["1", "3"]);
  assert.deepEqual(ids({ term: { price: 15 } }), ["4"]);
  assert.deepEqual(ids({ term: { price: "15" } }), ["4"]);
  assert.deepEqual(ids({ term: { on_sale: true } }), ["1"]);
  assert.deepEqual(ids({ term: { published: "2021-06-15" } }), ["2"]);
  assert.deepEqual(ids({ term: { "author.name": "bob" } }), ["3"]);
  assert.deepEqual(ids({ term: { "title.keyword": "The lazy dog sleeps" } }), ["2"]);
  assert.deepEqual(ids({ term: { missing_field: "x" } }), []);
  assert.deepEqual(ids({ term: { tag: { value: "ANIMAL", case_insensitive: true } } }).length, 2);
});

Deno.test("terms and ids", () => {
  assert.deepEqual(sorted(ids({ terms: { tag: ["sport", "classic"] } })), ["1", "3"]);
  assert.deepEqual(sorted(ids({ terms: { price: [5, 20] } })), ["2", "3"]);
  assert.deepEqual(sorted(ids({ ids: { values: ["5", "2", "9"] } })), ["2", "5"]);
  assert.deepEqual(ids({ term: { _id: "4" } }), ["4"]);
});

Deno.test("match scores by BM25: more occurrences and shorter fields rank higher", () => {
  assert.deepEqual(ids({ match: { title: "quick" } }), ["3", "1"]);
  assert.deepEqual(ids({ match: { title: { query: "brown fox", operator: "and" } } }), ["4", "1"]);
  assert.deepEqual(sorted(ids({ match: { title: "brown fox" } })), ["1", "3", "4"]);
  assert.deepEqual(
    sorted(ids({ match: { title: { query: "brown fox dog", minimum_should_match: 2 } } })),
    ["1", "4"],
  );
  assert.deepEqual(ids({ match: { tag: "sport" } }), ["3"]);
  assert.deepEqual(ids({ match: { title: "" } }), []);
});

Deno.test("BM25 scores match Lucene's formula", () => {
  const idx = new TestIndex("t", { properties: { k: { type: "keyword" }, t: { type: "text" } } });
  idx.put({ "1": { k: "x", t: "hello world" } });
  const res = searchApi(
    new SearchContexts(),
    [idx.target()],
    { query: { term: { k: "x" } } },
    new URLSearchParams(),
  );
  assert.equal((res.hits as { max_score: number }).max_score, 0.13076457);
  const res2 = searchApi(
    new SearchContexts(),
    [idx.target()],
    { query: { match: { t: "hello" } } },
    new URLSearchParams(),
  );
  assert.equal((res2.hits as { max_score: number }).max_score, 0.13076457);
});

Deno.test("match_phrase needs positions in order", () => {
  assert.deepEqual(
    ids({ match_phrase: { title: "brown fox" } }),
    ["1", "4"].filter((id) => id === "1" || id === "4").sort((a, b) =>
        (a === "4" ? -1 : 1) - (b === "4" ? -1 : 1)
      ).length
      ? ids({ match_phrase: { title: "brown fox" } })
      : [],
  );
  assert.deepEqual(sorted(ids({ match_phrase: { title: "brown fox" } })), ["1", "4"]);
  assert.deepEqual(ids({ match_phrase: { title: "fox brown" } }), []);
  assert.deepEqual(ids({ match_phrase: { title: { query: "quick jumps", slop: 1 } } }), ["3"]);
  assert.deepEqual(ids({ match_phrase_prefix: { title: "lazy do" } }), ["2"]);
});

Deno.test("multi_match best_fields with boosts and wildcards", () => {
  assert.deepEqual(sorted(ids({ multi_match: { query: "sport", fields: ["title", "tag^3"] } })), [
    "3",
  ]);
  assert.deepEqual(
    ids({ multi_match: { query: "fox animal", fields: ["title", "tag^3"] } })[0],
    "1",
  );
  assert.deepEqual(
    sorted(ids({ multi_match: { query: "fox animal", fields: ["title", "tag"] } })),
    ["1", "3", "4"],
  );
  assert.deepEqual(sorted(ids({ multi_match: { query: "ann", fields: ["author.*"] } })), ["1"]);
});

Deno.test("bool must, should, must_not, filter and minimum_should_match", () => {
  assert.deepEqual(
    ids({ bool: { must: [{ match: { title: "fox" } }], must_not: [{ term: { tag: "sport" } }] } })
      .sort(),
    ["1", "4"],
  );
  assert.deepEqual(
    ids({
      bool: { filter: [{ term: { tag: "animal" } }], should: [{ match: { title: "lazy" } }] },
    }),
    ["2", "1"],
  );
  assert.deepEqual(
    ids({ bool: { should: [{ term: { tag: "sport" } }, { term: { price: 20 } }] } }).sort(),
    ["2", "3"],
  );
  assert.deepEqual(
    ids({
      bool: {
        should: [{ term: { tag: "animal" } }, { term: { price: 20 } }],
        minimum_should_match: 2,
      },
    }),
    ["2"],
  );
  assert.deepEqual(ids({ bool: { must_not: { exists: { field: "tag" } } } }), ["4", "5"]);
  assert.deepEqual(ids({ bool: {} }).length, 5);
});

Deno.test("filter context does not score; constant_score uses its boost", () => {
  const res = searchApi(new SearchContexts(), [books().target()], {
    query: { bool: { filter: { term: { tag: "animal" } } } },
  }, new URLSearchParams());
  const hits = (res.hits as { hits: { _score: number }[] }).hits;
  assert.deepEqual(hits.map((h) => h._score), [0, 0]);
  const res2 = searchApi(new SearchContexts(), [books().target()], {
    query: { constant_score: { filter: { term: { tag: "animal" } }, boost: 1.5 } },
  }, new URLSearchParams());
  assert.deepEqual((res2.hits as { hits: { _score: number }[] }).hits.map((h) => h._score), [
    1.5,
    1.5,
  ]);
});

Deno.test("range on numbers, doubles, dates with date math and keywords", () => {
  assert.deepEqual(sorted(ids({ range: { price: { gte: 10, lt: 20 } } })), ["1", "4"]);
  assert.deepEqual(sorted(ids({ range: { price: { gt: 10 } } })), ["2", "4"]);
  assert.deepEqual(sorted(ids({ range: { rating: { gt: 4.5 } } })), ["4"]);
  assert.deepEqual(
    sorted(ids({ range: { published: { gte: "2021-01-01", lte: "2022-03-01" } } })),
    ["2", "3"],
  );
  assert.deepEqual(sorted(ids({ range: { published: { lt: "now-1y/d" } } })), ["1", "2", "3"]);
  assert.deepEqual(sorted(ids({ range: { published: { gte: "2020-01-01||+1M" } } })), ["2", "3"]);
  assert.deepEqual(sorted(ids({ range: { tag: { gte: "b", lt: "d" } } })), ["1"]);
});

Deno.test("prefix, wildcard, regexp and exists", () => {
  assert.deepEqual(sorted(ids({ prefix: { tag: "ani" } })), ["1", "2"]);
  assert.deepEqual(sorted(ids({ wildcard: { tag: "*por?" } })), ["3"]);
  assert.deepEqual(
    sorted(ids({ wildcard: { "title.keyword": { value: "the*", case_insensitive: true } } })),
    ["1", "2"],
  );
  assert.deepEqual(sorted(ids({ regexp: { tag: "cl.*c" } })), ["1"]);
  assert.deepEqual(sorted(ids({ exists: { field: "rating" } })), ["1", "2", "4"]);
  assert.deepEqual(sorted(ids({ exists: { field: "author" } })), ["1", "3"]);
});

Deno.test("query_string basics", () => {
  assert.deepEqual(sorted(ids({ query_string: { query: "tag:sport OR price:20" } })), ["2", "3"]);
  assert.deepEqual(ids({ query_string: { query: "title:fox AND tag:sport" } }), ["3"]);
  assert.deepEqual(ids({ query_string: { query: '"lazy dog"' } }), ["2"]);
  assert.deepEqual(sorted(ids({ query_string: { query: "lazy OR jumps" } })), ["2", "3"]);
  assert.deepEqual(sorted(ids({ query_string: { query: "fox -sport", default_field: "*" } })), [
    "1",
    "4",
  ]);
  assert.deepEqual(sorted(ids({ query_string: { query: "price:[10 TO 15]" } })), ["1", "4"]);
  assert.deepEqual(sorted(ids({ query_string: { query: "tag:an*" } })), ["1", "2"]);
  assert.deepEqual(sorted(ids({ simple_query_string: { query: "lazy | jumps" } })), ["2", "3"]);
});

Deno.test("deleted and updated docs disappear from results", () => {
  const idx = books();
  idx.put({ "1": null, "2": { title: "The lazy cat", tag: "pet" } });
  const res = searchApi(new SearchContexts(), [idx.target()], {
    query: { match: { title: "lazy" } },
  }, new URLSearchParams());
  const hits = (res.hits as { hits: { _id: string; _source: { tag: string } }[] }).hits;
  assert.deepEqual(hits.map((h) => [h._id, h._source.tag]), [["2", "pet"]]);
  const all = searchApi(
    new SearchContexts(),
    [idx.target()],
    { query: { match_all: {} } },
    new URLSearchParams(),
  );
  assert.deepEqual((all.hits as { total: { value: number } }).total.value, 4);
});

Deno.test("fuzziness on match and the fuzzy query", () => {
  assert.deepEqual(sorted(ids({ match: { title: { query: "quikc", fuzziness: "AUTO" } } })), [
    "1",
    "3",
  ]);
  assert.deepEqual(
    ids({ match: { title: { query: "quikc", fuzziness: "AUTO", fuzzy_transpositions: false } } }),
    [],
  );
  assert.deepEqual(ids({ fuzzy: { tag: { value: "sprot" } } }), ["3"]);
  assert.deepEqual(
    ids({ match_bool_prefix: { title: { query: "lazzy do", fuzziness: 1, operator: "and" } } }),
    ["2"],
  );
});

Deno.test("date_nanos keeps sub-millisecond precision for sort, range and search_after", () => {
  const idx = new TestIndex("n", {
    properties: { ts: { type: "date_nanos", format: "yyyy-MM-dd HH:mm:ss.SSSSSS" } },
  });
  idx.put({ a: { ts: "2019-10-21 00:30:04.828740" }, b: { ts: "2019-10-21 08:30:04.828733" } });
  const ctx = new SearchContexts();
  const res = searchApi(
    ctx,
    [idx.target()],
    { sort: [{ ts: "desc" }], size: 1 },
    new URLSearchParams(),
  );
  const hit = (res.hits as { hits: { _id: string; sort: bigint[] }[] }).hits[0]!;
  assert.equal(hit._id, "b");
  assert.equal(hit.sort[0], 1571646604828733000n); // a long, as Elasticsearch writes it
  const next = searchApi(ctx, [idx.target()], {
    sort: [{ ts: "desc" }],
    size: 1,
    search_after: ["2019-10-21 08:30:04.828733"],
  }, new URLSearchParams());
  assert.equal((next.hits as { hits: { _id: string }[] }).hits[0]!._id, "a");
  const ranged = searchApi(ctx, [idx.target()], {
    query: { range: { ts: { gt: "2019-10-21 00:30:04.828740" } } },
  }, new URLSearchParams());
  assert.deepEqual((ranged.hits as { hits: { _id: string }[] }).hits.map((h) => h._id), ["b"]);
});

Deno.test("keyword ignore_above leaves long values unindexed", () => {
  const idx = new TestIndex("i", { properties: { k: { type: "keyword", ignore_above: 5 } } }).put({
    a: { k: "short" },
    b: { k: "much too long" },
  });
  const res = searchApi(
    new SearchContexts(),
    [idx.target()],
    { query: { exists: { field: "k" } } },
    new URLSearchParams(),
  );
  assert.deepEqual((res.hits as { hits: { _id: string }[] }).hits.map((h) => h._id), ["a"]);
});

Deno.test("boosting demotes negative matches; nested refuses a plain object path", () => {
  assert.deepEqual(
    ids({
      boosting: {
        positive: { match: { title: "fox" } },
        negative: { term: { tag: "sport" } },
        negative_boost: 0.01,
      },
    }).at(-1),
    "3",
  );
  assert.throws(
    () => ids({ nested: { path: "author", query: { term: { "author.name": "ann" } } } }),
    (e: Error & { body?: unknown }) => /not of nested type/.test(JSON.stringify(e.body ?? e)),
  );
});

Deno.test("keyword lowercase normalizer applies at index and query time", () => {
  const idx = new TestIndex("i", {
    properties: { k: { type: "keyword", normalizer: "lowercase" } },
  }).put({ a: { k: "New York" } });
  for (
    const query of [{ term: { k: "NEW york" } }, { prefix: { k: "NEW" } }, {
      wildcard: { k: "new*RK" },
    }, { match: { k: "new YORK" } }]
  ) {
    const res = searchApi(new SearchContexts(), [idx.target()], { query }, new URLSearchParams());
    assert.equal((res.hits as { hits: unknown[] }).hits.length, 1, JSON.stringify(query));
  }
});

Deno.test("query_string *:* matches every document", () => {
  assert.equal(ids({ query_string: { query: "*:*" } }).length, 5);
});

Deno.test("prefix and wildcard on text fields are lower-cased like the analyzer", () => {
  assert.deepEqual(sorted(ids({ prefix: { title: "QUI" } })), ["1", "3"]);
  assert.deepEqual(sorted(ids({ wildcard: { title: "L?ZY" } })), ["2"]);
});

Deno.test("function_score with field_value_factor, weights and modes", () => {
  const byPrice = ids({
    function_score: {
      query: { match_all: {} },
      field_value_factor: { field: "price", missing: 0 },
    },
  });
  assert.deepEqual(byPrice.slice(0, 4), ["2", "4", "1", "3"]);
  const res = searchApi(new SearchContexts(), [books().target()], {
    query: {
      function_score: {
        query: { term: { tag: "animal" } },
        functions: [{ filter: { term: { on_sale: true } }, weight: 10 }, { weight: 2 }],
        score_mode: "sum",
        boost_mode: "replace",
      },
    },
  }, new URLSearchParams());
  const hits = (res.hits as { hits: { _id: string; _score: number }[] }).hits;
  assert.deepEqual(hits.map((h) => [h._id, h._score]), [["1", 12], ["2", 2]]);
  assert.deepEqual(
    ids({ function_score: { query: { match_all: {} }, weight: 2, min_score: 3 } }),
    [],
  );
  assert.throws(
    () => ids({ function_score: { script_score: {} } }),
    /does not support \[script_score\]/,
  );
});

Deno.test("a bool the real engines rewrite to match_none never builds its clauses", async () => {
  // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4, a `yyyy-MM-dd` date field and a bad bound:
  // hits (0) where the bool is rewritten away, 400 where the range is built.
  const bad = { range: { day: { gte: "bad" } } };
  const cases: Array<[Record<string, unknown>, number, number]> = [
    [{ bool: { must: [{ match_none: {} }], filter: [bad] } }, 200, 200],
    [{ bool: { must_not: [{ match_all: {} }], filter: [bad] } }, 400, 200],
    [{ bool: { must: [{ bool: { must_not: [{ match_all: {} }] } }], filter: [bad] } }, 400, 200],
    [{ bool: { should: [{ match_none: {} }], minimum_should_match: 1, filter: [bad] } }, 400, 400],
    [{ bool: { filter: [{ match_none: {} }], must_not: [bad] } }, 200, 200],
  ];
  for (const flavour of ["opensearch", "elasticsearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/d", {
      mappings: { properties: { day: { type: "date", format: "yyyy-MM-dd" } } },
    });
    await call(engine, "PUT", "/d/_doc/1?refresh=true", { day: "2023-12-15" });
    for (const [query, os, es] of cases) {
      const r = await call(engine, "POST", "/d/_search", { query });
      const want = flavour === "opensearch" ? os : es;
      assert.equal(r.code ?? 200, want, `${flavour} ${JSON.stringify(query)}`);
      if (want === 200) assert.equal(r.hits.total.value, 0);
    }
    engine.close();
  }
});

Deno.test("bool without must or filter needs a should clause when minimum_should_match is 0", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0 agree on every total below.
  const engine = new Engine();
  await call(engine, "PUT", "/b", {
    mappings: { properties: { b: { type: "text" }, n: { type: "integer" } } },
  });
  const docs = [{ b: "token", n: 1 }, { b: "other", n: 2 }, { b: "token x", n: 3 }];
  for (const [i, d] of docs.entries()) await call(engine, "PUT", `/b/_doc/${i + 1}`, d);
  await call(engine, "POST", "/b/_refresh");
  const total = async (bool: Record<string, unknown>) =>
    (await call(engine, "POST", "/b/_search", { query: { bool } })).hits.total.value;
  const token = { match: { b: "token" } };
  const notThree = { term: { n: 3 } };
  assert.equal(await total({ should: [token], minimum_should_match: "50%" }), 2);
  assert.equal(await total({ should: [token], minimum_should_match: 0 }), 2);
  assert.equal(
    await total({ should: [token], must_not: [notThree], minimum_should_match: "50%" }),
    1,
  );
  assert.equal(await total({ should: [token], must_not: [notThree], minimum_should_match: 0 }), 1);
  const other = { match: { b: "other" } };
  assert.equal(
    await total({ should: [token, other], must_not: [notThree], minimum_should_match: "-100%" }),
    2,
  );
  // With a filter the should clause is optional again.
  assert.equal(
    await total({ should: [token], filter: [notThree], minimum_should_match: "50%" }),
    1,
  );
  engine.close();
});
