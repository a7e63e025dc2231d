// The bounded heap of the best k hits that top-k-first scoring keeps, and the galloping seek it
// probes postings with.

/**
 * First index at or after `from` whose value is ≥ `target` in an ascending array (galloping,
 * then binary search).
 *
 * @example
 * ```ts
 * import { seek } from "./score_heap.ts";
 * console.assert(seek(Int32Array.of(1, 4, 9), 0, 5) === 2);
 * ```
 */
export function seek(docs: Int32Array, from: number, target: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < docs.length && docs[hi]! < target) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > docs.length) hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (docs[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The best `k` (score, doc) pairs seen, with the weakest on top. Docs must arrive ascending: a
 * later doc loses a tie, so the kept hits are those of a full sort by score, then doc.
 *
 * @example
 * ```ts
 * import { WorstFirstHeap } from "./score_heap.ts";
 * const heap = new WorstFirstHeap(2);
 * heap.offer(1, 0);
 * heap.offer(3, 1);
 * heap.offer(2, 2);
 * console.assert(heap.drain().docs.join() === "1,2");
 * ```
 */
export class WorstFirstHeap {
  readonly #k: number;
  readonly #scores: number[] = [];
  readonly #docs: number[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  /** Whether `k` hits are kept (a new hit must then beat the weakest). */
  get full(): boolean {
    return this.#scores.length >= this.#k;
  }

  /** Hits kept so far. */
  get size(): number {
    return this.#scores.length;
  }

  /** Score a hit must exceed to enter: -Infinity until full, Infinity when k is 0. */
  get threshold(): number {
    if (this.#k === 0) return Infinity;
    return this.#scores.length >= this.#k ? this.#scores[0]! : -Infinity;
  }

  /** Whether `doc` is kept. */
  has(doc: number): boolean {
    return this.#docs.includes(doc);
  }

  #worse(i: number, j: number): boolean {
    const s = this.#scores;
    return s[i]! < s[j]! || (s[i] === s[j] && this.#docs[i]! > this.#docs[j]!);
  }

  #swap(i: number, j: number): void {
    const s = this.#scores;
    const d = this.#docs;
    const ts = s[i]!;
    s[i] = s[j]!;
    s[j] = ts;
    const td = d[i]!;
    d[i] = d[j]!;
    d[j] = td;
  }

  /** Adds a hit if it beats the weakest (a later doc loses a tie); true when it entered. */
  offer(score: number, doc: number): boolean {
    const s = this.#scores;
    if (this.#k === 0) return false;
    if (s.length < this.#k) {
      s.push(score);
      this.#docs.push(doc);
      let i = s.length - 1;
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (!this.#worse(i, up)) break;
        this.#swap(i, up);
        i = up;
      }
      return true;
    }
    if (!(score > s[0]!)) return false;
    s[0] = score;
    this.#docs[0] = doc;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < s.length && this.#worse(l, w)) w = l;
      if (r < s.length && this.#worse(r, w)) w = r;
      if (w === i) break;
      this.#swap(i, w);
      i = w;
    }
    return true;
  }

  /** The hits, best first (score descending, then doc ascending). */
  drain(): { docs: Int32Array; scores: Float64Array } {
    // Plain loops: a spread and `TypedArray.from` over an iterable allocate per element, on
    // every search (see bench/engine_alloc.ts).
    const s = this.#scores;
    const d = this.#docs;
    const n = s.length;
    const order = new Array<number>(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => s[b]! - s[a]! || d[a]! - d[b]!);
    const docs = new Int32Array(n);
    const scores = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      docs[i] = d[order[i]!]!;
      scores[i] = s[order[i]!]!;
    }
    return { docs, scores };
  }
}
