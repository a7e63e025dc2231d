import assert from "node:assert/strict";
import { ascendingOrder, ascendingOrderSteps } from "./point_order.ts";

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

Deno.test("the order in steps is the order in one go, pausing between blocks", () => {
  let seed = 11;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
  const values = Array.from(
    { length: 5000 },
    (_, i) => i % 7 === 0 ? -0 : i % 5 === 0 ? Math.round(rand() * 10) : (rand() - 0.5) * 1e6,
  );
  const steps = ascendingOrderSteps(values, 300);
  let pauses = 0;
  let step = steps.next();
  while (!step.done) {
    pauses++;
    step = steps.next();
  }
  assert.ok(pauses > 4 * Math.ceil(5000 / 300), `${pauses} pauses`);
  assert.deepEqual(step.value, ascendingOrder(values));
  const sorted = Array.from(step.value, (i) => values[i]!);
  for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i - 1]! <= sorted[i]!);
});
