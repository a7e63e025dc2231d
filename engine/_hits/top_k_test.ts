import assert from "node:assert/strict";
import { topK } from "./top_k.ts";

Deno.test("topK returns the k best in order, by heap and by full sort", () => {
  const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
  const cmp = (a: number, b: number) => values[a]! - values[b]!;
  assert.deepEqual(topK(1000, 5, cmp).map((i) => values[i]), [0, 1, 2, 3, 4]);
  assert.deepEqual(topK(10, 8, (a, b) => b - a), [9, 8, 7, 6, 5, 4, 3, 2]);
  assert.deepEqual(topK(0, 3, cmp), []);
});
