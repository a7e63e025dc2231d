// Where a shard's memory goes: the bytes of its typed arrays and strings, and an estimate of its
// JS objects, counted per structure (for the benchmarks; nothing in the engine reads them).

import { KeptDoc } from "./kept_doc.ts";
import type { FieldIndex, Posting } from "./segment.ts";
import { shardOf } from "./shard.ts";
import { TextPosting } from "./text_posting.ts";
import type { ShardSnapshot } from "./shard_snapshot.ts";

/** The structures memory is counted under, in the order a report prints them. */
export const HEAP_PARTS = [
  "source",
  "doc values",
  "points",
  "terms",
  "postings",
  "positions",
  "norms",
  "presence",
  "ids",
  "documents",
  "vectors",
] as const;

/** One of {@link HEAP_PARTS}. */
export type HeapPart = typeof HEAP_PARTS[number];

// V8 on 64-bit without pointer compression (Deno's build): 8-byte slots.
const SLOT = 8;
const OBJECT = 3 * SLOT; // map, properties, elements
const VIEW = 80; // a typed array object (its buffer's object counted once beside its bytes)
const BUFFER = 56;
const MAP_ENTRY = 3 * SLOT + SLOT / 2; // key, value, chain, and its share of the buckets

/** Counts bytes per structure; each buffer and each distinct string once. */
export class HeapCounter {
  readonly #buffers = new Set<ArrayBufferLike>();
  readonly #views = new Set<ArrayBufferView>();
  readonly #strings = new Set<string>();
  readonly #bytes = new Map<HeapPart, number>();

  /** Adds `n` bytes to `part`. */
  add(part: HeapPart, n: number): void {
    this.#bytes.set(part, (this.#bytes.get(part) ?? 0) + n);
  }

  /** A typed array: its view and its buffer's bytes, each unless counted already. */
  array(part: HeapPart, a: ArrayBufferView | null | undefined): void {
    if (!a || this.#views.has(a)) return;
    this.#views.add(a);
    let n = VIEW;
    if (!this.#buffers.has(a.buffer)) {
      this.#buffers.add(a.buffer);
      n += BUFFER + a.buffer.byteLength;
    }
    this.add(part, n);
  }

  /** A string (once per distinct text: shared copies are the common case). */
  string(part: HeapPart, s: string): void {
    if (this.#strings.has(s)) return;
    this.#strings.add(s);
    const wide = /[\u0100-\uffff]/.test(s);
    this.add(part, align(2 * SLOT + s.length * (wide ? 2 : 1)));
  }

  /** A plain object with `fields` own slots. */
  object(part: HeapPart, fields: number): void {
    this.add(part, OBJECT + fields * SLOT);
  }

  /** An array of `length` references (not its elements). */
  refs(part: HeapPart, length: number): void {
    this.add(part, OBJECT + 2 * SLOT + length * SLOT);
  }

  /** A Map's entries (not its keys and values). */
  map(part: HeapPart, size: number): void {
    this.add(part, OBJECT + size * MAP_ENTRY);
  }

  /** Bytes counted per structure, in {@link HEAP_PARTS} order. */
  get parts(): Array<[HeapPart, number]> {
    return HEAP_PARTS.map((p) => [p, this.#bytes.get(p) ?? 0]);
  }

  /** All bytes counted. */
  get total(): number {
    let n = 0;
    for (const v of this.#bytes.values()) n += v;
    return n;
  }
}

function align(n: number): number {
  return Math.ceil(n / SLOT) * SLOT;
}

/**
 * Counts the memory of every segment of a snapshot per structure.
 *
 * @example
 * ```ts
 * import { HeapCounter, countSnapshot } from "./heap_bytes.ts";
 * import { Shard } from "./shard.ts";
 * const shard = new Shard();
 * const doc = { id: "1", source: { t: "a b" }, version: 1, seqNo: 0, primaryTerm: 1 };
 * shard.refresh([{ id: "1", doc }], { properties: { t: { type: "text" } } });
 * const counter = new HeapCounter();
 * countSnapshot(counter, shard.snapshot());
 * console.assert(counter.parts.find(([p]) => p === "postings")![1] > 0);
 * ```
 */
export function countSnapshot(counter: HeapCounter, snapshot: ShardSnapshot): void {
  // The shard's filter over every id its segments hold (one per shard, not per segment).
  for (const a of shardOf(snapshot)?.idFilterArrays ?? []) counter.array("ids", a);
  for (const { segment } of snapshot.views) {
    counter.object("documents", 5);
    counter.refs("documents", segment.docs.length);
    for (const doc of segment.docs) {
      counter.string("ids", doc.id);
      if (doc instanceof KeptDoc) {
        counter.object("documents", 6); // id, version, seqNo, primaryTerm, its text's store and place
        const data = doc.data;
        if (typeof data === "string") counter.string("source", data);
        else for (const a of data.arrays) counter.array("source", a);
      } else {
        counter.object("documents", 6);
        counter.add("source", 2 * JSON.stringify(doc.source).length); // a rough object tree
      }
    }
    for (const a of segment.ids.arrays) counter.array("ids", a);
    counter.map("terms", segment.fields.size);
    for (const field of segment.fields.values()) countField(counter, field);
    for (const col of segment.vectors.values()) {
      counter.object("vectors", 5);
      counter.array("vectors", col.data);
      counter.array("vectors", col.has);
      counter.array("vectors", col.magnitude);
    }
  }
}

function countField(counter: HeapCounter, f: FieldIndex): void {
  counter.object("doc values", 12);
  counter.array("norms", f.norms);
  counter.array("presence", f.present);
  counter.array("doc values", f.dvStart);
  counter.array("doc values", f.numValues);
  if (f.strValues) {
    counter.refs("doc values", f.strValues.length);
    for (const s of f.strValues) counter.string("terms", s);
  }
  if (f.exact) counter.refs("doc values", f.exact.length);
  counter.array("points", f.pointValues);
  counter.array("points", f.pointDocs);
  if (f.pointExact) counter.refs("points", f.pointExact.length);
  counter.map("terms", f.terms.size);
  for (const [term, p] of f.terms) {
    counter.string("terms", term);
    countPosting(counter, p);
  }
}

function countPosting(counter: HeapCounter, p: Posting): void {
  if (p instanceof TextPosting) {
    // Its slots; its views only once a search read them (else the arrays its field shares).
    counter.object("terms", 6);
    for (const [part, a] of p.heldArrays) counter.array(part, a);
    return;
  }
  counter.object("terms", 4);
  counter.array("postings", p.docs);
  counter.array("postings", p.freqs);
  counter.array("positions", p.positions);
}
