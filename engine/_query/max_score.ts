// Top k of a scored disjunction of terms (a `match` of several words, a `bool` of `term` shoulds) without scoring every
// posting: MaxScore (Turtle and Flood) over the terms' postings, one segment after another.
//
// Each term's score in a segment is bounded by its BM25 score at the posting's largest frequency
// and shortest field length (both monotone, and every float rounding on the way is monotone too).
// Terms are ordered by bound; once the heap of the best k is full, the terms whose bounds add up
// to no more than its weakest score are "non-essential": a doc matching only those cannot enter,
// so candidates come from the essential terms alone and the others are probed only for docs that
// could still compete. Hits are counted exactly until `track` is passed (then pruning starts), so
// `hits.total` is exact up to the threshold and a lower bound beyond it, as Elasticsearch reports.
// Scores add up in term order, as `union` adds them: the top k, their order (score, then doc) and
// their scores are those of the exhaustive path.

import { NORM_TABLE } from "../_index/norms.ts";
import type { Posting } from "../_index/segment.ts";
import { type TermScorer, termScorer } from "./bm25.ts";
import type { ExecContext } from "./exec_context.ts";

/** The best hits of a disjunction, best first, and how many live docs matched (capped). */
export interface TopScored {
  /** Global ordinals, best first. */
  readonly docs: Int32Array;
  /** Their scores. */
  readonly scores: Float64Array;
  /** Matching live docs: exact when at most `track`, else `track + 1`. */
  readonly total: number;
}

interface Clause {
  readonly docs: Int32Array;
  readonly freqs: Int32Array | null;
  readonly norms: Uint8Array | null;
  readonly scorer: TermScorer;
  readonly ub: number;
  pos: number;
  hit: boolean;
  score: number;
}

const extremes = new WeakMap<Posting, { maxFreq: number; shortest: number }>();

/** The largest frequency and the norm byte of the shortest field among a posting's docs. */
function extremesOf(p: Posting, norms: Uint8Array | null): { maxFreq: number; shortest: number } {
  const table = NORM_TABLE;
  let e = extremes.get(p);
  if (!e) {
    let maxFreq = 1;
    if (p.freqs) { for (const q of p.freqs) if (q > maxFreq) maxFreq = q; }
    let shortest = 1;
    if (norms) {
      shortest = norms[p.docs[0]!]!;
      for (const d of p.docs) if (table[norms[d]!]! < table[shortest]!) shortest = norms[d]!;
    }
    e = { maxFreq, shortest };
    extremes.set(p, e);
  }
  return e;
}

/** Margin against float rounding when comparing a sum of bounds with a score. */
function bound(x: number): number {
  return x + Math.abs(x) * 1e-9;
}

/** One optional term of a disjunction: scored by BM25 in its field, times `boost` (> 0). */
export interface TermClause {
  /** Field path (text or keyword). */
  readonly field: string;
  /** The indexed term. */
  readonly term: string;
  /** Score multiplier, > 0. */
  readonly boost: number;
}

/**
 * The best `k` live docs (score descending, then doc ascending) of the disjunction of `terms`,
 * their scores summed in clause order. `track`: count hits exactly up to this many (-1 = none).
 */
export function topScoredTerms(
  ctx: ExecContext,
  terms: readonly TermClause[],
  k: number,
  track: number,
): TopScored {
  const scorers = terms.map((t) => termScorer(ctx.snapshot, t.field, t.term, t.boost));
  const heap = new WorstFirstHeap(k);
  let count = 0;
  let pruning = count > track;
  let thr = -Infinity;
  const threshold = (): number => k === 0 ? Infinity : heap.full ? heap.worstScore : -Infinity;
  if (pruning) thr = threshold();
  for (const v of ctx.snapshot.views) {
    const clauses: Clause[] = [];
    terms.forEach((t, i) => {
      const f = v.segment.fields.get(t.field);
      const p = f?.terms.get(t.term);
      if (!f || !p || p.docs.length === 0) return;
      const norms = f.norms;
      const e = extremesOf(p, norms);
      const scorer = scorers[i]!;
      const ub = scorer.score(e.maxFreq, norms ? e.shortest : 1);
      clauses.push({
        docs: p.docs,
        freqs: p.freqs,
        norms,
        scorer,
        ub,
        pos: 0,
        hit: false,
        score: 0,
      });
    });
    const n = clauses.length;
    if (n === 0) continue;
    const byUb = [...clauses].sort((a, b) => a.ub - b.ub);
    const prefix = new Float64Array(n + 1);
    for (let j = 0; j < n; j++) prefix[j + 1] = prefix[j]! + byUb[j]!.ub;
    let nonEssential = 0;
    const repartition = (): void => {
      while (nonEssential < n && bound(prefix[nonEssential + 1]!) <= thr) nonEssential++;
    };
    if (pruning) repartition();
    const deleted = v.deleted;
    for (;;) {
      let doc = 0x7fffffff;
      for (let j = nonEssential; j < n; j++) {
        const c = byUb[j]!;
        if (c.pos < c.docs.length && c.docs[c.pos]! < doc) doc = c.docs[c.pos]!;
      }
      if (doc === 0x7fffffff) break;
      let partial = 0;
      for (let j = 0; j < n; j++) {
        const c = byUb[j]!;
        c.hit = false;
        if (j < nonEssential || c.pos >= c.docs.length || c.docs[c.pos] !== doc) continue;
        c.hit = true;
        c.score = c.scorer.score(c.freqs ? c.freqs[c.pos]! : 1, c.norms ? c.norms[doc]! : 1);
        partial += c.score;
        c.pos++;
      }
      if (deleted?.[doc]) continue;
      if (pruning && bound(partial + prefix[nonEssential]!) <= thr) continue;
      for (let j = 0; j < nonEssential; j++) {
        const c = byUb[j]!;
        c.pos = seek(c.docs, c.pos, doc);
        if (c.pos < c.docs.length && c.docs[c.pos] === doc) {
          c.hit = true;
          c.score = c.scorer.score(c.freqs ? c.freqs[c.pos]! : 1, c.norms ? c.norms[doc]! : 1);
        }
      }
      let score = 0;
      for (const c of clauses) if (c.hit) score += c.score;
      if (!pruning) {
        count++;
        pruning = count > track;
      }
      heap.offer(score, v.base + doc);
      if (pruning) {
        const next = threshold();
        if (next !== thr) {
          thr = next;
          repartition();
        }
      }
    }
  }
  const { docs, scores } = heap.drain();
  return { docs, scores, total: count };
}

/** First index at or after `from` whose doc is ≥ `target` (galloping, then binary search). */
function seek(docs: Int32Array, from: number, target: number): number {
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

/** A bounded binary heap of (score, doc) with the weakest hit on top; docs arrive ascending. */
class WorstFirstHeap {
  readonly #k: number;
  readonly #scores: number[] = [];
  readonly #docs: number[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  get full(): boolean {
    return this.#scores.length >= this.#k;
  }

  get worstScore(): number {
    return this.#scores[0]!;
  }

  #worse(i: number, j: number): boolean {
    const s = this.#scores;
    return s[i]! < s[j]! || (s[i] === s[j] && this.#docs[i]! > this.#docs[j]!);
  }

  #swap(i: number, j: number): void {
    const s = this.#scores;
    const d = this.#docs;
    [s[i], s[j]] = [s[j]!, s[i]!];
    [d[i], d[j]] = [d[j]!, d[i]!];
  }

  /** Adds a hit if it beats the weakest (a later doc loses a tie). */
  offer(score: number, doc: number): void {
    const s = this.#scores;
    if (this.#k === 0) return;
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
      return;
    }
    if (!(score > s[0]!)) return;
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
  }

  /** The hits, best first. */
  drain(): { docs: Int32Array; scores: Float64Array } {
    const order = [...this.#scores.keys()].sort((a, b) =>
      this.#scores[b]! - this.#scores[a]! || this.#docs[a]! - this.#docs[b]!
    );
    return {
      docs: Int32Array.from(order, (i) => this.#docs[i]!),
      scores: Float64Array.from(order, (i) => this.#scores[i]!),
    };
  }
}
