import assert from "node:assert/strict";
import { compilePlan, topFirstPlan } from "./top_first_plan.ts";
import { execContextOf } from "./exec_context.ts";
import { parseQuery } from "./query_parser.ts";
import { TestIndex } from "../../tests/support/test_index.ts";

const mappings = {
  properties: {
    t: { type: "text" },
    u: { type: "text" },
    k: { type: "keyword" },
    n: { type: "long" },
  },
};
const ctx = execContextOf(new TestIndex("p", mappings).put({ a: { t: "x", k: "y" } }).target(), 0);
const plan = (q: unknown) => topFirstPlan(parseQuery(q), ctx);

Deno.test("topFirstPlan takes scored disjunctions and leaves everything else to the full path", () => {
  for (
    const q of [
      { term: { k: "y" } },
      { match: { t: "a b" } },
      { multi_match: { query: "a b", fields: ["t", "u^2", "k"], tie_breaker: 0.3 } },
      { multi_match: { query: "a", fields: ["t", "u"], type: "most_fields" } },
      { bool: { should: [{ term: { t: "a" } }, { match: { u: "b c" } }], boost: 2 } },
      { bool: { should: [{ match: { t: "a" } }], filter: [{ range: { n: { gte: 1 } } }] } },
    ]
  ) assert.ok(plan(q), JSON.stringify(q));
  for (
    const q of [
      { match_all: {} },
      { match: { t: { query: "a b", operator: "and" } } },
      { match: { t: { query: "a b", minimum_should_match: 2 } } },
      { match: { t: { query: "a", fuzziness: 1 } } },
      { match_phrase: { t: "a b" } },
      { multi_match: { query: "a", fields: ["t", "u"], type: "cross_fields" } },
      { multi_match: { query: "a", fields: ["t", "u"], type: "phrase" } },
      { multi_match: { query: "a", fields: ["t", "n"] } },
      { bool: { must: [{ term: { t: "a" } }], should: [{ term: { t: "b" } }] } },
      { bool: { should: [{ term: { t: "a" } }], must_not: [{ term: { t: "b" } }] } },
      { bool: { should: [{ term: { t: "a" } }, { term: { t: "b" } }], minimum_should_match: 2 } },
      { bool: { filter: [{ term: { t: "a" } }] } },
      { term: { t: { value: "a", case_insensitive: true } } },
      { term: { n: 1 } },
    ]
  ) assert.equal(plan(q), null, JSON.stringify(q));
  const filtered = plan({ bool: { should: [{ term: { t: "a" } }], filter: { term: { k: "y" } } } });
  assert.equal(filtered?.optional, true);
  assert.equal(filtered?.filter.length, 1);
  const required = plan({
    bool: { should: [{ term: { t: "a" } }], filter: { term: { k: "y" } }, minimum_should_match: 1 },
  });
  assert.equal(required?.optional, false);
});

Deno.test("compilePlan scores node by node: dis_max with tie_breaker, sums, boosts", () => {
  const c = (term: string) => ({ field: "t", term, boost: 1 });
  const p = compilePlan({
    combine: "dis_max",
    tieBreaker: 0.5,
    boost: 2,
    children: [
      { combine: "sum", tieBreaker: 0, boost: 1, children: [c("a"), c("b")] },
      { combine: "sum", tieBreaker: 0, boost: 3, children: [c("c")] },
    ],
  });
  assert.deepEqual([...p.mults], [2, 2, 6]);
  assert.deepEqual([...p.plain], [0, 0, 0]);
  const hit = new Uint8Array(5);
  const val = new Float64Array(5);
  const score = (a?: number, b?: number, cc?: number) => {
    [a, b, cc].forEach((v, i) => {
      hit[i] = v === undefined ? 0 : 1;
      val[i] = v ?? 0;
    });
    return p.evaluate(hit, val);
  };
  // Fields: (1 + 2) and 4 × 3 = 12; best 12 plus half of 3, times 2.
  assert.equal(score(1, 2, 4), (12 + 0.5 * 3) * 2);
  assert.equal(score(1, undefined, undefined), 1 * 2);
  assert.equal(score(undefined, undefined, 1), 3 * 2);
  assert.equal(score(), 0);
  assert.deepEqual(
    [...compilePlan({ combine: "sum", tieBreaker: 0, boost: 1, children: [c("a")] }).plain],
    [1],
  );
});
