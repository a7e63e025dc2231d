// A stored document that keeps its `_source` as the text it was sent as. The parsed object is
// only held until the document is indexed into a segment; then the text moves into the
// segment's UTF-8 source store and each read parses it again. A million small documents then
// cost their text's bytes, not a string plus a tree of objects each.

import { keepSourceText } from "./raw_source.ts";
import { SourceStore, type StoredText } from "./source_store.ts";
import type { StoredDoc } from "./types.ts";

/** What a write hands a {@link KeptDoc}: the document as sent, and its version and sequence number. */
export interface KeptWrite {
  /** The `_id`. */
  readonly id: string;
  /** The source, parsed from `text`. */
  readonly source: Record<string, unknown>;
  /** The source's JSON text, as it was sent. */
  readonly text: string;
  /** The `_version`. */
  readonly version: number;
  /** The `_seq_no`. */
  readonly seqNo: number;
}

/** A document whose source lives as its original JSON text (see the module comment). */
export class KeptDoc implements StoredDoc {
  /** The `_id`. */
  readonly id: string;
  /** The `_version`. */
  version: number;
  /** The `_seq_no`. */
  seqNo: number;
  /**
   * The `_primary_term` (one node, never failed over: always 1). An own property, not a getter:
   * copies made by spreading a document keep it.
   */
  readonly primaryTerm = 1;
  /** Custom routing, when given at index time. */
  declare routing?: string;
  #data: string | SourceStore;
  // Until packed, the source parsed at write time (null once dropped); once packed, the text's
  // place in its store. One slot for both: a million documents keep 8 bytes less each.
  #at: number | Record<string, unknown> | null;

  /**
   * `written.source` is `written.text` parsed; it is kept until the document is packed (see
   * {@link packSources}).
   */
  constructor(written: KeptWrite) {
    this.id = written.id;
    this.version = written.version;
    this.seqNo = written.seqNo;
    this.#data = written.text;
    this.#at = written.source;
  }

  /** The source parsed at write time, while it is kept (before packing). */
  get #parsed(): Record<string, unknown> | null {
    const at = this.#at;
    return typeof at === "number" ? null : at;
  }

  /**
   * The `_source` object: the one parsed at write time until the document is packed, then a
   * fresh parse of the text on each read (its text is kept beside it for exact replies).
   */
  get source(): Record<string, unknown> {
    if (this.#parsed) {
      // Its text goes beside it for exact replies only when someone reads it.
      keepSourceText(this.#parsed, this.#data as string);
      return this.#parsed;
    }
    const text = this.text;
    const source = JSON.parse(text) as Record<string, unknown>;
    keepSourceText(source, text);
    return source;
  }

  /** The JSON text the source was sent as (trimmed). */
  get text(): string {
    const data = this.#data;
    return typeof data === "string" ? data : data.text(this.#at as number);
  }

  /** The length of its text: UTF-8 bytes once packed, UTF-16 units before. */
  get textLength(): number {
    const data = this.#data;
    return typeof data === "string" ? data.length : data.byteLength(this.#at as number);
  }

  /** Where its text lives (for measuring memory): a string, or the store it was packed into. */
  get data(): string | SourceStore {
    return this.#data;
  }

  /** A parse of the source for indexing, without remembering its text. */
  parse(): Record<string, unknown> {
    return this.#parsed ?? JSON.parse(this.text) as Record<string, unknown>;
  }

  /** The text for packing into a new store: the string, or its bytes in the current store. */
  get #stored(): StoredText | null {
    const data = this.#data;
    if (typeof data !== "string") return { store: data, at: this.#at as number };
    // A lone surrogate would not survive UTF-8: such a text stays a string.
    return data.isWellFormed() ? data : null;
  }

  /**
   * Moves the texts of the kept documents among `docs` into one new store and drops their
   * parsed objects: from then on their sources are read from the store.
   */
  static pack(docs: readonly StoredDoc[]): void {
    const steps = KeptDoc.packSteps(docs, docs.length || 1);
    while (!steps.next().done);
  }

  /**
   * {@link KeptDoc.pack} in steps of `block` documents, yielding between them (a background
   * merge packs its segment so). A document read meanwhile gives the same text: from its old
   * string or store until it moves, from the new store after.
   */
  static *packSteps(docs: readonly StoredDoc[], block: number): Generator<void, void, void> {
    const kept: KeptDoc[] = [];
    const texts: StoredText[] = [];
    for (let from = 0; from < docs.length; from += block) {
      if (from > 0) yield;
      KeptDoc.#gather(docs, { from, to: Math.min(from + block, docs.length) }, { kept, texts });
    }
    if (kept.length === 0) return;
    yield;
    const store = yield* SourceStore.ofSteps(texts, block);
    for (let from = 0; from < kept.length; from += block) {
      yield;
      for (let i = from; i < Math.min(from + block, kept.length); i++) {
        kept[i]!.#data = store;
        kept[i]!.#at = i;
      }
    }
  }

  /** The kept documents among `docs` (a range of them) and their texts, parsed objects dropped. */
  static #gather(
    docs: readonly StoredDoc[],
    range: { from: number; to: number },
    into: { kept: KeptDoc[]; texts: StoredText[] },
  ): void {
    const { kept, texts } = into;
    for (let i = range.from; i < range.to; i++) {
      const d = docs[i];
      if (!(d instanceof KeptDoc)) continue;
      if (typeof d.#data === "string") d.#at = null;
      const stored = d.#stored;
      if (stored === null) continue;
      kept.push(d);
      texts.push(stored);
    }
  }
}

/**
 * The size of a document's source for store statistics: its kept text's length, else the length
 * of the source written as JSON (no parse of a kept document's text).
 */
export function sourceSize(doc: StoredDoc): number {
  return doc instanceof KeptDoc ? doc.textLength : JSON.stringify(doc.source).length;
}
