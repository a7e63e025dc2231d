import assert from "node:assert/strict";
import { atLeast, constantHits, disMax, intersect, subtract, union } from "./doc_set.ts";

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

Deno.test("disMax takes the best score plus tie breaker", () => {
  const r = disMax([h([1], [2]), h([1], [4])], 10, 0.5);
  assert.deepEqual([...r.scores!], [5]);
});

Deno.test("constantHits without scoring has null scores", () => {
  assert.equal(constantHits(Int32Array.from([1]), 1, "filter").scores, null);
});

Deno.test("union and disMax: the sparse merge and the dense path give the same docs, counts and scores", () => {
  let seed = 11;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let round = 0; round < 300; round++) {
    const lists = Array.from({ length: 1 + rand(6) }, () => {
      const docs = [...new Set(Array.from({ length: rand(40) }, () => rand(200)))].sort((a, b) =>
        a - b
      );
      const scored = rand(4) !== 0;
      return h(docs, scored ? docs.map(() => rand(1000) / 7) : undefined);
    });
    const dis = rand(3) === 0;
    const tie = rand(2) / 3;
    // The meaning, written plainly: every doc of any list, its count, the scores in list order.
    const all = [...new Set(lists.flatMap((l) => [...l.docs]))].sort((a, b) => a - b);
    const want = all.map((doc) => {
      let count = 0;
      let sum = 0;
      let best = 0;
      for (const l of lists) {
        const i = l.docs.indexOf(doc);
        if (i < 0) continue;
        count++;
        if (l.scores) {
          sum += l.scores[i]!;
          best = Math.max(best, l.scores[i]!);
        }
      }
      return { doc, count, score: dis ? best + tie * (sum - best) : sum };
    });
    const scoring = lists.some((l) => l.docs.length > 0 && l.scores !== null);
    // maxDoc 250: the dense path for all but the smallest inputs; 10^6: the merge.
    for (const maxDoc of [250, 1_000_000]) {
      const got = dis ? disMax(lists, maxDoc, tie) : union(lists, maxDoc);
      assert.deepEqual([...got.docs], want.map((w) => w.doc));
      assert.deepEqual([...got.counts], want.map((w) => w.count));
      if (scoring) assert.deepEqual([...got.scores!], want.map((w) => w.score));
    }
  }
});
