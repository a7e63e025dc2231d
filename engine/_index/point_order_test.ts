import assert from "node:assert/strict";
import { ascendingOrder } from "./point_order.ts";

function byComparator(values: number[]): number[] {
  return Array.from(values.keys()).sort((a, b) => values[a]! - values[b]!);
}

Deno.test("the radix order equals a stable comparator sort, ties in position order", () => {
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const specials = [0, -0, Infinity, -Infinity, 2 ** 53 + 2, -(2 ** 60), 5e-324, -5e-324, 0.1];
  for (const n of [10, 300, 5000]) {
    const values = Array.from({ length: n }, (_, i) => {
      const r = next();
      if (i % 17 === 0) return specials[i % specials.length]!;
      if (r < 0.3) return Math.floor(r * 40) - 6; // many duplicates, some negative
      return (r - 0.5) * 10 ** Math.floor(r * 12);
    });
    assert.deepEqual([...ascendingOrder(values)], byComparator(values), `n=${n}`);
  }
});

Deno.test("one distinct value keeps position order", () => {
  const values = new Array(1000).fill(7);
  assert.deepEqual([...ascendingOrder(values)], [...values.keys()]);
});
