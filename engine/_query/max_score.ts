// Top k of a scored disjunction (`match`, `multi_match` best/most fields, a `bool` of such
// shoulds, optionally with filters) without scoring every posting: MaxScore (Turtle and Flood)
// over the terms' postings, one segment after another.
//
// Each term's score in a segment is bounded by its BM25 score at the posting's largest frequency
// and shortest field length (both monotone, and every float rounding on the way is monotone too),
// times the boosts above it; a sum or a dis_max (tie_breaker ≤ 1) of non-negative scores is at
// most the sum of its parts' bounds. Terms are ordered by bound; once the heap of the best k is
// full, the terms whose bounds add up to no more than its weakest score are "non-essential": a
// doc matching only those cannot enter, so candidates come from the essential terms alone and
// the others are probed only for docs that could still compete. Hits are counted exactly until
// `track` is passed (then pruning starts; it starts at once when one term alone has more live
// docs than `track`), so `hits.total` is exact up to the threshold and a lower bound beyond it,
// as Elasticsearch reports. Scores are combined node by node in clause order, as the exhaustive
// path's unions combine them: the top k, their order (score, then doc) and their scores are
// those of the exhaustive path.

import { NORM_TABLE } from "../_index/norms.ts";
import type { Posting, SmallInts } from "../_index/segment.ts";
import type { SegmentView } from "../_index/shard_snapshot.ts";
import { type TermScorer, termScorer } from "./bm25.ts";
import { type ExecContext, liveOnly } from "./exec_context.ts";
import { filterHits } from "./query_exec.ts";
import { seek, WorstFirstHeap } from "./score_heap.ts";
import { compilePlan, type TopFirstPlan } from "./top_first_plan.ts";

/** The best hits of a disjunction, best first, and how many live docs matched (capped). */
export interface TopScored {
  /** Global ordinals, best first. */
  readonly docs: Int32Array;
  /** Their scores. */
  readonly scores: Float64Array;
  /** Matching live docs: exact when at most `track`, else `track + 1` (exact with a filter whose docs all match). */
  readonly total: number;
}

interface Clause {
  readonly slot: number;
  readonly docs: Int32Array;
  readonly freqs: SmallInts | null;
  readonly norms: Uint8Array | null;
  readonly scorer: ClauseScorer;
  readonly mult: number;
  readonly ub: number;
  /** The bound of the docs whose frequency is 1 (`ub` when the posting is not split so). */
  readonly low: number;
  /** Docs (ascending) whose frequency is above 1, bounded by `ub`; null: every doc by `ub`. */
  readonly above: Int32Array | null;
  pos: number;
  at: number;
  /** Cursor in `above`. */
  ap: number;
  /** Place in the order by bound (the clauses before `nonEssential` are non-essential). */
  rank: number;
}

/** What a clause's score is read from: its frequency and norm byte in a doc. */
type ClauseScorer = Pick<TermScorer, "score">;

/** A clause that scores `boost` wherever its term is, as a `terms` query does. */
function constantScorer(boost: number): ClauseScorer {
  return { score: () => boost };
}

/** What bounds a posting's scores, whatever the query: see {@link extremesOf}. */
interface Extremes {
  readonly maxFreq: number;
  readonly shortest: number;
  /** Docs whose frequency is above 1 (ascending), or null when more than an eighth are. */
  readonly above: Int32Array | null;
}

const extremes = new WeakMap<Posting, Extremes>();

/** Above 1 in at most this share of a posting's docs: those docs are listed apart. */
const ABOVE_SHARE = 1 / 8;

/**
 * The largest frequency and the norm byte of the shortest field among a posting's docs, and the
 * docs whose frequency is above 1 when they are few: the others (most docs of a short field's
 * terms) are bounded by the score of frequency 1 at the shortest length, far below the bound of
 * the largest frequency.
 */
function extremesOf(p: Posting, norms: Uint8Array | null): Extremes {
  const table = NORM_TABLE;
  let e = extremes.get(p);
  if (!e) {
    let maxFreq = 1;
    let many = 0;
    const freqs = p.freqs;
    if (freqs) {
      for (let i = 0; i < freqs.length; i++) {
        const q = freqs[i]!;
        if (q > 1) many++;
        if (q > maxFreq) maxFreq = q;
      }
    }
    let shortest = 1;
    if (norms) {
      shortest = norms[p.docs[0]!]!;
      for (const d of p.docs) if (table[norms[d]!]! < table[shortest]!) shortest = norms[d]!;
    }
    let above: Int32Array | null = null;
    if (many <= p.docs.length * ABOVE_SHARE) {
      above = new Int32Array(many);
      if (freqs && many > 0) {
        let k = 0;
        for (let i = 0; i < freqs.length; i++) if (freqs[i]! > 1) above[k++] = p.docs[i]!;
      }
    }
    e = { maxFreq, shortest, above };
    extremes.set(p, e);
  }
  return e;
}

/**
 * Whether clause `c`'s bound at `doc` (ascending over calls) is `ub`, not `low`: its frequency
 * there is above 1, or its posting is not split (a boolean: no double to box per call).
 */
function highAt(c: Clause, doc: number): boolean {
  const above = c.above;
  if (above === null) return true;
  let ap = c.ap;
  while (ap < above.length && above[ap]! < doc) ap++;
  c.ap = ap;
  return ap < above.length && above[ap] === doc;
}

const deletions = new WeakMap<Uint8Array, number>();

/** Deleted docs of a segment view (a snapshot's deletion array never changes once taken). */
function deletedCount(v: SegmentView): number {
  const d = v.deleted;
  if (!d) return 0;
  let n = deletions.get(d);
  if (n === undefined) {
    n = 0;
    for (let i = 0; i < d.length; i++) n += d[i]!;
    deletions.set(d, n);
  }
  return n;
}

/** Margin against float rounding when comparing a sum of bounds with a score. */
function bound(x: number): number {
  return x + Math.abs(x) * 1e-9;
}

/**
 * The best `k` live docs (score descending, then doc ascending) of `plan` that match its filter
 * clauses, scored as the exhaustive path scores them. `track`: count hits exactly up to this
 * many (-1 = none).
 */
export function topScored(
  ctx: ExecContext,
  plan: TopFirstPlan,
  k: number,
  track: number,
): TopScored {
  // The live docs of the filter clauses (global ordinals, ascending), or null without any.
  const filter = plan.filter.length
    ? liveOnly(ctx.snapshot, filterHits(plan.filter, ctx)).docs
    : null;
  const program = compilePlan(plan.root);
  const terms = program.clauses;
  const scorers: ClauseScorer[] = terms.map((t) =>
    t.constant ? constantScorer(t.boost) : termScorer(ctx, t.field, t.term, t.boost)
  );
  const slots = terms.length + program.nodes.length;
  // Plain arrays for the per-search scratch: a typed array costs a backing store each (about
  // 250 ns to make in Deno, and work for every scavenge), over 20 of them per search.
  const hit: number[] = new Array(slots).fill(0);
  const val: number[] = new Array(slots).fill(0);
  // Bounds at the current doc, summed (entry 0 stays 0): one array for every segment.
  const here: number[] = new Array(terms.length + 1).fill(0);

  const heap = new WorstFirstHeap(k);
  // One unboosted sum (a `match`, a `bool` of term shoulds): added up here in clause order.
  const root = program.nodes[0]!;
  const flat = program.nodes.length === 1 && !root.dis && root.boost === 1;
  const clauseCount = terms.length;
  const optional = plan.optional && filter !== null;
  let count = 0;
  let counting = !optional && track >= 0;
  if (counting && !filter && liveLowerBound(ctx, terms) > track) {
    counting = false;
    count = track + 1;
  }
  if (optional) count = filter!.length;
  let thr = heap.threshold;
  for (const v of ctx.snapshot.views) {
    hit.fill(0); // a clause whose term this segment lacks must not keep the last segment's hit
    const clauses: Clause[] = [];
    terms.forEach((t, i) => {
      const f = v.segment.fields.get(t.field);
      const p = f?.terms.get(t.term);
      if (!f || !p || p.docs.length === 0) return;
      const norms = f.norms;
      const e = extremesOf(p, norms);
      const scorer = scorers[i]!;
      const mult = program.mults[i]!;
      const ub = scorer.score(e.maxFreq, norms ? e.shortest : 1) * mult;
      const split = e.above !== null && e.maxFreq > 1;
      clauses.push({
        slot: i,
        docs: p.docs,
        freqs: p.freqs,
        norms,
        scorer,
        mult,
        ub,
        low: split ? scorer.score(1, norms ? e.shortest : 1) * mult : ub,
        above: split ? e.above : null,
        pos: 0,
        at: 0,
        ap: 0,
        rank: 0,
      });
    });
    const n = clauses.length;
    if (n === 0) continue;
    // Three clauses or more of one unboosted sum: their bounds summed in clause order, as the
    // score is summed (see below); null otherwise.
    const inOrder = flat && n > 2 && clauses.every((c) => c.mult === 1) ? clauses.slice() : null;
    const byUb = clauses.sort((a, b) => a.ub - b.ub);
    for (let j = 0; j < n; j++) byUb[j]!.rank = j;
    const prefix: number[] = [0];
    for (let j = 0; j < n; j++) prefix.push(prefix[j]! + byUb[j]!.ub);
    const pair = flat && n === 2;
    let nonEssential = 0;
    // One unboosted clause alone scores the root exactly (a sum or dis_max of one adds nothing),
    // so its bound needs no margin: keyword terms, whose docs all score alike, stop at k.
    const firstBound = program.plain[byUb[0]!.slot] === 1 ? prefix[1]! : bound(prefix[1]!);
    if (!counting) nonEssential = essentialFrom(nonEssential, prefix, thr, firstBound);
    const deleted = v.deleted;
    const base = v.base;
    let fpos = filter ? seek(filter, 0, base) : 0;
    for (;;) {
      if (pair && counting && filter === null && thr !== -Infinity) {
        // While hits are counted both clauses are essential: the docs of either that the two
        // bounds rule out are counted and passed over here, as the general loop would count
        // and skip them; it takes the first doc that could still enter, and the counting's end.
        const a = byUb[0]!;
        const b = byUb[1]!;
        const aDocs = a.docs;
        const bDocs = b.docs;
        const aFreqs = a.above !== null ? a.freqs : null;
        const bFreqs = b.above !== null ? b.freqs : null;
        const aLow = a.above !== null ? a.low : a.ub;
        const bLow = b.above !== null ? b.low : b.ub;
        // Whether a doc is ruled out, by which clauses hold it and at what bound (1: `low`).
        const outA1 = 0 + aLow <= thr;
        const outA = 0 + a.ub <= thr;
        const outB1 = 0 + bLow <= thr;
        const outB = 0 + b.ub <= thr;
        const outL1 = 0 + aLow + bLow <= thr;
        const outL = 0 + aLow + b.ub <= thr;
        const outH1 = 0 + a.ub + bLow <= thr;
        const outH = 0 + a.ub + b.ub <= thr;
        let pa = a.pos;
        let pb = b.pos;
        while (count <= track) {
          const da = pa < aDocs.length ? aDocs[pa]! : 0x7fffffff;
          const db = pb < bDocs.length ? bDocs[pb]! : 0x7fffffff;
          if (da === 0x7fffffff && db === 0x7fffffff) break;
          const d = da < db ? da : db;
          const inA = da === d;
          const inB = db === d;
          if (!deleted?.[d]) {
            const lowA = aFreqs === null || aFreqs[pa] === 1;
            const lowB = bFreqs === null || bFreqs[pb] === 1;
            const out = inA
              ? (inB
                ? (lowA ? (lowB ? outL1 : outL) : (lowB ? outH1 : outH))
                : (lowA ? outA1 : outA))
              : (lowB ? outB1 : outB);
            if (!out) break;
            count++;
          }
          if (inA) pa++;
          if (inB) pb++;
        }
        a.pos = pa;
        b.pos = pb;
        counting = count <= track;
      }
      if (pair && nonEssential === 1 && !counting) {
        // The pair's usual state, in a loop of its own: the essential clause's docs that its
        // bound and the other clause's bound at the doc rule out (as the test below would) are
        // passed over without the steps of the general loop.
        const e = byUb[1]!;
        const o = byUb[0]!;
        const docs = e.docs;
        const freqs = e.above !== null ? e.freqs : null;
        const eLow = e.above !== null ? e.low : e.ub;
        const oLow = o.above !== null ? o.low : o.ub;
        // Which of the four sums of bounds (frequency 1 or above, each clause) rule a doc out:
        // numbers fixed for the loop, so it reads integers only.
        const outLL = eLow + oLow <= thr;
        const outLH = eLow + o.ub <= thr;
        const outHL = e.ub + oLow <= thr;
        const outHH = e.ub + o.ub <= thr;
        const above = o.above;
        let ap = o.ap;
        let pos = e.pos;
        while (pos < docs.length) {
          const d = docs[pos]!;
          if (!deleted?.[d]) {
            let oHigh = true;
            if (above !== null) {
              while (ap < above.length && above[ap]! < d) ap++;
              oHigh = ap < above.length && above[ap] === d;
            }
            const out = freqs !== null && freqs[pos] === 1
              ? (oHigh ? outLH : outLL)
              : (oHigh ? outHH : outHL);
            if (!out) break;
          }
          pos++;
        }
        o.ap = ap;
        e.pos = pos;
      }
      let doc = 0x7fffffff;
      for (let j = nonEssential; j < n; j++) {
        const c = byUb[j]!;
        if (c.pos < c.docs.length && c.docs[c.pos]! < doc) doc = c.docs[c.pos]!;
      }
      if (doc === 0x7fffffff) break;
      let ubSum = 0;
      for (let j = 0; j < n; j++) {
        const c = byUb[j]!;
        hit[c.slot] = 0;
        if (j < nonEssential || c.pos >= c.docs.length || c.docs[c.pos] !== doc) continue;
        hit[c.slot] = 1;
        // A split posting's doc of frequency 1 is bounded by `low` (see `extremesOf`).
        ubSum += c.above !== null && c.freqs![c.pos] === 1 ? c.low : c.ub;
        c.at = c.pos++;
      }
      if (deleted?.[doc]) continue;
      if (filter) {
        fpos = seek(filter, fpos, base + doc);
        if (fpos >= filter.length || filter[fpos] !== base + doc) continue;
      }
      if (counting) {
        count++;
        counting = count <= track;
      }
      // The non-essential clauses' bounds at this doc (frequency 1 or above), summed as
      // `prefix` sums the whole postings' bounds.
      for (let j = 0; j < nonEssential; j++) {
        const c = byUb[j]!;
        here[j + 1] = here[j]! + (highAt(c, doc) ? c.ub : c.low);
      }
      // Counted; scored only when it could still enter the heap. Two clauses of one unboosted
      // sum: the score is the one sum of their two scores (in either order, the same double),
      // each at most its bound, and rounding is monotone, so the sum of the bounds bounds it
      // with no margin; a doc scoring the weakest kept score exactly comes later and loses the
      // tie, so it is skipped too.
      const cap = ubSum + here[nonEssential]!;
      if ((pair ? cap : bound(cap)) <= thr) continue;
      // Three clauses or more: the score is their scores added up in clause order from 0 (see
      // `flat` below), each at most its bound here, and each addition's rounding is monotone in
      // both terms, so the same additions of the bounds bound the score with no margin: a doc
      // that can only tie the weakest kept score (it would lose the tie) is not probed.
      if (
        inOrder !== null && thr !== -Infinity && orderedCap(inOrder, nonEssential, hit, doc) <= thr
      ) {
        continue;
      }
      let partial = 0;
      for (let j = nonEssential; j < n; j++) {
        const c = byUb[j]!;
        if (!hit[c.slot]) continue;
        const s = c.scorer.score(c.freqs ? c.freqs[c.at]! : 1, c.norms ? c.norms[doc]! : 1);
        val[c.slot] = s;
        partial += s * c.mult;
      }
      let out = false;
      for (let j = nonEssential - 1; j >= 0; j--) {
        const rest = here[j + 1]!; // (the pair's case as above: `partial` is one clause's score)
        if ((pair ? partial + rest : bound(partial + rest)) <= thr) {
          out = true;
          break;
        }
        const c = byUb[j]!;
        c.pos = seek(c.docs, c.pos, doc);
        if (c.pos < c.docs.length && c.docs[c.pos] === doc) {
          hit[c.slot] = 1;
          const s = c.scorer.score(c.freqs ? c.freqs[c.pos]! : 1, c.norms ? c.norms[doc]! : 1);
          val[c.slot] = s;
          partial += s * c.mult;
        }
      }
      if (out) continue;
      let score = 0;
      if (flat) { for (let i = 0; i < clauseCount; i++) if (hit[i]) score += val[i]!; }
      else score = program.evaluate(hit, val);
      // Once the heap is full `thr` is its weakest score: a doc that does not beat it is left
      // here, without a call that would box its score.
      if (thr !== -Infinity && !(score > thr)) continue;
      if (heap.offer(score, base + doc) && heap.full) {
        thr = heap.threshold;
        if (!counting) nonEssential = essentialFrom(nonEssential, prefix, thr, firstBound);
      }
    }
  }
  if (optional) {
    // Every filter doc matches: those no should clause scores rank last, in doc order, at 0.
    for (let i = 0; i < filter!.length && !heap.full; i++) {
      if (!heap.has(filter![i]!)) heap.offer(0, filter![i]!);
    }
  }
  const { docs, scores } = heap.drain();
  return { docs, scores, total: count };
}

/**
 * The bounds at `doc` of the clauses that may hold it, added in clause order from 0, as a flat
 * sum adds their scores: an essential clause's when it holds the doc (`hit`, at its cursor
 * `at`), a non-essential one's (not probed yet) always.
 */
function orderedCap(
  inOrder: readonly Clause[],
  nonEssential: number,
  hit: readonly number[],
  doc: number,
): number {
  let sum = 0;
  for (let i = 0; i < inOrder.length; i++) {
    const c = inOrder[i]!;
    if (c.rank < nonEssential) sum += highAt(c, doc) ? c.ub : c.low;
    else if (hit[c.slot]) sum += c.above !== null && c.freqs![c.at] === 1 ? c.low : c.ub;
  }
  return sum;
}

/**
 * First essential clause (by ascending bound) once the heap's weakest score is `thr`: the
 * clauses before it add up to no more than `thr`. `prefix[j]`: the sum of the first `j` bounds;
 * `firstBound`: the first clause's bound as compared (`prefix[1]`, with the rounding margin or
 * without it).
 */
function essentialFrom(
  from: number,
  prefix: readonly number[],
  thr: number,
  firstBound: number,
): number {
  let j = from;
  const n = prefix.length - 1;
  while (j < n && (j === 0 ? firstBound : bound(prefix[j + 1]!)) <= thr) j++;
  return j;
}

/** Most live docs any one term has: the disjunction matches at least that many. */
function liveLowerBound(
  ctx: ExecContext,
  terms: readonly { field: string; term: string }[],
): number {
  let best = 0;
  for (const t of terms) {
    let live = 0;
    for (const v of ctx.snapshot.views) {
      const p = v.segment.fields.get(t.field)?.terms.get(t.term);
      if (p) live += Math.max(0, p.docs.length - deletedCount(v));
    }
    if (live > best) best = live;
  }
  return best;
}
