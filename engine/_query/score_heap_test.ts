import assert from "node:assert/strict";
import { seek, WorstFirstHeap } from "./score_heap.ts";

Deno.test("WorstFirstHeap keeps the best k by score, then earlier doc, like a full sort", () => {
  let seed = 11;
  const r = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < 50; round++) {
    const k = Math.floor(r() * 8);
    const heap = new WorstFirstHeap(k);
    const all: Array<[number, number]> = [];
    for (let doc = 0; doc < 100; doc++) {
      const score = Math.floor(r() * 6) / 2; // many ties
      all.push([score, doc]);
      const before = heap.threshold;
      const entered = heap.offer(score, doc);
      assert.equal(entered, k > 0 && (!Number.isFinite(before) || score > before));
    }
    all.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const top = all.slice(0, k);
    const { docs, scores } = heap.drain();
    assert.deepEqual([...docs], top.map(([, d]) => d));
    assert.deepEqual([...scores], top.map(([s]) => s));
    assert.equal(heap.threshold, k === 0 ? Infinity : top[k - 1]?.[0] ?? -Infinity);
  }
});

Deno.test("seek finds the first entry at or after the target from any start", () => {
  const docs = Int32Array.of(2, 3, 5, 8, 13, 21, 34);
  for (let from = 0; from <= docs.length; from++) {
    for (let target = 0; target < 40; target++) {
      let want = from;
      while (want < docs.length && docs[want]! < target) want++;
      assert.equal(seek(docs, from, target), want, `from ${from} target ${target}`);
    }
  }
});
