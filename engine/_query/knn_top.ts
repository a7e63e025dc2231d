// Keeping the k best: a bounded heap per target, and the global merge across targets.

import type { Hits } from "./doc_set.ts";

/** A bounded min-heap of (score, doc): keeps the k best, ties to the lower doc. */
export class TopHeap {
  readonly #scores: Float64Array;
  readonly #docs: Int32Array;
  #size = 0;

  constructor(readonly k: number) {
    this.#scores = new Float64Array(k);
    this.#docs = new Int32Array(k);
  }

  #worse(i: number, j: number): boolean {
    const a = this.#scores[i]!;
    const b = this.#scores[j]!;
    return a < b || (a === b && this.#docs[i]! > this.#docs[j]!);
  }

  #swap(i: number, j: number): void {
    const s = this.#scores[i]!;
    this.#scores[i] = this.#scores[j]!;
    this.#scores[j] = s;
    const d = this.#docs[i]!;
    this.#docs[i] = this.#docs[j]!;
    this.#docs[j] = d;
  }

  /** Considers one doc; docs must come in ascending order for ties to favour the lower one. */
  offer(score: number, doc: number): void {
    if (this.#size < this.k) {
      let c = this.#size++;
      this.#scores[c] = score;
      this.#docs[c] = doc;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!this.#worse(c, p)) break;
        this.#swap(c, p);
        c = p;
      }
      return;
    }
    if (score <= this.#scores[0]!) return;
    this.#scores[0] = score;
    this.#docs[0] = doc;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.#size && this.#worse(l, m)) m = l;
      if (r < this.#size && this.#worse(r, m)) m = r;
      if (m === i) return;
      this.#swap(i, m);
      i = m;
    }
  }

  /** The kept docs in ascending doc order, scores times `boost`. */
  hits(boost: number): Hits {
    const order = Array.from({ length: this.#size }, (_, i) => i)
      .sort((a, b) => this.#docs[a]! - this.#docs[b]!);
    return {
      docs: Int32Array.from(order, (i) => this.#docs[i]!),
      scores: Float64Array.from(order, (i) => this.#scores[i]! * boost),
    };
  }
}

/** Keeps the `k` best of several targets' kNN hits (ties to the earlier target, then lower doc). */
export function globalTopK(perTarget: readonly Hits[], k: number): Hits[] {
  const all: Array<[number, number, number]> = [];
  perTarget.forEach((h, t) => {
    for (let i = 0; i < h.docs.length; i++) all.push([t, i, h.scores![i]!]);
  });
  if (all.length <= k) return [...perTarget];
  all.sort((a, b) =>
    b[2] - a[2] || a[0] - b[0] || perTarget[a[0]]!.docs[a[1]]! -
      perTarget[b[0]]!.docs[b[1]]!
  );
  const keep = perTarget.map(() => [] as number[]);
  for (const [t, i] of all.slice(0, k)) keep[t]!.push(i);
  return perTarget.map((h, t) => {
    const idx = keep[t]!.sort((a, b) => a - b);
    return {
      docs: Int32Array.from(idx, (i) => h.docs[i]!),
      scores: Float64Array.from(idx, (i) => h.scores![i]!),
    };
  });
}
