// Range buckets without a document list per bucket: the values are sorted once, each bucket's
// count is a Fenwick-tree query (n log n for any number of ranges, overlapping or not), and the
// documents of one bucket are gathered only while its sub-aggregations run.

import { lowerBound } from "../_index/sorted_search.ts";

/** One `[from, to)` range (an open end is undefined). */
export interface RangeBounds {
  from?: number;
  to?: number;
}

/** Docs of one target (by index in the inputs), ascending. */
export type RangeDocs = Map<number, number[]>;

/** The values of a field, sorted, with what each bucket counts and holds. */
export interface RangeIndex {
  /** Distinct documents per range, in the order of the ranges. */
  counts: number[];
  /** The documents of range `i` (built on demand, not kept). */
  docsOf(i: number): RangeDocs;
}

/**
 * Reads every (value, doc, input) once (a document's values arrive together) and indexes them.
 * A document counts once per range however many of its values fall in it: a value counts when the
 * document's previous (smaller) value lies below the range's start.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rangeIndex } from "./range_buckets.ts";
 *
 * const values: [number, number][] = [[1, 0], [5, 0], [3, 1], [9, 2]];
 * const index = rangeIndex([{ to: 4 }, { from: 0, to: 10 }, { from: 4 }], (fn) => {
 *   for (const [v, doc] of values) fn(v, doc, 0);
 * });
 * assert.deepEqual(index.counts, [2, 3, 2]);
 * assert.deepEqual(index.docsOf(2).get(0), [0, 2]);
 * ```
 */
export function rangeIndex(
  ranges: readonly RangeBounds[],
  source: (fn: (v: number, doc: number, input: number) => void) => void,
): RangeIndex {
  const vs: number[] = [];
  const docs: number[] = [];
  const inputs: number[] = [];
  source((v, doc, input) => {
    if (Number.isNaN(v)) return;
    vs.push(v);
    docs.push(doc);
    inputs.push(input);
  });
  const n = vs.length;
  // Each value's previous value in its document (values sorted within the document).
  const prev = new Float64Array(n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && docs[i] === docs[start] && inputs[i] === inputs[start]) continue;
    const group = Array.from(order.subarray(start, i)).sort((a, b) => vs[a]! - vs[b]!);
    for (let k = 0; k < group.length; k++) {
      prev[group[k]!] = k === 0 ? -Infinity : vs[group[k - 1]!]!;
    }
    start = i;
  }
  // Values sorted ascending (ties by feed order, so docs come out in order for each value).
  const byValue = Array.from(order).sort((a, b) => vs[a]! - vs[b]! || a - b);
  const sorted = Float64Array.from(byValue, (i) => vs[i]!);
  const rankOf = new Int32Array(n);
  byValue.forEach((i, r) => (rankOf[i] = r));
  const byPrev = Array.from(order).sort((a, b) => prev[a]! - prev[b]!);
  const starts = ranges.map((r) => r.from ?? -Infinity);
  const ends = ranges.map((r) => r.to ?? Infinity);
  const byStart = ranges.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]!);
  const tree = new Int32Array(n + 1);
  const add = (r: number) => {
    for (let i = r + 1; i <= n; i += i & -i) tree[i]!++;
  };
  const prefix = (r: number) => {
    let s = 0;
    for (let i = r; i > 0; i -= i & -i) s += tree[i]!;
    return s;
  };
  const counts = new Array<number>(ranges.length).fill(0);
  let inserted = 0;
  for (const i of byStart) {
    const from = starts[i]!;
    // A document's first value (no previous one, -Infinity) counts from any start.
    for (; inserted < n; inserted++) {
      const p = prev[byPrev[inserted]!]!;
      if (p >= from && p !== -Infinity) break;
      add(rankOf[byPrev[inserted]!]!);
    }
    const lo = lowerBound(sorted, from);
    const hi = lowerBound(sorted, ends[i]!);
    counts[i] = hi > lo ? prefix(hi) - prefix(lo) : 0;
  }
  return {
    counts,
    docsOf(i) {
      const out: RangeDocs = new Map();
      const hi = lowerBound(sorted, ends[i]!);
      for (let r = lowerBound(sorted, starts[i]!); r < hi; r++) {
        const at = byValue[r]!;
        let list = out.get(inputs[at]!);
        if (!list) out.set(inputs[at]!, list = []);
        list.push(docs[at]!);
      }
      for (const [k, list] of out) {
        out.set(k, [...new Set(list)].sort((a, b) => a - b));
      }
      return out;
    },
  };
}
