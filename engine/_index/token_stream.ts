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

/** A term's hash over its UTF-16 code units (the same for a string and for lower-cased chars). */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return h ^ (h >>> 13);
}

function hashOf(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return mix(h);
}

/** Upper-case ASCII letters folded to lower case; any other code unit unchanged. */
function lower(c: number): number {
  return c >= 65 && c <= 90 ? c | 32 : c;
}

/**
 * Term occurrences of one field, in the order documents are indexed. Terms get ids from an
 * open-addressing table keyed by a hash of their chars, so a token read straight from the text
 * ({@link TokenStream.addLowerAscii}) costs no string unless its term is new to the stream.
 */
export class TokenStream {
  readonly #terms: string[] = [];
  /** Hash of each term by id, to rebuild the table when it grows. */
  #hashes: Int32Array<ArrayBuffer> = new Int32Array(64);
  /** Open-addressing slots: term id + 1, 0 when empty; twice the terms at least. */
  #table: Int32Array<ArrayBuffer> = new Int32Array(128);
  #termIds: Int32Array<ArrayBuffer> = new Int32Array(1024);
  #docs: Int32Array<ArrayBuffer> = new Int32Array(1024);
  #positions: Int32Array<ArrayBuffer> = new Int32Array(1024);
  #length = 0;
  /** The document {@link TokenStream.addLowerAscii} records into: set before streaming its text. */
  doc = 0;

  /**
   * Records one occurrence; docs must arrive in ascending order, positions ascending within a
   * doc. Returns the stream's own copy of the term (the first one seen), for sharing.
   */
  add(term: string, doc: number, position: number): string {
    const h = hashOf(term);
    const table = this.#table;
    const mask = table.length - 1;
    let slot = h & mask;
    let id = -1;
    for (let e = table[slot]!; e !== 0; e = table[slot = (slot + 1) & mask]!) {
      if (this.#hashes[e - 1] === h && this.#terms[e - 1] === term) {
        id = e - 1;
        break;
      }
    }
    if (id < 0) id = this.#newTerm(term, h, slot);
    this.#push(id, doc, position);
    return this.#terms[id]!;
  }

  /**
   * Records `text.slice(from, to)` lower-cased as one occurrence, as {@link TokenStream.add}
   * does; for chars where upper-case ASCII letters are the only ones that change.
   */
  addLowerAscii(text: string, from: number, to: number, position: number): void {
    const doc = this.doc;
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ lower(text.charCodeAt(i)), 0x01000193);
    h = mix(h);
    const table = this.#table;
    const mask = table.length - 1;
    const terms = this.#terms;
    const length = to - from;
    let slot = h & mask;
    for (let e = table[slot]!; e !== 0; e = table[slot = (slot + 1) & mask]!) {
      if (this.#hashes[e - 1] !== h) continue;
      const term = terms[e - 1]!;
      if (term.length !== length) continue;
      let k = 0;
      while (k < length && term.charCodeAt(k) === lower(text.charCodeAt(from + k))) k++;
      if (k === length) {
        this.#push(e - 1, doc, position);
        return;
      }
    }
    const id = this.#newTerm(text.slice(from, to).toLowerCase(), h, slot);
    this.#push(id, doc, position);
  }

  /** Registers a term not yet seen at the empty `slot` its probe ended on; returns its id. */
  #newTerm(term: string, h: number, slot: number): number {
    const id = this.#terms.length;
    this.#terms.push(term);
    if (id === this.#hashes.length) {
      const hashes = new Int32Array(id * 2);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    this.#hashes[id] = h;
    this.#table[slot] = id + 1;
    if ((id + 1) * 2 > this.#table.length) {
      const table = new Int32Array(this.#table.length * 2);
      const mask = table.length - 1;
      for (let t = 0; t <= id; t++) {
        let s = this.#hashes[t]! & mask;
        while (table[s] !== 0) s = (s + 1) & mask;
        table[s] = t + 1;
      }
      this.#table = table;
    }
    return id;
  }

  #push(id: number, doc: number, position: number): void {
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
