// A frozen view of a shard: its segments with their deletions at one moment.

import type { Segment } from "./segment.ts";
import type { StoredDoc } from "./types.ts";

/** One segment inside a snapshot, with its deletions and its first global doc ordinal. */
export interface SegmentView {
  /** The immutable segment. */
  readonly segment: Segment;
  /** 1 = deleted, per local ordinal; null when nothing is deleted. */
  readonly deleted: Uint8Array | null;
  /** Global ordinal of local doc 0. */
  readonly base: number;
}

/** Term statistics across a snapshot, as BM25 needs them. */
export interface FieldStats {
  /** Docs having the field. */
  readonly docCount: number;
  /** Average field length. */
  readonly avgLength: number;
}

/** Terms whose doc counts a snapshot keeps before it starts over. */
const MAX_DOC_FREQS = 4096;

/** An immutable point-in-time view of a shard, cheap to create and to hold for scroll or PIT. */
export class ShardSnapshot {
  /** Segments in global ordinal order. */
  readonly views: readonly SegmentView[];
  /** Total ordinals (live and deleted). */
  readonly maxDoc: number;
  /** Live documents. */
  readonly docCount: number;
  readonly #fieldStats = new Map<string, FieldStats>();
  // Per field and term: each scored term of each search looked it up in every segment.
  readonly #docFreqs = new Map<string, Map<string, number>>();
  #docFreqCount = 0;

  constructor(views: readonly SegmentView[], docCount: number) {
    this.views = views;
    const last = views[views.length - 1];
    this.maxDoc = last ? last.base + last.segment.maxDoc : 0;
    this.docCount = docCount;
  }

  /** The stored document at a global ordinal. */
  doc(global: number): StoredDoc {
    const v = this.viewOf(global);
    return v.segment.docs[global - v.base]!;
  }

  /** The segment view holding a global ordinal. */
  viewOf(global: number): SegmentView {
    const views = this.views;
    let lo = 0;
    let hi = views.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (views[mid]!.base <= global) lo = mid;
      else hi = mid - 1;
    }
    return views[lo]!;
  }

  /** Field statistics (deleted docs count until merged away, as in Lucene). */
  fieldStats(field: string): FieldStats {
    let stats = this.#fieldStats.get(field);
    if (!stats) {
      let docCount = 0;
      let sum = 0;
      for (const v of this.views) {
        const f = v.segment.fields.get(field);
        if (!f) continue;
        docCount += f.present.length;
        sum += f.sumTotalTermFreq;
      }
      stats = { docCount, avgLength: docCount ? sum / docCount : 1 };
      this.#fieldStats.set(field, stats);
    }
    return stats;
  }

  /** Number of docs containing `term` in `field`, across segments (kept: a snapshot never changes). */
  docFreq(field: string, term: string): number {
    let terms = this.#docFreqs.get(field);
    const known = terms?.get(term);
    if (known !== undefined) return known;
    let n = 0;
    for (const v of this.views) n += v.segment.fields.get(field)?.terms.get(term)?.docs.length ?? 0;
    if (this.#docFreqCount >= MAX_DOC_FREQS) {
      this.#docFreqs.clear();
      this.#docFreqCount = 0;
      terms = undefined;
    }
    if (!terms) this.#docFreqs.set(field, terms = new Map());
    terms.set(term, n);
    this.#docFreqCount++;
    return n;
  }
}
