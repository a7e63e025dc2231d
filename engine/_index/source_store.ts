// The `_source` texts of a segment's documents in one UTF-8 buffer with an end offset each: about
// a byte per character instead of a string object per document (and no hold on the request body
// the text was cut from).

import { utf8Length } from "../_utf8.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Where a text to store comes from: a string, or a range of bytes of another store. */
export type StoredText = string | { store: SourceStore; at: number };

/** The source texts of one segment (see the module comment). */
export class SourceStore {
  readonly #bytes: Uint8Array;
  readonly #ends: Int32Array;

  private constructor(bytes: Uint8Array, ends: Int32Array) {
    this.#bytes = bytes;
    this.#ends = ends;
  }

  /**
   * Packs texts into one buffer, in order: text `i` is then read with `text(i)`.
   *
   * @example
   * ```ts
   * import { SourceStore } from "./source_store.ts";
   * const store = SourceStore.of(['{"a":1}', '{"é":"ü"}']);
   * console.assert(store.text(1) === '{"é":"ü"}' && store.size === 2);
   * ```
   */
  static of(texts: readonly StoredText[]): SourceStore {
    const steps = SourceStore.ofSteps(texts, texts.length || 1);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  }

  /**
   * {@link SourceStore.of} in steps of `block` texts: it yields between them (a background merge
   * gives the event loop back there), and returns the same store.
   */
  static *ofSteps(texts: readonly StoredText[], block: number): Generator<void, SourceStore, void> {
    // Ends first (exact UTF-8 lengths), then one buffer of exactly that size: no growing copies
    // left behind for the allocator to hold on to.
    const ends = new Int32Array(texts.length);
    let at = 0;
    for (let from = 0; from < texts.length; from += block) {
      if (from > 0) yield;
      at = SourceStore.#measure(texts, ends, {
        from,
        to: Math.min(from + block, texts.length),
        at,
      });
    }
    const bytes = new Uint8Array(at);
    for (let from = 0; from < texts.length; from += block) {
      yield;
      SourceStore.#copy(texts, { bytes, ends }, { from, to: Math.min(from + block, texts.length) });
    }
    return new SourceStore(bytes, ends);
  }

  /** The ends of texts `from` … `to - 1`, after `at` bytes; returns the last one. */
  static #measure(
    texts: readonly StoredText[],
    ends: Int32Array,
    range: { from: number; to: number; at: number },
  ): number {
    let at = range.at;
    for (let i = range.from; i < range.to; i++) {
      const t = texts[i]!;
      at += typeof t === "string" ? utf8Length(t) : t.store.byteLength(t.at);
      ends[i] = at;
    }
    return at;
  }

  /** Copies texts `from` … `to - 1` into `bytes` at their ends. */
  static #copy(
    texts: readonly StoredText[],
    into: { bytes: Uint8Array; ends: Int32Array },
    range: { from: number; to: number },
  ): void {
    const { bytes, ends } = into;
    let at = range.from === 0 ? 0 : ends[range.from - 1]!;
    for (let i = range.from; i < range.to; i++) {
      const t = texts[i]!;
      if (typeof t === "string") encoder.encodeInto(t, bytes.subarray(at, ends[i]!));
      else bytes.set(t.store.#slice(t.at), at);
      at = ends[i]!;
    }
  }

  /** Number of texts. */
  get size(): number {
    return this.#ends.length;
  }

  /** Text `i`. */
  text(i: number): string {
    return decoder.decode(this.#slice(i));
  }

  #slice(i: number): Uint8Array {
    return this.#bytes.subarray(i === 0 ? 0 : this.#ends[i - 1]!, this.#ends[i]!);
  }

  /** Its typed arrays (for measuring memory). */
  get arrays(): readonly ArrayBufferView[] {
    return [this.#bytes, this.#ends];
  }

  /** The UTF-8 length of text `i`. */
  byteLength(i: number): number {
    return this.#ends[i]! - (i === 0 ? 0 : this.#ends[i - 1]!);
  }
}
