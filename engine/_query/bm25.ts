// BM25 scoring as Lucene's BM25Similarity does it (k1 = 1.2, b = 0.75, lengths from norms), and
// as Elasticsearch configures it: its default similarity is LegacyBM25Similarity, which multiplies
// every boost by 1 + k1 (scores 2.2 times Lucene's); OpenSearch 3 uses BM25Similarity as it is.

import { NORM_TABLE } from "../_index/norms.ts";
import type { Posting } from "../_index/segment.ts";
import type { ShardSnapshot } from "../_index/shard_snapshot.ts";

// Lucene computes in 32-bit floats; rounding each step the same way gives the same scores.
const f = Math.fround;
const K1 = f(1.2);
const B = f(0.75);
/** The factor LegacyBM25Similarity applies to every boost: 1 + k1, as a float. */
const LEGACY_BOOST = f(1 + K1);

/** Where a scorer runs: the snapshot, and whether the index scores with LegacyBM25Similarity. */
export interface ScoringScope {
  readonly snapshot: ShardSnapshot;
  /** Elasticsearch's (and OpenSearch 2's) default: every boost times 1 + k1. */
  readonly legacyBm25?: boolean;
}

/** Inverse document frequency as a float: ln(1 + (N - n + 0.5) / (n + 0.5)). */
export function idf(docCount: number, docFreq: number): number {
  return f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

// Per average length (a field's, stable between refreshes): every scorer of a query and of the
// next queries shares one table instead of building 256 entries per term.
const normCaches = new Map<number, Float64Array>();
const MAX_NORM_CACHES = 64;

/** 1 / (k1 * ((1 - b) + b * length / avgdl)) per encoded length, for one average length. */
function normCacheOf(avg: number): Float64Array {
  let cache = normCaches.get(avg);
  if (!cache) {
    if (normCaches.size >= MAX_NORM_CACHES) normCaches.clear();
    cache = new Float64Array(256);
    for (let i = 0; i < 256; i++) {
      cache[i] = f(1 / f(K1 * f(f(1 - B) + f(f(B * f(NORM_TABLE[i]!)) / avg))));
    }
    normCaches.set(avg, cache);
  }
  return cache;
}

/** Scores term (or phrase) frequencies for one field, with norms looked up per doc. */
export class TermScorer {
  readonly #weight: number;
  readonly #normCache: Float64Array;

  /**
   * `idfSum` is the idf of the term (or the sum over a phrase's terms); `boost` multiplies.
   * `avgLength`: the field's average length (`ShardSnapshot.fieldStats`), or the fields' taken
   * as one.
   */
  constructor(scope: ScoringScope, idfSum: number, boost: number, avgLength: number) {
    const b = scope.legacyBm25 ? f(f(boost) * LEGACY_BOOST) : f(boost);
    this.#weight = f(b * f(idfSum));
    this.#normCache = normCacheOf(f(avgLength));
  }

  /** Score of one doc given its frequency and encoded norm (1 when the field has no norms). */
  score(freq: number, norm: number): number {
    const w = this.#weight;
    return f(w - f(w / f(1 + f(f(freq) * this.#normCache[norm]!))));
  }

  /** Scores every doc of a posting list (local ordinals). */
  scorePosting(p: Posting, norms: Uint8Array | null): Float64Array {
    const out = new Float64Array(p.docs.length);
    const freqs = p.freqs;
    for (let i = 0; i < out.length; i++) {
      out[i] = this.score(freqs ? freqs[i]! : 1, norms ? norms[p.docs[i]!]! : 1);
    }
    return out;
  }
}

/** A scorer for one term in a field of a snapshot. */
export function termScorer(
  scope: ScoringScope,
  field: string,
  term: string,
  boost: number,
): TermScorer {
  const snapshot = scope.snapshot;
  const stats = snapshot.fieldStats(field);
  const termIdf = idf(stats.docCount, snapshot.docFreq(field, term));
  return new TermScorer(scope, termIdf, boost, stats.avgLength);
}
