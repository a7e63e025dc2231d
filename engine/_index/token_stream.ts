// Collects (term, doc, position) occurrences in doc order into flat typed arrays, then turns them
// into per-term postings with one counting sort: far fewer allocations than per-term arrays.

import type { Posting } from "./segment.ts";
import { TextPostingsWriter } from "./text_posting.ts";

function grow(a: Int32Array<ArrayBuffer>, min: number): Int32Array<ArrayBuffer> {
  if (a.length >= min) return a;
  const b = new Int32Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}

/** Term occurrences of one field, in the order documents are indexed. */
export class TokenStream {
  readonly #ids = new Map<string, number>();
  readonly #terms: string[] = [];
  #termIds: Int32Array<ArrayBuffer> = new Int32Array(1024);
  #docs: Int32Array<ArrayBuffer> = new Int32Array(1024);
  #positions: Int32Array<ArrayBuffer> = new Int32Array(1024);
  #length = 0;

  /**
   * Records one occurrence; docs must arrive in ascending order, positions ascending within a
   * doc. Returns the stream's own copy of the term (the first one seen), for sharing.
   */
  add(term: string, doc: number, position: number): string {
    let id = this.#ids.get(term);
    if (id === undefined) {
      id = this.#terms.length;
      this.#ids.set(term, id);
      this.#terms.push(term);
    } else term = this.#terms[id]!;
    const n = this.#length;
    if (n === this.#docs.length) {
      this.#termIds = grow(this.#termIds, n + 1);
      this.#docs = grow(this.#docs, n + 1);
      this.#positions = grow(this.#positions, n + 1);
    }
    this.#termIds[n] = id;
    this.#docs[n] = doc;
    this.#positions[n] = position;
    this.#length = n + 1;
    return term;
  }

  /** Builds postings: with frequencies and positions when `withPositions`, else doc lists only. */
  build(withPositions: boolean): Map<string, Posting> {
    const n = this.#length;
    const terms = this.#terms;
    const termCount = terms.length;
    const termIds = this.#termIds;
    const docs = this.#docs;
    const start = new Int32Array(termCount + 1);
    for (let i = 0; i < n; i++) start[termIds[i]! + 1]!++;
    for (let t = 0; t < termCount; t++) start[t + 1]! += start[t]!;
    const cursor = start.slice(0, termCount);
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[cursor[termIds[i]!]!++] = i;
    let out: Map<string, Posting>;
    if (withPositions) {
      const positions = this.#positions;
      const ordered = new Int32Array(n);
      for (let j = 0; j < n; j++) ordered[j] = positions[order[j]!]!;
      const writer = new TextPostingsWriter(n, n);
      for (let t = 0; t < termCount; t++) {
        const to = start[t + 1]!;
        for (let j = start[t]!; j < to;) {
          const d = docs[order[j]!]!;
          let k = j + 1;
          while (k < to && docs[order[k]!]! === d) k++;
          writer.add(d, ordered, j, k);
          j = k;
        }
        writer.endTerm(terms[t]!);
      }
      out = writer.finish();
    } else {
      out = new Map();
      // One shared buffer of doc ordinals; each posting is a view into it.
      const allDocs = new Int32Array(n);
      let docAt = 0;
      for (let t = 0; t < termCount; t++) {
        const docBase = docAt;
        let last = -1;
        for (let j = start[t]!; j < start[t + 1]!; j++) {
          const d = docs[order[j]!]!;
          if (d !== last) allDocs[docAt++] = last = d;
        }
        out.set(terms[t]!, {
          docs: allDocs.subarray(docBase, docAt),
          freqs: null,
          posStart: null,
          positions: null,
        });
      }
    }
    // The occurrence buffers are no longer needed; drop them now rather than with the builder.
    this.#termIds = this.#docs = this.#positions = new Int32Array(0);
    this.#length = 0;
    return out;
  }
}
