// The `filter` of a term vectors request: only the terms with the highest tf-idf scores are
// kept, each with its `score`, as Elasticsearch's term vectors filter selects them (Lucene's
// classic idf over the shard's statistics, a bounded priority queue per field).

import { esError } from "../_errors.ts";
import { isJsonObject } from "../_json.ts";

/** The filter's settings (Elasticsearch's defaults when absent). */
export interface TermFilter {
  maxNumTerms: number;
  minTermFreq: number;
  maxTermFreq: number;
  minDocFreq: number;
  maxDocFreq: number;
  minWordLength: number;
  maxWordLength: number;
}

const KEYS: Record<string, keyof TermFilter> = {
  max_num_terms: "maxNumTerms",
  min_term_freq: "minTermFreq",
  max_term_freq: "maxTermFreq",
  min_doc_freq: "minDocFreq",
  max_doc_freq: "maxDocFreq",
  min_word_length: "minWordLength",
  max_word_length: "maxWordLength",
};

const INT_MAX = 2 ** 31 - 1;

/** Reads a request's `filter` object; undefined when there is none. */
export function termFilterOf(v: unknown): TermFilter | undefined {
  if (v === undefined || v === null) return undefined;
  const filter: TermFilter = {
    maxNumTerms: 25,
    minTermFreq: 0,
    maxTermFreq: INT_MAX,
    minDocFreq: 0,
    maxDocFreq: INT_MAX,
    minWordLength: 0,
    maxWordLength: 0,
  };
  if (!isJsonObject(v)) {
    throw esError(
      "parse_exception",
      "failed to parse term vectors request. the filter parameter must be an object",
    );
  }
  for (const [k, raw] of Object.entries(v)) {
    const key = KEYS[k];
    if (key === undefined) {
      throw esError(
        "parse_exception",
        `failed to parse term vectors request. the field [${k}] is not valid for filter parameter for term vector request`,
      );
    }
    const n = typeof raw === "number" ? Math.trunc(raw) : Number(String(raw).trim());
    if (!Number.isInteger(n)) {
      throw esError("number_format_exception", `For input string: "${String(raw)}"`);
    }
    filter[key] = n;
  }
  return filter;
}

/** A shard's statistics of one field, as the filter reads them. */
export interface FieldTerms {
  /** Documents holding the field (the classic idf's document count). */
  docCount: number;
  /** Each term's document frequency. */
  terms: Map<string, { docFreq: number }>;
}

/** Lucene's classic idf, `ln((docCount + 1) / (docFreq + 1)) + 1`, as a float. */
function idf(docFreq: number, docCount: number): number {
  return Math.fround(Math.log((docCount + 1) / (docFreq + 1)) + 1);
}

interface Scored {
  term: string;
  score: number;
}

/** Lucene's `PriorityQueue` (smallest on top), bounded, replacing its top by a greater score. */
class BoundedQueue {
  readonly heap: Array<Scored | undefined> = [undefined];
  constructor(readonly limit: number) {}

  get size(): number {
    return this.heap.length - 1;
  }

  addOrUpdate(x: Scored): void {
    if (this.size < this.limit) {
      this.heap.push(x);
      this.#up(this.size);
    } else if (this.limit > 0 && this.heap[1]!.score < x.score) {
      this.heap[1] = x;
      this.#down(1);
    }
  }

  #up(at: number): void {
    const heap = this.heap;
    const node = heap[at]!;
    let i = at;
    let j = i >>> 1;
    while (j > 0 && node.score < heap[j]!.score) {
      heap[i] = heap[j];
      i = j;
      j >>>= 1;
    }
    heap[i] = node;
  }

  #down(at: number): void {
    const heap = this.heap;
    const size = this.size;
    const node = heap[at]!;
    let i = at;
    let j = i << 1;
    let k = j + 1;
    if (k <= size && heap[k]!.score < heap[j]!.score) j = k;
    while (j <= size && heap[j]!.score < node.score) {
      heap[i] = heap[j];
      i = j;
      j = i << 1;
      k = j + 1;
      if (k <= size && heap[k]!.score < heap[j]!.score) j = k;
    }
    heap[i] = node;
  }
}

/**
 * The terms of one field the filter keeps, with their scores: `freqs` are the document's terms
 * and their frequencies, `shard` the statistics of its shard (when the shard holds no term of the
 * field, the document's own: one document, each term once).
 *
 * The real engines look each term up in the shard's terms with one enumeration, and a term the
 * shard lacks is given the document frequency the enumeration stands on: the next term's when it
 * lies within the shard's terms, the one the previous lookup stood on when it lies past the last,
 * none (and so left out) when it lies before the first. The rule holds for a term dictionary of
 * one block (some tens of terms), what the engine models.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectTerms } from "./term_vector_filter.ts";
 * // the shard: "bb dd ff", "dd ff", "ff"; the document: "aa cc ff ff" (measured on Elasticsearch 9.5.4)
 * const shard = {
 *   docCount: 3,
 *   terms: new Map([["bb", { docFreq: 1 }], ["dd", { docFreq: 2 }], ["ff", { docFreq: 3 }]]),
 * };
 * const freqs = new Map([["aa", 1], ["cc", 1], ["ff", 2]]);
 * const kept = selectTerms(freqs, shard, { maxNumTerms: 25, minTermFreq: 0, maxTermFreq: 99,
 *   minDocFreq: 0, maxDocFreq: 99, minWordLength: 0, maxWordLength: 0 });
 * assert.deepEqual([...kept.keys()], ["cc", "ff"]);
 * assert.equal(kept.get("ff"), 2);
 * ```
 */
export function selectTerms(
  freqs: ReadonlyMap<string, number>,
  shard: FieldTerms,
  filter: TermFilter,
): Map<string, number> {
  const own = shard.terms.size === 0;
  const known = own ? new Map([...freqs.keys()].map((t) => [t, { docFreq: 1 }])) : shard.terms;
  const docCount = own ? 1 : shard.docCount;
  const sorted = [...known.keys()].sort();
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  let at = 0;
  let standing: string | undefined;
  const queue = new BoundedQueue(Math.min(filter.maxNumTerms, freqs.size));
  for (const term of [...freqs.keys()].sort()) {
    const freq = freqs.get(term)!;
    if (term >= first && term <= last) {
      while (sorted[at]! < term) at++;
      standing = sorted[at]!;
    }
    const docFreq = term < first || standing === undefined ? 0 : known.get(standing)!.docFreq;
    const len = term.length;
    const noise = (filter.minWordLength > 0 && len < filter.minWordLength) ||
      (filter.maxWordLength > 0 && len > filter.maxWordLength) ||
      (filter.minTermFreq > 0 && freq < filter.minTermFreq) || freq > filter.maxTermFreq;
    if (noise) continue;
    if (filter.minDocFreq > 0 && docFreq < filter.minDocFreq) continue;
    if (docFreq > filter.maxDocFreq || docFreq === 0) continue;
    queue.addOrUpdate({ term, score: Math.fround(freq * idf(docFreq, docCount)) });
  }
  const out = new Map<string, number>();
  for (const s of queue.heap) if (s) out.set(s.term, s.score);
  return out;
}
