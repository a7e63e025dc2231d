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
  /**
   * Per slot: 0 when empty, else ordinal + 1 in the low 24 bits and 7 bits of the id's hash
   * above them, so most slots of other ids are passed without comparing strings.
   */
  readonly #slots: Int32Array;
  readonly #size: number;
  /** Whether slots carry hash bits (not for a segment too large for 24-bit ordinals). */
  readonly #tagged: boolean;

  constructor(docs: readonly HasId[]) {
    this.#docs = docs;
    this.#tagged = docs.length < ORD_MASK;
    let capacity = 16;
    while (capacity < docs.length * 1.5) capacity *= 2;
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    let size = 0;
    for (let ord = 0; ord < docs.length; ord++) {
      const id = docs[ord]!.id;
      const hash = hashId(id);
      const entry = this.#tagged ? (tagOf(hash) << ORD_BITS) | (ord + 1) : ord + 1;
      let at = hash & mask;
      for (;;) {
        const held = slots[at]!;
        if (held === 0) {
          slots[at] = entry;
          size++;
          break;
        }
        if (docs[this.#ord(held)]!.id === id) {
          slots[at] = entry;
          break;
        }
        at = (at + 1) & mask;
      }
    }
    this.#slots = slots;
    this.#size = size;
  }

  #ord(held: number): number {
    return (this.#tagged ? held & ORD_MASK : held) - 1;
  }

  /** Number of distinct ids. */
  get size(): number {
    return this.#size;
  }

  /** The ordinal of `id`, or undefined. `hash` is {@link hashId} of it, when already known. */
  get(id: string, hash: number = hashId(id)): number | undefined {
    const slots = this.#slots;
    const mask = slots.length - 1;
    const tagged = this.#tagged;
    const tag = tagOf(hash);
    for (let at = hash & mask;; at = (at + 1) & mask) {
      const held = slots[at]!;
      if (held === 0) return undefined;
      if (tagged && held >>> ORD_BITS !== tag) continue;
      const ord = (tagged ? held & ORD_MASK : held) - 1;
      if (this.#docs[ord]!.id === id) return ord;
    }
  }

  /** Its typed arrays (for measuring memory). */
  get arrays(): readonly ArrayBufferView[] {
    return [this.#slots];
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

const ORD_BITS = 24;
const ORD_MASK = (1 << ORD_BITS) - 1;

/** 7 high bits of a hash (the slot comes from the low bits). */
function tagOf(hash: number): number {
  return hash >>> 25;
}
