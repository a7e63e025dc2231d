import assert from "node:assert/strict";
import { hashMapOrder, javaStringHash, LuceneQueue, pagedHashOrder } from "./java_order.ts";

Deno.test("javaStringHash: Java's String.hashCode, overflowing as an int", () => {
  assert.equal(javaStringHash(""), 0);
  assert.equal(javaStringHash("red"), 112785);
  assert.equal(javaStringHash("polygenelubricants"), -2147483648); // Java's Integer.MIN_VALUE example
});

Deno.test("hashMapOrder and the queue give OpenSearch 3.8.0's order of equal scores", () => {
  // A significant_terms answer of the real engine (diff corpus, seed 1): three terms at 0.0952,
  // two at 0.0816, two at 0.068; "Red" and "red" share HashMap bucket 0, "x" and "yellow"
  // bucket 8, each pair in the order met.
  const score = new Map([
    ["black-white", 0.0952],
    ["red", 0.0952],
    ["Red", 0.0952],
    ["x", 0.0816],
    ["yellow", 0.0816],
    ["blue", 0.068],
    ["green", 0.068],
    ["a b", 0.054],
  ]);
  const met = ["Red", "x", "green", "red", "yellow", "blue", "black-white", "a b"];
  const q = new LuceneQueue<string>(8, (a, b) => score.get(a)! < score.get(b)!);
  for (const k of hashMapOrder(met)) q.insertWithOverflow(k);
  assert.deepEqual(q.drainBestFirst(), [
    "black-white",
    "red",
    "Red",
    "x",
    "yellow",
    "blue",
    "green",
    "a b",
  ]);
});

Deno.test("LuceneQueue: a full queue keeps the older of two equal elements", () => {
  const q = new LuceneQueue<[string, number]>(1, (a, b) => a[1] < b[1]);
  q.insertWithOverflow(["first", 1]);
  q.insertWithOverflow(["second", 1]);
  assert.deepEqual(q.drainBestFirst(), [["first", 1]]);
});

Deno.test("pagedHashOrder: linear probing from hashCode & mask, growing in place", () => {
  // "green" and "a b" both hash to slot 3 of 16: "a b" probes on to 4.
  assert.deepEqual(pagedHashOrder(["green", "a b", "q"], 6), ["q", "green", "a b"]);
  const many = Array.from({ length: 40 }, (_, i) => `k${i}`);
  assert.deepEqual([...pagedHashOrder(many, 1)].sort(), [...many].sort());
});
