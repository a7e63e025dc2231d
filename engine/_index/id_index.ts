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

  constructor(docs: readonly HasId[], built?: BuiltSlots) {
    this.#docs = docs;
    this.#tagged = docs.length < ORD_MASK;
    if (!built) {
      const steps = fillSteps(docs, docs.length || 1);
      let r = steps.next();
      while (!r.done) r = steps.next();
      built = r.value;
    }
    this.#slots = built.slots;
    this.#size = built.size;
  }

  /**
   * `new IdIndex(docs)` in steps of `block` documents: it yields between blocks (a background
   * merge indexes a large segment's ids so) and returns the same table.
   */
  static *steps(docs: readonly HasId[], block: number): Generator<void, IdIndex, void> {
    return new IdIndex(docs, yield* fillSteps(docs, block));
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

/** A filled table and the number of distinct ids in it. */
interface BuiltSlots {
  readonly slots: Int32Array;
  readonly size: number;
}

/** The table of `docs`, filled `block` documents a step, in ordinal order. */
function* fillSteps(docs: readonly HasId[], block: number): Generator<void, BuiltSlots, void> {
  let capacity = 16;
  while (capacity < docs.length * 1.5) capacity *= 2;
  const slots = new Int32Array(capacity);
  let size = 0;
  for (let from = 0; from < docs.length; from += block) {
    if (from > 0) yield;
    size += fill(docs, slots, { from, to: Math.min(from + block, docs.length) });
  }
  return { slots, size };
}

/** Puts docs `from` … `to - 1` in the table; returns how many new ids they brought. */
function fill(
  docs: readonly HasId[],
  slots: Int32Array,
  range: { from: number; to: number },
): number {
  const tagged = docs.length < ORD_MASK;
  const mask = slots.length - 1;
  let size = 0;
  for (let ord = range.from; ord < range.to; ord++) {
    const id = docs[ord]!.id;
    const hash = hashId(id);
    const entry = tagged ? (tagOf(hash) << ORD_BITS) | (ord + 1) : ord + 1;
    let at = hash & mask;
    for (;;) {
      const held = slots[at]!;
      if (held === 0) {
        slots[at] = entry;
        size++;
        break;
      }
      if (docs[(tagged ? held & ORD_MASK : held) - 1]!.id === id) {
        slots[at] = entry;
        break;
      }
      at = (at + 1) & mask;
    }
  }
  return size;
}

const ORD_BITS = 24;
const ORD_MASK = (1 << ORD_BITS) - 1;

/** 7 high bits of a hash (the slot comes from the low bits). */
function tagOf(hash: number): number {
  return hash >>> 25;
}

/**
 * A blocked Bloom filter of ids (each id sets 4 bits in one 32-bit word; about 16 bits per id)
 * over every id a shard's segments hold: it tells a write of a new id that no segment holds it with one probe, where the
 * segments' tables take one (cache-missing) probe each. A deleted or merged-away id may still
 * answer "maybe" (then the tables are asked); an id added is never missed. It grows by being
 * rebuilt from the ids it is given again, about twice as large, when it holds its capacity.
 *
 * @example
 * ```ts
 * import { hashId, IdFilter } from "./id_index.ts";
 * const filter = new IdFilter(16);
 * filter.add(hashId("a"));
 * console.assert(filter.mayHold(hashId("a")) && filter.count === 1);
 * ```
 */
export class IdFilter {
  readonly #words: Int32Array;
  readonly #mask: number;
  #count = 0;
  /** The most ids it takes at about 16 bits each (its false positives stay below 1%). */
  readonly capacity: number;

  /** A filter for up to `capacity` ids (rounded up to a power of two of words). */
  constructor(capacity: number) {
    let words = 64;
    while (words * 2 < capacity) words *= 2;
    this.#words = new Int32Array(words);
    this.#mask = words - 1;
    this.capacity = words * 2;
  }

  /** Ids added (repeats counted). */
  get count(): number {
    return this.#count;
  }

  /** Adds the id of {@link hashId} `hash`. */
  add(hash: number): void {
    this.#words[wordOf(hash) & this.#mask]! |= bitsOf(hash);
    this.#count++;
  }

  /** False when the id of {@link hashId} `hash` was never added; true when it may have been. */
  mayHold(hash: number): boolean {
    const bits = bitsOf(hash);
    return (this.#words[wordOf(hash) & this.#mask]! & bits) === bits;
  }

  /** Its typed array (for measuring memory). */
  get arrays(): readonly ArrayBufferView[] {
    return [this.#words];
  }
}

/** Which word an id's bits go in (before masking): the hash mixed again. */
function wordOf(hash: number): number {
  const h = Math.imul(hash ^ (hash >>> 16), 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/** The 4 bits (of 32) an id sets in its word, from a second mix of its hash. */
function bitsOf(hash: number): number {
  let g = Math.imul(hash ^ (hash >>> 13), 0x5bd1e995);
  g ^= g >>> 15;
  return (1 << (g & 31)) | (1 << ((g >>> 5) & 31)) | (1 << ((g >>> 10) & 31)) |
    (1 << ((g >>> 20) & 31));
}
