// A segment's `_id` → ordinal lookup as an open-addressing table of ordinals (a few bytes per
// document) over the segment's own documents, instead of a Map entry per id.

/** What the table indexes: the segment's documents, by ordinal. */
interface HasId {
  readonly id: string;
}

/** FNV-1a over the UTF-16 units of an id. */
export function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The ordinal of each id among `docs` (the last one when an id repeats).
 *
 * @example
 * ```ts
 * import { IdIndex } from "./id_index.ts";
 * const ids = new IdIndex([{ id: "a" }, { id: "b" }]);
 * console.assert(ids.get("b") === 1 && !ids.has("c") && ids.size === 2);
 * ```
 */
export class IdIndex {
  readonly #docs: readonly HasId[];
  /** Ordinal + 1 per slot, 0 for an empty slot. */
  readonly #slots: Int32Array;
  readonly #size: number;

  constructor(docs: readonly HasId[]) {
    this.#docs = docs;
    let capacity = 16;
    while (capacity < docs.length * 1.5) capacity *= 2;
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    let size = 0;
    for (let ord = 0; ord < docs.length; ord++) {
      const id = docs[ord]!.id;
      let at = hashId(id) & mask;
      for (;;) {
        const held = slots[at]!;
        if (held === 0) {
          slots[at] = ord + 1;
          size++;
          break;
        }
        if (docs[held - 1]!.id === id) {
          slots[at] = ord + 1;
          break;
        }
        at = (at + 1) & mask;
      }
    }
    this.#slots = slots;
    this.#size = size;
  }

  /** Number of distinct ids. */
  get size(): number {
    return this.#size;
  }

  /** The ordinal of `id`, or undefined. `hash` is {@link hashId} of it, when already known. */
  get(id: string, hash: number = hashId(id)): number | undefined {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let at = hash & mask;; at = (at + 1) & mask) {
      const held = slots[at]!;
      if (held === 0) return undefined;
      if (this.#docs[held - 1]!.id === id) return held - 1;
    }
  }

  /** True when a document has this id. */
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** `[id, ordinal]` pairs in ordinal order (the last of a repeated id only). */
  *[Symbol.iterator](): IterableIterator<[string, number]> {
    const docs = this.#docs;
    for (let ord = 0; ord < docs.length; ord++) {
      const id = docs[ord]!.id;
      if (this.get(id) === ord) yield [id, ord];
    }
  }
}
