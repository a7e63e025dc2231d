// The Java orders the real engines' answers show, rebuilt: `String.hashCode`, the iteration order
// of a `java.util.HashMap` keyed by strings (equal-scored buckets of a reduce, a hit's matched
// query names, the fields of an explanation), and Lucene's `PriorityQueue` (a binary min-heap
// whose ties come out as its sift-ups and sift-downs left them). All are deterministic, so an
// answer the real engine gives twice the same way can be matched exactly.

/** Java's `String.hashCode` (over UTF-16 code units), as a signed 32-bit integer. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The iteration order of a `java.util.HashMap<String, V>` holding `keys`: by bucket (the spread
 * hash masked to the table size), then in insertion order within a bucket. The table starts at
 * 16 and doubles past three quarters full, as Java's does (its tree bins, at eight collisions in
 * one bucket, are not modelled).
 *
 * @param keys The keys in insertion order.
 * @returns The keys in iteration order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashMapOrder } from "./java_order.ts";
 *
 * // "red" and "Red" share bucket 0: they keep their insertion order.
 * assert.deepEqual(hashMapOrder(["x", "Red", "red", "a b"]), ["Red", "red", "a b", "x"]);
 * ```
 */
export function hashMapOrder(keys: readonly string[]): string[] {
  return hashMapOrderBy(keys, (k) => k);
}

/**
 * {@link hashMapOrder} of items keyed by `keyOf` (a map from each item's key to the item).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashMapOrderBy } from "./java_order.ts";
 *
 * const fields = [{ field: "x" }, { field: "a b" }];
 * assert.deepEqual(hashMapOrderBy(fields, (f) => f.field), [{ field: "a b" }, { field: "x" }]);
 * ```
 */
export function hashMapOrderBy<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  let capacity = 16;
  while (items.length > capacity * 0.75) capacity *= 2;
  return items.map((item, seq) => {
    const h = javaStringHash(keyOf(item));
    return { item, slot: (h ^ (h >>> 16)) & (capacity - 1), seq };
  }).sort((a, b) => a.slot - b.slot || a.seq - b.seq).map((e) => e.item);
}

/**
 * The iteration order of Elasticsearch's `ObjectObjectPagedHashMap` with string keys: open
 * addressing with linear probing from `hashCode & mask`, sized for `capacity` entries at a 0.6
 * load factor, doubling in place when full (its two re-adding passes replayed).
 *
 * @param keys The keys in insertion order.
 * @param capacity The capacity the map was made with.
 * @returns The keys in iteration (slot) order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pagedHashOrder } from "./java_order.ts";
 *
 * assert.deepEqual(pagedHashOrder(["b", "a"], 2), ["a", "b"]);
 * ```
 */
export function pagedHashOrder(keys: readonly string[], capacity: number): string[] {
  const load = Math.fround(0.6);
  let buckets = 1 + Math.trunc(Math.fround(capacity / load));
  buckets = Math.max(1, highestOneBit(buckets - 1) * 2);
  let maxSize = Math.trunc(Math.fround(buckets * load));
  let mask = buckets - 1;
  let table: (string | undefined)[] = new Array(buckets);
  const hashes = new Map<string, number>();
  const hash = (k: string): number => {
    let h = hashes.get(k);
    if (h === undefined) hashes.set(k, h = javaStringHash(k));
    return h;
  };
  const place = (k: string): void => {
    for (let i = hash(k) & mask;; i = (i + 1) & mask) {
      if (table[i] === undefined) {
        table[i] = k;
        return;
      }
    }
  };
  const removeAndAdd = (i: number): void => {
    const k = table[i]!;
    table[i] = undefined;
    place(k);
  };
  let size = 0;
  for (const k of keys) {
    if (size >= maxSize) {
      const old = buckets;
      buckets = old * 2;
      table = [...table, ...new Array<string | undefined>(old)];
      mask = buckets - 1;
      for (let i = 0; i < old; i++) if (table[i] !== undefined) removeAndAdd(i);
      for (let i = old; i < buckets && table[i] !== undefined; i++) removeAndAdd(i);
      maxSize = Math.trunc(Math.fround(buckets * load));
    }
    place(k);
    size++;
  }
  return table.filter((k): k is string => k !== undefined);
}

function highestOneBit(n: number): number {
  return n <= 0 ? 0 : 2 ** Math.floor(Math.log2(n));
}

/**
 * Lucene's `PriorityQueue`: a bounded min-heap by `lessThan`; `insertWithOverflow` keeps the
 * `max` greatest, and {@linkcode LuceneQueue.drainBestFirst} pops them all, filling the answer
 * from its end as the real engines do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LuceneQueue } from "./java_order.ts";
 *
 * const q = new LuceneQueue<number>(2, (a, b) => a < b);
 * for (const n of [3, 1, 2]) q.insertWithOverflow(n);
 * assert.deepEqual(q.drainBestFirst(), [3, 2]);
 * ```
 */
export class LuceneQueue<T> {
  readonly #heap: T[] = [];
  readonly #max: number;
  readonly #less: (a: T, b: T) => boolean;

  constructor(max: number, lessThan: (a: T, b: T) => boolean) {
    this.#max = max;
    this.#less = lessThan;
  }

  /** Adds `e`, or when full replaces the least element if that is less than `e` (ties stay). */
  insertWithOverflow(e: T): void {
    const h = this.#heap;
    if (h.length < this.#max) {
      h.push(e);
      this.#up(h.length);
    } else if (h.length > 0 && this.#less(h[0]!, e)) {
      h[0] = e;
      this.#down(1);
    }
  }

  /** Every element, greatest first (popping the least into the last free place). */
  drainBestFirst(): T[] {
    const out = new Array<T>(this.#heap.length);
    for (let i = out.length - 1; i >= 0; i--) out[i] = this.#pop();
    return out;
  }

  #pop(): T {
    const h = this.#heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      this.#down(1);
    }
    return top;
  }

  // 1-based positions, as Lucene's heap array.
  #up(pos: number): void {
    const h = this.#heap;
    let i = pos;
    const node = h[i - 1]!;
    let j = i >>> 1;
    while (j > 0 && this.#less(node, h[j - 1]!)) {
      h[i - 1] = h[j - 1]!;
      i = j;
      j = j >>> 1;
    }
    h[i - 1] = node;
  }

  #down(pos: number): void {
    const h = this.#heap;
    const size = h.length;
    let i = pos;
    const node = h[i - 1]!;
    let j = i << 1;
    let k = j + 1;
    if (k <= size && this.#less(h[k - 1]!, h[j - 1]!)) j = k;
    while (j <= size && this.#less(h[j - 1]!, node)) {
      h[i - 1] = h[j - 1]!;
      i = j;
      j = i << 1;
      k = j + 1;
      if (k <= size && this.#less(h[k - 1]!, h[j - 1]!)) j = k;
    }
    h[i - 1] = node;
  }
}
