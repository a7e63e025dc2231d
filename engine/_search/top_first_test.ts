// Property: a `match` or a `bool` of `term` shoulds answered top k first (MaxScore, `_query/max_score.ts`) returns the same
// hits, order, scores, max_score and hits.total as the exhaustive path (forced here by
// `track_total_hits: true`), over random corpora split into segments, with deletes, from/size
// windows and requests that must fall back (min_score, post_filter, aggregations, and, msm, other
// clauses).
import assert from "node:assert/strict";
import { searchApi, SearchContexts } from "./search_api.ts";
import { TestIndex } from "../../tests/support/test_index.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { topFirstPlan } from "../_query/top_first_plan.ts";
import { execContextOf } from "../_query/exec_context.ts";

function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

const WORDS = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9"];
const mappings = {
  properties: { t: { type: "text" }, u: { type: "text" }, k: { type: "keyword" } },
};

// deno-lint-ignore no-explicit-any
type Reply = Record<string, any>;

function word(r: () => number): string {
  // Skewed: early words are common, late ones rare, so bounds differ and pruning starts.
  return WORDS[Math.floor(WORDS.length * r() * r())]!;
}

function expectedTotal(exact: number, track: unknown): unknown {
  if (track === false) return undefined;
  const limit = typeof track === "number" ? track : 10000;
  return exact <= limit ? { value: exact, relation: "eq" } : { value: limit, relation: "gte" };
}

/**
 * Runs `body` as asked and with `track_total_hits: true` (the exhaustive path): the same hits,
 * scores, max_score and aggregations, and the total the threshold allows. Returns the first.
 */
function bothPathsAgree(target: SearchTarget, body: Record<string, unknown>, where: string): Reply {
  const fast: Reply = searchApi(new SearchContexts(), [target], body, new URLSearchParams());
  const full: Reply = searchApi(
    new SearchContexts(),
    [target],
    { ...body, track_total_hits: true },
    new URLSearchParams(),
  );
  const why = `${where}: ${JSON.stringify(body)}`;
  const rows = (res: Reply) => res.hits.hits.map((h: Reply) => [h._id, h._score]);
  assert.deepEqual(rows(fast), rows(full), why);
  assert.equal(fast.hits.max_score, full.hits.max_score, why);
  assert.deepEqual(
    fast.hits.total,
    expectedTotal(full.hits.total.value, body.track_total_hits),
    why,
  );
  assert.deepEqual(fast.aggregations, full.aggregations, why);
  return fast;
}

/** A random corpus in 1–4 segments, with deletes and overwrites. */
function randomTarget(r: () => number): SearchTarget {
  const idx = new TestIndex("p", mappings);
  const ids: string[] = [];
  const segments = 1 + Math.floor(r() * 4);
  for (let s = 0; s < segments; s++) {
    const batch: Record<string, Record<string, unknown> | null> = {};
    const size = 50 + Math.floor(r() * 400);
    for (let i = 0; i < size; i++) {
      const id = `${s}-${i}`;
      ids.push(id);
      const len = 1 + Math.floor(r() * 7);
      batch[id] = {
        t: Array.from({ length: len }, () => word(r)).join(" "),
        k: WORDS[Math.floor(r() * 3)]!,
        ...(r() < 0.7 ? { u: Array.from({ length: 1 + len % 3 }, () => word(r)).join(" ") } : {}),
      };
    }
    // Deletes (and overwrites) of earlier docs, so segments carry deleted docs.
    for (let i = 0; i < size / 10; i++) {
      const id = ids[Math.floor(r() * ids.length)]!;
      batch[id] = r() < 0.7 ? null : { t: word(r), k: "a1" };
    }
    idx.put(batch);
  }
  return idx.target();
}

Deno.test("top-k-first match equals the exhaustive path over random corpora", () => {
  let cases = 0;
  let pruned = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const r = rng(seed * 7919);
    const target = randomTarget(r);
    for (let q = 0; q < 40; q++) {
      const words = Array.from({ length: 1 + Math.floor(r() * 4) }, () => word(r));
      if (r() < 0.1) words.push("zz");
      const match: Record<string, unknown> = { query: words.join(" ") };
      if (r() < 0.3) match.boost = [0.5, 2, 3.7][Math.floor(r() * 3)];
      // A bool of term shoulds over a text and a keyword field, or the match.
      const should: unknown[] = words.map((w, i) =>
        i % 3 === 2 ? { term: { k: { value: w, boost: 1.5 } } } : { term: { t: w } }
      );
      // Sometimes a should is a match or multi_match itself; sometimes the bool is boosted.
      if (r() < 0.3) should.push({ match: { u: { query: words.join(" "), boost: 1.5 } } });
      if (r() < 0.2) {
        should.push({
          multi_match: { query: words[0], fields: ["t", "u^2"], type: "most_fields" },
        });
      }
      const bool: Record<string, unknown> = { should };
      if (r() < 0.2) bool.boost = 2.5;
      const multi: Record<string, unknown> = {
        query: words.join(" "),
        fields: r() < 0.5 ? ["t", "u^3"] : ["t^0.5", "u", "k"].slice(0, 2 + Math.floor(r() * 2)),
        type: r() < 0.6 ? "best_fields" : "most_fields",
      };
      if (r() < 0.5) multi.tie_breaker = [0.3, 1][Math.floor(r() * 2)];
      if (r() < 0.3) multi.boost = 1.7;
      const shape = r();
      const asBool = shape < 0.35;
      const body: Record<string, unknown> = {
        query: asBool
          ? { bool }
          : shape < 0.6
          ? { multi_match: multi }
          : shape < 0.7
          ? { term: { [r() < 0.5 ? "k" : "t"]: words[0] } }
          : { match: { t: match } },
        from: Math.floor(r() * 3) * Math.floor(r() * 10),
        size: Math.floor(r() * 16),
      };
      const trackRoll = r();
      if (trackRoll < 0.5) body.track_total_hits = [1, 5, 30, 200][Math.floor(r() * 4)];
      else if (trackRoll < 0.6) body.track_total_hits = false;
      const fallback = r();
      if (fallback < 0.05) body.min_score = 1;
      else if (fallback < 0.1) body.post_filter = { term: { k: "b2" } };
      else if (fallback < 0.15) body.aggs = { ks: { terms: { field: "k" } } };
      else if (fallback < 0.2) {
        match.operator = "and";
        bool.minimum_should_match = "100%";
      } else if (fallback < 0.25) match.minimum_should_match = bool.minimum_should_match = "2";
      else if (fallback < 0.3) should.push({ match_phrase: { t: "a1 b2" } });
      else if (fallback < 0.35) bool.filter = { term: { k: "c3" } };
      else if (fallback < 0.5) {
        // Shoulds with filters: every filter doc matches (msm 0), or one should is required.
        bool.filter = [{ term: { k: WORDS[Math.floor(r() * 3)] } }, { exists: { field: "t" } }];
        if (r() < 0.4) bool.minimum_should_match = 1;
      }
      const fast = bothPathsAgree(target, body, `seed ${seed} query ${q}`);
      if (fast.hits.total?.relation === "gte") pruned++;
      cases++;
    }
  }
  assert.equal(cases, 480);
  assert.ok(pruned > 50, `only ${pruned} cases passed the total threshold`);
});

Deno.test("top-k-first bool shoulds with a filter: unscored filter docs fill the page at 0", () => {
  const idx = new TestIndex("p", mappings);
  const docs: Record<string, Record<string, unknown> | null> = {};
  for (let i = 0; i < 60; i++) {
    docs[`d${i}`] = { t: i % 7 === 0 ? "i9 a1" : "a1 b2", k: i % 2 ? "a1" : "b2" };
  }
  idx.put(docs).put({ d3: null, d14: null });
  const target = idx.target();
  for (
    const should of [[{ term: { t: "i9" } }], [{ match: { t: "zz" } }], [{ match: { t: "b2 i9" } }]]
  ) {
    for (const msm of [undefined, 1]) {
      const bool = { should, filter: { term: { k: "b2" } }, minimum_should_match: msm };
      for (const [from, size] of [[0, 20], [3, 4], [25, 10]]) {
        const body = { query: { bool }, from, size };
        const fast: Reply = searchApi(new SearchContexts(), [target], body, new URLSearchParams());
        const full: Reply = searchApi(
          new SearchContexts(),
          [target],
          { ...body, track_total_hits: true },
          new URLSearchParams(),
        );
        const rows = (res: Reply) => res.hits.hits.map((h: Reply) => [h._id, h._score]);
        const why = JSON.stringify(body);
        assert.deepEqual(rows(fast), rows(full), why);
        assert.deepEqual(fast.hits.total, full.hits.total, why);
        assert.equal(fast.hits.max_score, full.hits.max_score, why);
      }
    }
  }
});

Deno.test("top-k-first terms, dis_max and query_string equal the exhaustive path", () => {
  let cases = 0;
  for (let seed = 1; seed <= 8; seed++) {
    const r = rng(seed * 104729);
    const target = randomTarget(r);
    for (let q = 0; q < 30; q++) {
      const words = Array.from({ length: 1 + Math.floor(r() * 3) }, () => word(r));
      const boost = r() < 0.3 ? { boost: 2.5 } : {};
      const terms = { terms: { [r() < 0.5 ? "k" : "t"]: words, ...boost } };
      const shapes: unknown[] = [
        terms,
        { bool: { should: [terms, { match: { t: words.join(" ") } }] } },
        {
          dis_max: {
            queries: [{ match: { t: words.join(" ") } }, { match: { u: words[0] } }, terms],
            tie_breaker: [0, 0.3, 1][Math.floor(r() * 3)],
            ...boost,
          },
        },
        { query_string: { query: words.join(" "), fields: ["t", "u^2"] } },
        { simple_query_string: { query: words.join(" "), fields: ["t^1.5", "u"] } },
        { bool: { should: [terms], filter: [{ term: { k: WORDS[Math.floor(r() * 3)] } }] } },
      ];
      const query = shapes[q % shapes.length]!;
      const ctx = execContextOf(target, 0);
      assert.ok(topFirstPlan(parseQuery(query), ctx), `not top first: ${JSON.stringify(query)}`);
      const body: Record<string, unknown> = {
        query,
        from: Math.floor(r() * 3) * Math.floor(r() * 10),
        size: Math.floor(r() * 16),
      };
      if (r() < 0.5) body.track_total_hits = [1, 5, 30, 200][Math.floor(r() * 4)];
      bothPathsAgree(target, body, `seed ${seed} query ${q}`);
      cases++;
    }
  }
  assert.equal(cases, 240);
});

Deno.test("top-k-first two-word match on short fields: ties at the weakest kept score skipped", () => {
  // Titles of 4–6 words from a skewed vocabulary of 60: most docs hold a word once (its
  // frequency-1 bound applies), many score exactly alike (same length, same frequencies), so
  // the weakest kept score ties with the docs after it, which the bounds pass over unscored.
  let cases = 0;
  for (let seed = 1; seed <= 4; seed++) {
    const { r, skewed, target } = shortTitles(seed * 15485863, 2);
    for (let q = 0; q < 25; q++) {
      const query = `${skewed()} ${VOCABULARY[Math.floor(r() * 60)]}`;
      const body: Record<string, unknown> = {
        query: { match: { t: query } },
        from: q % 3 === 0 ? Math.floor(r() * 5) : 0,
        size: 1 + Math.floor(r() * 20),
      };
      if (q % 4 === 1) body.track_total_hits = 100;
      bothPathsAgree(target, body, `seed ${seed} query ${q}`);
      cases++;
    }
  }
  assert.equal(cases, 100);
});

Deno.test("top-k-first match of 3 to 5 words on short fields: ties skipped, same answers", () => {
  // As above, with more words: their bounds are added in clause order without margin, so the
  // docs that could only tie the weakest kept score are passed over; the answers stay the same.
  let cases = 0;
  for (let seed = 1; seed <= 4; seed++) {
    const { r, skewed, target } = shortTitles(seed * 32452843, 3);
    for (let q = 0; q < 25; q++) {
      const words = Array.from(
        { length: 3 + (q % 3) },
        (_, i) => i % 2 === 0 ? skewed() : VOCABULARY[Math.floor(r() * 60)]!,
      );
      const body: Record<string, unknown> = {
        query: { match: { t: words.join(" ") } },
        from: q % 3 === 0 ? Math.floor(r() * 5) : 0,
        size: 1 + Math.floor(r() * 20),
      };
      if (q % 4 === 1) body.track_total_hits = 100;
      bothPathsAgree(target, body, `seed ${seed} query ${q}`);
      cases++;
    }
  }
  assert.equal(cases, 100);
});

/** A skewed vocabulary of 60 words for the short-field corpora. */
const VOCABULARY = Array.from({ length: 60 }, (_, i) => `w${i}`);

/**
 * Three segments of 700 titles each (80 % of 6 words, the rest 4 to 3 + `spread` words) drawn
 * from {@link VOCABULARY} with a skew, 30 deletions per segment: most docs hold a word once and
 * many score exactly alike. Returns the random source (for the queries), the skewed word drawer
 * and the search target.
 */
function shortTitles(seed: number, spread: number) {
  const r = rng(seed);
  const skewed = () => VOCABULARY[Math.floor(Math.exp(r() * Math.log(61)) - 1)]!;
  const idx = new TestIndex("p", mappings);
  const ids: string[] = [];
  for (let s = 0; s < 3; s++) {
    const batch: Record<string, Record<string, unknown> | null> = {};
    for (let i = 0; i < 700; i++) {
      const id = `${s}-${i}`;
      ids.push(id);
      const len = r() < 0.8 ? 6 : 4 + Math.floor(r() * spread);
      batch[id] = { t: Array.from({ length: len }, skewed).join(" ") };
    }
    for (let i = 0; i < 30; i++) batch[ids[Math.floor(r() * ids.length)]!] = null;
    idx.put(batch);
  }
  return { r, skewed, target: idx.target() };
}
