// Selects the first k items of an ordering without sorting everything (a bounded binary heap).

/** Indices 0..n-1 of the k smallest items under `compare`, in order. */
export function topK(n: number, k: number, compare: (a: number, b: number) => number): number[] {
  if (k <= 0 || n === 0) return [];
  if (k * 4 >= n) return sortedFirst(n, k, compare);
  const heap = bestK(k, compare);
  heap.offer(0, n);
  return heap.sorted();
}

/**
 * {@link topK} in steps: the generator yields after each `block` items offered to the heap (a
 * point where a time-sliced search may pause) and returns what `topK` returns, from the same
 * comparisons in the same order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { topKSteps } from "./top_k.ts";
 *
 * const values = [5, 3, 9, 1, 7, 2, 8, 6, 4, 0];
 * const steps = topKSteps(values.length, 2, (a, b) => values[a]! - values[b]!, 3);
 * let pauses = 0;
 * let step = steps.next();
 * while (!step.done) {
 *   pauses++;
 *   step = steps.next();
 * }
 * assert.deepEqual(step.value, [9, 3]);
 * assert.equal(pauses, 3);
 * ```
 */
export function* topKSteps(
  n: number,
  k: number,
  compare: (a: number, b: number) => number,
  block: number,
): Generator<void, number[], void> {
  if (k <= 0 || n === 0) return [];
  if (k * 4 >= n) return sortedFirst(n, k, compare);
  const heap = bestK(k, compare);
  for (let from = 0; from < n; from += block) {
    if (from > 0) yield;
    heap.offer(from, Math.min(from + block, n));
  }
  return heap.sorted();
}

function sortedFirst(n: number, k: number, compare: (a: number, b: number) => number): number[] {
  const all = Array.from({ length: n }, (_, i) => i).sort(compare);
  return all.slice(0, k);
}

/** A max-heap of the best k items offered so far (the root is the worst of them). */
interface BestK {
  /** Offers the items `from` … `to - 1`, in order. */
  offer(from: number, to: number): void;
  /** The items kept, best first. */
  sorted(): number[];
}

function bestK(k: number, compare: (a: number, b: number) => number): BestK {
  const heap: number[] = [];
  const worse = (a: number, b: number) => compare(a, b) > 0;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  const offer = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      if (heap.length < k) {
        heap.push(i);
        let c = heap.length - 1;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (!worse(heap[c]!, heap[p]!)) break;
          [heap[c], heap[p]] = [heap[p]!, heap[c]!];
          c = p;
        }
      } else if (compare(i, heap[0]!) < 0) {
        heap[0] = i;
        down(0);
      }
    }
  };
  return { offer, sorted: () => heap.sort(compare) };
}
