// Property: a bool whose filter range is checked by doc values on the other clauses' docs
// matches (and scores) exactly as the range collected from its points and intersected.
import assert from "node:assert/strict";
import { execContextOf } from "./exec_context.ts";
import { intersect } from "./doc_set.ts";
import { matchLive } from "./query_exec.ts";
import { parseQuery } from "./query_parser.ts";
import { TestIndex } from "../../tests/support/test_index.ts";

function rng(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const mappings = {
  properties: {
    t: { type: "text" },
    k: { type: "keyword" },
    n: { type: "long" },
    x: { type: "double" },
    d: { type: "date" },
  },
};

Deno.test("a filter range checked by doc values equals the range collected from points", () => {
  let checked = 0;
  for (let seed = 1; seed <= 6; seed++) {
    const r = rng(seed * 104729);
    const idx = new TestIndex("p", mappings);
    const big = 2n ** 60n;
    for (let s = 0; s < 3; s++) {
      const batch: Record<string, Record<string, unknown> | null> = {};
      for (let i = 0; i < 300; i++) {
        const doc: Record<string, unknown> = {
          t: ["a b", "a", "b c", "c"][Math.floor(r() * 4)],
          k: ["p", "q", "r", "s", "u", "v", "w", "y"][Math.floor(r() * 8)],
        };
        const roll = r();
        // Missing, one value, several values, and longs beyond 2^53 (exact).
        if (roll < 0.8) doc.n = Math.floor(r() * 100);
        if (roll < 0.2) doc.n = [Math.floor(r() * 100), Math.floor(r() * 100)];
        if (roll > 0.95) doc.n = String(big + BigInt(Math.floor(r() * 5)));
        if (r() < 0.9) doc.x = Math.round(r() * 1000) / 10;
        if (r() < 0.9) doc.d = new Date(Date.UTC(2024, 0, 1 + Math.floor(r() * 60))).toISOString();
        batch[`${s}-${i}`] = doc;
      }
      for (let i = 0; i < 30; i++) {
        batch[`${Math.floor(r() * s + 0.5)}-${Math.floor(r() * 300)}`] = null;
      }
      idx.put(batch);
    }
    const ctx = execContextOf(idx.target(), Date.UTC(2024, 1, 1));
    const ranges = [
      { n: { gte: 10, lt: 60 } },
      { n: { gt: 90 } },
      { n: { gte: String(big + 1n), lte: String(big + 3n) } },
      { x: { gt: 5.5, lte: 50 } },
      { x: { gte: 10, lt: 80 } },
      { d: { gte: "2024-01-10", lt: "now-1w/d" } },
    ];
    for (const range of ranges) {
      for (const others of [[{ term: { k: "p" } }], [{ term: { k: "q" } }, { term: { t: "a" } }]]) {
        for (const must of [[], [{ match: { t: "a c" } }]]) {
          const body = { bool: { must, filter: [...others, { range }] } };
          const got = matchLive(parseQuery(body), ctx, "score");
          const rest = matchLive(parseQuery({ bool: { must, filter: others } }), ctx, "score");
          const want = intersect(rest, matchLive(parseQuery({ range }), ctx, "filter"));
          const why = JSON.stringify(body);
          assert.deepEqual([...got.docs], [...want.docs], why);
          assert.deepEqual([...(got.scores ?? [])], [...(want.scores ?? [])], why);
          checked += got.docs.length;
        }
      }
    }
  }
  assert.ok(checked > 1000, `only ${checked} matches compared`);
});
