import assert from "node:assert/strict";
import { atLeast, constantHits, intersect, subtract, union } from "./doc_set.ts";

const h = (docs: number[], scores?: number[]) => ({
  docs: Int32Array.from(docs),
  scores: scores ? Float64Array.from(scores) : null,
});

Deno.test("intersect keeps common docs and adds scores", () => {
  const r = intersect(h([1, 3, 5], [1, 1, 1]), h([3, 4, 5], [2, 2, 2]));
  assert.deepEqual([...r.docs], [3, 5]);
  assert.deepEqual([...r.scores!], [3, 3]);
});

Deno.test("subtract removes docs", () => {
  assert.deepEqual([...subtract(h([1, 2, 3]), h([2])).docs], [1, 3]);
});

Deno.test("union sums scores and counts matches, sparse and dense", () => {
  for (const maxDoc of [10, 100000]) {
    const r = union([h([1, 3], [1, 2]), h([3, 7], [5, 1])], maxDoc);
    assert.deepEqual([...r.docs], [1, 3, 7]);
    assert.deepEqual([...r.scores!], [1, 7, 1]);
    assert.deepEqual([...r.counts], [1, 2, 1]);
    assert.deepEqual([...atLeast(r, 2).docs], [3]);
  }
});

Deno.test("union as dis_max takes the best score plus tie breaker", () => {
  const r = union([h([1], [2]), h([1], [4])], 10, true, 0.5);
  assert.deepEqual([...r.scores!], [5]);
});

Deno.test("constantHits without scoring has null scores", () => {
  assert.equal(constantHits(Int32Array.from([1]), 1, false).scores, null);
});
