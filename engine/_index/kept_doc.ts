// A stored document that keeps its `_source` as the text it was sent as. The parsed object is
// only held until the document is indexed into a segment; after that each read parses the text
// again. A million small documents then cost their text, not their text plus a tree of objects.

import { keepSourceText } from "./raw_source.ts";
import type { StoredDoc } from "./types.ts";

/** A document whose source lives as its original JSON text (see the module comment). */
export class KeptDoc implements StoredDoc {
  /** The `_id`. */
  readonly id: string;
  /** The `_version`. */
  version: number;
  /** The `_seq_no`. */
  seqNo: number;
  /** The `_primary_term`. */
  primaryTerm: number;
  /** Custom routing, when given at index time. */
  declare routing?: string;
  #text: string;
  #parsed: Record<string, unknown> | null;

  /** `parsed` is `text` parsed; it is kept until {@link KeptDoc.compact}. */
  constructor(
    id: string,
    parsed: Record<string, unknown>,
    text: string,
    version: number,
    seqNo: number,
  ) {
    this.id = id;
    this.version = version;
    this.seqNo = seqNo;
    this.primaryTerm = 1;
    this.#text = text;
    this.#parsed = parsed;
  }

  /**
   * The `_source` object: the one parsed at write time until the document is indexed, then a
   * fresh parse of the text on each read (its text is kept beside it for exact replies).
   */
  get source(): Record<string, unknown> {
    if (this.#parsed) return this.#parsed;
    const source = JSON.parse(this.#text) as Record<string, unknown>;
    keepSourceText(source, this.#text);
    return source;
  }

  /** The JSON text the source was sent as (trimmed). */
  get text(): string {
    return this.#text;
  }

  /** A fresh parse of the source for indexing, without remembering its text. */
  parse(): Record<string, unknown> {
    return this.#parsed ?? JSON.parse(this.#text) as Record<string, unknown>;
  }

  /** Drops the parsed object once the document is indexed; reads parse the text from then on. */
  compact(): void {
    this.#parsed = null;
  }
}
