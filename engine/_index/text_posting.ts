// A text field's posting, stored lean: frequencies only for terms that occur more than once in
// some document (null means 1 everywhere), and the per-doc offsets into the positions computed
// from the frequencies the first time a phrase or span query asks for them.

import type { Posting, SmallInts } from "./segment.ts";

/**
 * `values` in the narrowest unsigned array that holds them all (bytes for the positions of
 * short fields and for most frequencies); a copy.
 */
export function narrowed(values: Int32Array): SmallInts {
  const steps = narrowedSteps(values, values.length || 1);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** {@link narrowed} in steps of `block` values (the same array). */
export function* narrowedSteps(
  values: Int32Array,
  block: number,
): Generator<void, SmallInts, void> {
  let max = 0;
  for (let from = 0; from < values.length; from += block) {
    if (from > 0) yield;
    max = Math.max(max, maxOf(values.subarray(from, from + block)));
  }
  const out = max < 256
    ? new Uint8Array(values.length)
    : max < 65536
    ? new Uint16Array(values.length)
    : new Int32Array(values.length);
  for (let from = 0; from < values.length; from += block) {
    yield;
    out.set(values.subarray(from, from + block), from);
  }
  return out;
}

function maxOf(values: Int32Array): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}

/**
 * The posting of one term of a text field (see the module comment).
 *
 * @example
 * ```ts
 * import { TextPosting } from "./text_posting.ts";
 * const p = new TextPosting(Int32Array.of(2, 5), Int32Array.of(1, 2), Int32Array.of(0, 3, 7));
 * console.assert(String(p.posStart) === "0,1,3");
 * ```
 */
export class TextPosting implements Posting {
  // Until first read, the segment's shared arrays and this term's place in them: the three views
  // (about 100 bytes each) are made then, once. Most terms of a segment are never read before
  // a merge drops it, and a million documents hold some 100,000 postings.
  #shared: SharedPostings | null;
  #term: number;
  #docs: Int32Array | null;
  #freqs: SmallInts | null;
  #positions: SmallInts | null;
  #posStart: Int32Array | null = null;

  constructor(docs: Int32Array, freqs: SmallInts | null, positions: SmallInts) {
    this.#shared = null;
    this.#term = 0;
    this.#docs = docs;
    this.#freqs = freqs;
    this.#positions = positions;
  }

  /** The posting of term `term` of `shared`, its views made on first read. */
  static lazy(shared: SharedPostings, term: number): TextPosting {
    const p = new TextPosting(EMPTY_DOCS, null, EMPTY_DOCS);
    p.#docs = null;
    p.#positions = null;
    p.#shared = shared;
    p.#term = term;
    return p;
  }

  /** Doc ordinals. */
  get docs(): Int32Array {
    if (this.#shared) this.#open(this.#shared);
    return this.#docs!;
  }

  /** Term frequency per doc; null when it is 1 in every doc. */
  get freqs(): SmallInts | null {
    if (this.#shared) this.#open(this.#shared);
    return this.#freqs;
  }

  /** Token positions, doc by doc. */
  get positions(): SmallInts {
    if (this.#shared) this.#open(this.#shared);
    return this.#positions!;
  }

  #open(shared: SharedPostings): void {
    const { spans } = shared;
    const at = this.#term * 5;
    const d0 = spans[at]!;
    const d1 = spans[at + 1]!;
    const f0 = spans[at + 2]!;
    this.#docs = shared.docs.subarray(d0, d1);
    this.#freqs = f0 < 0 ? null : shared.freqs.subarray(f0, f0 + d1 - d0);
    this.#positions = shared.positions.subarray(spans[at + 3]!, spans[at + 4]!);
    this.#shared = null;
  }

  /**
   * The typed arrays it holds, without making its views (for measuring memory): its views once
   * read, else the arrays it shares with its segment's other terms.
   */
  get heldArrays(): ReadonlyArray<readonly [Held, ArrayBufferView]> {
    const shared = this.#shared;
    const held: Array<readonly [Held, ArrayBufferView | null]> = shared
      ? [
        ["postings", shared.docs],
        ["postings", shared.freqs],
        ["positions", shared.positions],
        ["terms", shared.spans],
      ]
      : [["postings", this.#docs], ["postings", this.#freqs], ["positions", this.#positions]];
    if (this.#posStart) held.push(["positions", this.#posStart]);
    return held.filter((h): h is readonly [Held, ArrayBufferView] => h[1] !== null);
  }

  /** Offsets into `positions` per doc (length docs + 1), computed once. */
  get posStart(): Int32Array {
    if (this.#posStart) return this.#posStart;
    const docs = this.docs;
    const n = docs.length;
    const start = new Int32Array(n + 1);
    const freqs = this.freqs;
    for (let i = 0; i < n; i++) start[i + 1] = start[i]! + (freqs ? freqs[i]! : 1);
    return this.#posStart = start;
  }
}

const EMPTY_DOCS = new Int32Array(0);

/** What a posting's array is counted as (see heap_bytes.ts). */
type Held = "postings" | "positions" | "terms";

/** The arrays the postings of one field of a segment share, and each term's place in them. */
interface SharedPostings {
  readonly docs: Int32Array;
  readonly freqs: SmallInts;
  readonly positions: SmallInts;
  /** Per term: doc start, doc end, freq start (-1 = none), position start, position end. */
  readonly spans: Int32Array;
}

/**
 * Collects text postings into shared buffers: each term's docs, frequencies (kept only when some
 * exceed 1) and positions, appended term by term; `finish` gives the postings.
 */
export class TextPostingsWriter {
  readonly #docs: Int32Array;
  readonly #freqs: Int32Array;
  readonly #positions: Int32Array;
  #docAt = 0;
  #freqAt = 0;
  #posAt = 0;
  #termDocs = 0;
  #termPositions = 0;
  #termNeedsFreqs = false;
  readonly #terms: string[] = [];
  /** Per term: doc start, doc end, freq start (-1 = none), position start, position end. */
  #spans: number[] = [];

  /** Room for `docs` postings entries and `positions` positions in all. */
  constructor(docs: number, positions: number) {
    this.#docs = new Int32Array(docs);
    this.#freqs = new Int32Array(docs);
    this.#positions = new Int32Array(positions);
  }

  /** One doc of the current term, with its positions `positions[from..to)`. */
  add(doc: number, positions: ArrayLike<number>, from: number, to: number): void {
    this.#docs[this.#docAt + this.#termDocs] = doc;
    this.#freqs[this.#freqAt + this.#termDocs] = to - from;
    if (to - from !== 1) this.#termNeedsFreqs = true;
    this.#termDocs++;
    const out = this.#positions;
    let at = this.#posAt + this.#termPositions;
    for (let j = from; j < to; j++) out[at++] = positions[j]!;
    this.#termPositions += to - from;
  }

  /** Ends the current term (dropped when it got no docs). */
  endTerm(term: string): void {
    const n = this.#termDocs;
    if (n > 0) {
      this.#terms.push(term);
      this.#spans.push(
        this.#docAt,
        this.#docAt + n,
        this.#termNeedsFreqs ? this.#freqAt : -1,
        this.#posAt,
        this.#posAt + this.#termPositions,
      );
      this.#docAt += n;
      if (this.#termNeedsFreqs) this.#freqAt += n;
      this.#posAt += this.#termPositions;
    }
    this.#termDocs = 0;
    this.#termPositions = 0;
    this.#termNeedsFreqs = false;
  }

  /** The postings by term; buffers trimmed to what was used. */
  finish(): Map<string, TextPosting> {
    const steps = this.finishSteps(Math.max(1, this.#posAt, this.#docAt));
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  }

  /** {@link TextPostingsWriter.finish} in steps of `block` entries (a merge's pauses). */
  *finishSteps(block: number): Generator<void, Map<string, TextPosting>, void> {
    const docs = new Int32Array(this.#docAt);
    for (let from = 0; from < docs.length; from += block) {
      if (from > 0) yield;
      docs.set(this.#docs.subarray(from, Math.min(from + block, docs.length)), from);
    }
    const positions = yield* narrowedSteps(this.#positions.subarray(0, this.#posAt), block);
    const freqs = yield* narrowedSteps(this.#freqs.subarray(0, this.#freqAt), block);
    const out = new Map<string, TextPosting>();
    const shared: SharedPostings = { docs, freqs, positions, spans: Int32Array.from(this.#spans) };
    for (let t = 0; t < this.#terms.length; t++) {
      out.set(this.#terms[t]!, TextPosting.lazy(shared, t));
    }
    this.#spans = [];
    return out;
  }
}
