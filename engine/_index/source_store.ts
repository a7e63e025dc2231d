// The `_source` texts of a segment's documents in one UTF-8 buffer with an end offset each: about
// a byte per character instead of a string object per document (and no hold on the request body
// the text was cut from).

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
    let bytes = new Uint8Array(1024);
    const ends = new Int32Array(texts.length);
    let at = 0;
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i]!;
      const max = typeof t === "string" ? t.length * 3 : t.store.#byteLength(t.at);
      if (at + max > bytes.length) {
        const grown = new Uint8Array(Math.max(at + max, bytes.length * 2));
        grown.set(bytes.subarray(0, at));
        bytes = grown;
      }
      if (typeof t === "string") at += encoder.encodeInto(t, bytes.subarray(at)).written;
      else {
        bytes.set(t.store.#slice(t.at), at);
        at += max;
      }
      ends[i] = at;
    }
    return new SourceStore(bytes.slice(0, at), ends);
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

  #byteLength(i: number): number {
    return this.#ends[i]! - (i === 0 ? 0 : this.#ends[i - 1]!);
  }
}
