// Randomised check: after many refreshes, updates, deletes and merges, queries answer exactly what
// a brute-force scan of the live sources answers.
import assert from "node:assert/strict";
import { countApi, findMatches } from "./matches_api.ts";
import { searchApi, SearchContexts } from "./search_api.ts";
import { TestIndex } from "../../tests/support/test_index.ts";

function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

const WORDS = ["alpha", "beta", "gamma", "delta", "eps"];
const mappings = {
  properties: { t: { type: "text" }, k: { type: "keyword" }, n: { type: "long" } },
};

Deno.test("queries agree with a scan of live sources across segments, updates and deletes", () => {
  const r = rng(7);
  const idx = new TestIndex("c", mappings);
  const live = new Map<string, { t: string; k: string; n: number }>();
  for (let round = 0; round < 60; round++) {
    const batch: Record<string, Record<string, unknown> | null> = {};
    for (let i = 0; i < 1 + Math.floor(r() * 20); i++) {
      const id = String(Math.floor(r() * 150));
      if (r() < 0.2) {
        batch[id] = null;
        live.delete(id);
      } else {
        const src = {
          t: Array.from(
            { length: 1 + Math.floor(r() * 4) },
            () => WORDS[Math.floor(r() * WORDS.length)],
          ).join(" "),
          k: WORDS[Math.floor(r() * WORDS.length)]!,
          n: Math.floor(r() * 100),
        };
        batch[id] = src;
        live.set(id, src);
      }
    }
    idx.put(batch);
    const target = idx.target();
    const cases: Array<[unknown, (s: { t: string; k: string; n: number }) => boolean]> = [
      [{ term: { k: "beta" } }, (s) => s.k === "beta"],
      [{ range: { n: { gte: 20, lt: 60 } } }, (s) => s.n >= 20 && s.n < 60],
      [{ match: { t: "gamma delta" } }, (s) => /\b(gamma|delta)\b/.test(s.t)],
      [
        { match: { t: { query: "gamma delta", operator: "and" } } },
        (s) => s.t.includes("gamma") && s.t.includes("delta"),
      ],
      [{ match_phrase: { t: "alpha beta" } }, (s) => / ?alpha beta\b/.test(` ${s.t}`)],
      [
        { bool: { must_not: { term: { k: "eps" } }, filter: { range: { n: { lt: 50 } } } } },
        (s) => s.k !== "eps" && s.n < 50,
      ],
    ];
    for (const [query, pred] of cases) {
      const want = [...live].filter(([, s]) => pred(s)).map(([id]) => id).sort();
      const got = findMatches([target], query).map((m) => m.doc.id).sort();
      assert.deepEqual(got, want, `round ${round}: ${JSON.stringify(query)}`);
      assert.equal(countApi([target], { query }, new URLSearchParams()).count, want.length);
    }
    const res = searchApi(new SearchContexts(), [target], {
      size: 1000,
      sort: [{ n: "asc" }, "_doc"],
    }, new URLSearchParams());
    const ns = (res.hits as { hits: { _source: { n: number } }[] }).hits.map((h) => h._source.n);
    assert.deepEqual(ns, [...live.values()].map((s) => s.n).sort((a, b) => a - b));
    assert.equal(idx.shard.docCount, live.size);
  }
  assert.ok(idx.shard.snapshot().views.length <= 12);
});

Deno.test("scores do not depend on how documents were split into segments", () => {
  const r = rng(11);
  const docs: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < 80; i++) {
    docs[String(i)] = {
      t: Array.from(
        { length: 1 + Math.floor(r() * 6) },
        () => WORDS[Math.floor(r() * WORDS.length)],
      ).join(" "),
    };
  }
  const one = new TestIndex("a", mappings).put(docs);
  const many = new TestIndex("b", mappings);
  for (const [id, src] of Object.entries(docs)) many.put({ [id]: src });
  const body = { query: { match: { t: "alpha eps" } }, size: 100 };
  const scores = (idx: TestIndex) => {
    const res = searchApi(new SearchContexts(), [idx.target()], body, new URLSearchParams());
    return (res.hits as { hits: { _id: string; _score: number }[] }).hits.map((h) =>
      `${h._id}:${h._score}`
    ).sort();
  };
  assert.ok(many.shard.snapshot().views.length > 1);
  assert.deepEqual(scores(many), scores(one));
});

Deno.test("a term missing from a later segment adds nothing there (scores by segment order)", () => {
  const docs: Record<string, Record<string, unknown>> = {
    a: { t: "alpha" },
    b: { t: "eps eps beta" },
    c: { t: "alpha eps gamma delta" },
    d: { t: "beta" },
  };
  const body = { query: { match: { t: "alpha eps" } } };
  const scores = (idx: TestIndex) =>
    (searchApi(new SearchContexts(), [idx.target()], body, new URLSearchParams()).hits as {
      hits: { _id: string; _score: number }[];
    }).hits.map((h) => `${h._id}:${h._score}`).sort();
  const want = scores(new TestIndex("one", mappings).put(docs));
  for (const order of [["a", "b", "c", "d"], ["d", "c", "b", "a"], ["c", "a", "d", "b"]]) {
    const many = new TestIndex("many", mappings);
    for (const id of order) many.put({ [id]: docs[id]! });
    assert.equal(many.shard.snapshot().views.length, 4);
    assert.deepEqual(scores(many), want, order.join(""));
  }
});
