import assert from "node:assert/strict";
import { matchLiveSteps, STEP_BLOCK } from "./query_steps.ts";
import type { Scoring } from "./doc_set.ts";
import { matchLive } from "./query_exec.ts";
import { execContextOf } from "./exec_context.ts";
import { parseQuery } from "./query_parser.ts";
import { TestIndex } from "../../tests/support/test_index.ts";

// More documents than two blocks, so the long loops run in several steps; every 7th one deleted
// (a second segment replaces them), so the live check runs too.
const COUNT = 3 * STEP_BLOCK;
const WORDS = ["a", "b", "c", "d", "e", "f", "g"];
const mappings = { properties: { title: { type: "text" }, tag: { type: "keyword" } } };
const idx = (() => {
  const docs: Record<string, Record<string, unknown> | null> = {};
  let seed = 5;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < COUNT; i++) {
    const title = Array.from({ length: 1 + rand(4) }, () => WORDS[rand(WORDS.length)]).join(" ");
    docs[String(i)] = { title, tag: "t" + (i % 3) };
  }
  const index = new TestIndex("steps", mappings).put(docs);
  const deleted: Record<string, null> = {};
  for (let i = 0; i < COUNT; i += 7) deleted[String(i)] = null;
  return index.put(deleted);
})();

function drained(query: Record<string, unknown>, scoring: Scoring) {
  const ctx = execContextOf(idx.target(), 0);
  const steps = matchLiveSteps(parseQuery(query), ctx, { scoring });
  let pauses = 0;
  let step = steps.next();
  while (!step.done) {
    pauses++;
    step = steps.next();
  }
  return { hits: step.value, pauses, whole: matchLive(parseQuery(query), ctx, scoring) };
}

Deno.test("matchLiveSteps: long queries pause between blocks and match what matchLive matches", () => {
  const queries = [
    { match: { title: "a b" } },
    { match: { title: "a b c" } },
    { match: { title: { query: "a b c", minimum_should_match: 2 } } },
    { match: { title: { query: "a b", boost: 2.5 } } },
    { match_all: {} },
    { match_all: { boost: 3 } },
  ];
  for (const query of queries) {
    for (const scoring of ["score", "filter"] as const) {
      const { hits, pauses, whole } = drained(query, scoring);
      assert.ok(pauses >= 2, `${JSON.stringify(query)} paused ${pauses} times`);
      assert.ok(hits.docs.length > 1000, JSON.stringify(query));
      assert.deepEqual(hits.docs, whole.docs);
      assert.deepEqual(hits.scores, whole.scores);
    }
  }
});

Deno.test("matchLiveSteps: other queries run in one step, with matchLive's answer", () => {
  const queries = [
    { match: { title: "a" } },
    { match: { title: { query: "a b", operator: "and" } } },
    { term: { tag: "t1" } },
    { bool: { should: [{ match: { title: "a" } }, { match: { title: "b" } }] } },
  ];
  for (const query of queries) {
    const { hits, whole } = drained(query, "score");
    assert.deepEqual(hits.docs, whole.docs);
    assert.deepEqual(hits.scores, whole.scores);
  }
});
