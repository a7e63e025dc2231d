// Sorted doc-ordinal sets with optional scores, and the boolean operations the executor needs.

/** Matching docs (global ordinals, ascending) with their scores, or null scores when not scoring. */
export interface Hits {
  /** Doc ordinals, ascending, unique. */
  readonly docs: Int32Array;
  /** Score per doc, or null (filter context). */
  readonly scores: Float64Array | null;
}

/** The empty set. */
export const NO_HITS: Hits = { docs: new Int32Array(0), scores: null };

/**
 * Whether a query runs in query context (`"score"`: each match is scored) or in filter context
 * (`"filter"`: only which docs match counts, and `Hits.scores` is null), Elasticsearch's two
 * contexts (Lucene's `ScoreMode.COMPLETE` and `COMPLETE_NO_SCORES`).
 */
export type Scoring = "score" | "filter";

/** Docs that all carry the same score (or none in filter context). */
export function constantHits(docs: Int32Array, score: number, scoring: Scoring): Hits {
  return { docs, scores: scoring === "score" ? new Float64Array(docs.length).fill(score) : null };
}

/** Docs in both sets; scores add up. */
export function intersect(a: Hits, b: Hits): Hits {
  const n = Math.min(a.docs.length, b.docs.length);
  const docs = new Int32Array(n);
  const scoring = a.scores !== null || b.scores !== null;
  const scores = scoring ? new Float64Array(n) : null;
  let i = 0;
  let j = 0;
  let k = 0;
  const ad = a.docs;
  const bd = b.docs;
  while (i < ad.length && j < bd.length) {
    const x = ad[i]!;
    const y = bd[j]!;
    if (x < y) i++;
    else if (x > y) j++;
    else {
      docs[k] = x;
      if (scores) scores[k] = (a.scores?.[i] ?? 0) + (b.scores?.[j] ?? 0);
      k++;
      i++;
      j++;
    }
  }
  return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
}

/** Docs of `a` that are not in `b`; scores of `a` kept. */
export function subtract(a: Hits, b: Hits): Hits {
  if (b.docs.length === 0) return a;
  const docs = new Int32Array(a.docs.length);
  const scores = a.scores ? new Float64Array(a.docs.length) : null;
  let j = 0;
  let k = 0;
  for (let i = 0; i < a.docs.length; i++) {
    const x = a.docs[i]!;
    while (j < b.docs.length && b.docs[j]! < x) j++;
    if (j < b.docs.length && b.docs[j] === x) continue;
    docs[k] = x;
    if (scores) scores[k] = a.scores![i]!;
    k++;
  }
  return { docs: docs.subarray(0, k), scores: scores ? scores.subarray(0, k) : null };
}

/** Result of a union that also counts how many inputs matched each doc. */
export interface CountedHits extends Hits {
  /** Number of input sets containing each doc. */
  readonly counts: Uint16Array;
}

/**
 * Docs in any set, scores summed, with per-doc match counts (a `bool`'s shoulds, a `match`'s
 * terms). Uses a dense accumulator when the inputs are large.
 */
export function union(lists: readonly Hits[], maxDoc: number): CountedHits {
  return unite(lists, maxDoc, null);
}

/**
 * Docs in any set, scored as a `dis_max` scores them: the best score plus `tieBreaker` × the
 * others, with per-doc match counts.
 */
export function disMax(lists: readonly Hits[], maxDoc: number, tieBreaker: number): CountedHits {
  return unite(lists, maxDoc, tieBreaker);
}

/** `union` (`tieBreaker` null: scores add up) or `disMax` (the best plus `tieBreaker` × the rest). */
function unite(lists: readonly Hits[], maxDoc: number, tieBreaker: number | null): CountedHits {
  const dis = tieBreaker !== null;
  const tie = tieBreaker ?? 0;
  const live = lists.filter((l) => l.docs.length > 0);
  const scoring = lists.some((l) => l.scores !== null);
  let total = 0;
  for (const l of live) total += l.docs.length;
  if (live.length === 1 && !dis) {
    return { ...live[0]!, counts: new Uint16Array(live[0]!.docs.length).fill(1) };
  }
  if (live.length <= MERGE_LISTS && (total * 8 < maxDoc || live.length <= DENSE_MERGE_LISTS)) {
    return mergeUnion(live, total, scoring ? new Float64Array(total) : null, tieBreaker);
  }
  const acc = new Float64Array(scoring ? maxDoc : 0);
  const best = dis && scoring ? new Float64Array(maxDoc) : null;
  const count = new Uint16Array(maxDoc);
  for (const l of live) {
    const d = l.docs;
    const s = l.scores;
    for (let i = 0; i < d.length; i++) {
      const doc = d[i]!;
      count[doc]!++;
      if (s) {
        const v = s[i]!;
        acc[doc]! += v;
        if (best && v > best[doc]!) best[doc] = v;
      }
    }
  }
  const out = new Int32Array(Math.min(total, maxDoc));
  let k = 0;
  if (total * 8 < maxDoc) {
    // Sparse: gather candidates and sort them rather than scanning every ordinal.
    const seen = new Int32Array(total);
    let n = 0;
    for (const l of live) for (const doc of l.docs) seen[n++] = doc;
    seen.sort();
    for (let i = 0; i < n; i++) if (i === 0 || seen[i] !== seen[i - 1]) out[k++] = seen[i]!;
  } else {
    for (let doc = 0; doc < maxDoc; doc++) if (count[doc]) out[k++] = doc;
  }
  const docs = out.subarray(0, k);
  const counts = new Uint16Array(k);
  const scores = scoring ? new Float64Array(k) : null;
  for (let i = 0; i < k; i++) {
    const doc = docs[i]!;
    counts[i] = count[doc]!;
    if (scores) scores[i] = best ? best[doc]! + tie * (acc[doc]! - best[doc]!) : acc[doc]!;
  }
  return { docs, scores, counts };
}

/** Up to this many sparse inputs are merged list by list instead of through dense arrays. */
const MERGE_LISTS = 8;

/**
/**
 * Up to this many inputs are merged however dense they are: two lists cost less merged than two
 * arrays of `maxDoc` entries filled and scanned (at a million documents, two common words' lists
 * merge in a fraction of the dense path's time; three merged by the general loop cost more).
 */
const DENSE_MERGE_LISTS = 2;

/**
 * `unite` of a few sparse sets by merging their ascending lists: no arrays of `maxDoc` entries
 * (10 MB per query at a million documents) and no sort. Scores add up in input order, as the
 * dense path adds them, so both give the same numbers. `scores`: `total` entries to fill, or
 * null when no input is scored.
 */
function mergeUnion(
  live: readonly Hits[],
  total: number,
  scores: Float64Array | null,
  tieBreaker: number | null,
): CountedHits {
  const n = live.length;
  const at = new Int32Array(n);
  const docs = new Int32Array(total);
  const counts = new Uint16Array(total);
  let k = 0;
  if (n === 2) {
    // Two lists (a two-word match): one merge step per doc. Sums and maxima start from 0 and
    // take the lists in order, as the general loop below does, so the numbers are the same.
    const ad = live[0]!.docs;
    const bd = live[1]!.docs;
    const as = live[0]!.scores;
    const bs = live[1]!.scores;
    let i = 0;
    let j = 0;
    while (i < ad.length || j < bd.length) {
      const x = i < ad.length ? ad[i]! : 2147483647;
      const y = j < bd.length ? bd[j]! : 2147483647;
      let sum = 0;
      let best = 0;
      if (x <= y) {
        docs[k] = x;
        counts[k] = x === y ? 2 : 1;
        if (as) {
          const v = as[i]!;
          sum += v;
          if (v > best) best = v;
        }
        i++;
        if (x === y) {
          if (bs) {
            const v = bs[j]!;
            sum += v;
            if (v > best) best = v;
          }
          j++;
        }
      } else {
        docs[k] = y;
        counts[k] = 1;
        if (bs) {
          const v = bs[j]!;
          sum += v;
          if (v > best) best = v;
        }
        j++;
      }
      if (scores) scores[k] = tieBreaker !== null ? best + tieBreaker * (sum - best) : sum;
      k++;
    }
    return {
      docs: docs.subarray(0, k),
      scores: scores ? scores.subarray(0, k) : null,
      counts: counts.subarray(0, k),
    };
  }
  for (;;) {
    let min = 2147483647;
    for (let l = 0; l < n; l++) {
      const d = live[l]!.docs;
      if (at[l]! < d.length && d[at[l]!]! < min) min = d[at[l]!]!;
    }
    if (min === 2147483647) break;
    let count = 0;
    let sum = 0;
    let best = 0;
    for (let l = 0; l < n; l++) {
      const list = live[l]!;
      const i = at[l]!;
      if (i >= list.docs.length || list.docs[i] !== min) continue;
      count++;
      const s = list.scores;
      if (s) {
        const v = s[i]!;
        sum += v;
        if (v > best) best = v;
      }
      at[l] = i + 1;
    }
    docs[k] = min;
    counts[k] = count;
    if (scores) scores[k] = tieBreaker !== null ? best + tieBreaker * (sum - best) : sum;
    k++;
  }
  return {
    docs: docs.subarray(0, k),
    scores: scores ? scores.subarray(0, k) : null,
    counts: counts.subarray(0, k),
  };
}

/** Keeps the docs whose match count reaches `min`. */
export function atLeast(hits: CountedHits, min: number): Hits {
  if (min <= 1) return hits;
  const docs: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < hits.docs.length; i++) {
    if (hits.counts[i]! >= min) {
      docs.push(hits.docs[i]!);
      if (hits.scores) scores.push(hits.scores[i]!);
    }
  }
  return { docs: Int32Array.from(docs), scores: hits.scores ? Float64Array.from(scores) : null };
}

/** Multiplies all scores by `boost`. */
export function boostHits(hits: Hits, boost: number): Hits {
  if (boost === 1 || !hits.scores) return hits;
  return { docs: hits.docs, scores: hits.scores.map((s) => s * boost) };
}
