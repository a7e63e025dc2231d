// The index mappings LambdaTemplate reads to pick exact fields, cached per data source (shared by
// every LambdaTemplate, so every session, over it), bounded, and checked against the data
// source's mapping epoch: a mapping change sent through the same data source makes it stale.

import type { FieldTypes } from "./field_types.ts";

/** One index's mapping as read: the pending read, when, at which epoch, and the result. */
export interface CachedTypes {
  readonly types: Promise<FieldTypes>;
  readonly at: number;
  readonly epoch: number;
  /** The mapping once read (what `toCommand()` shows). */
  resolved?: FieldTypes;
}

/** A bounded map of index → cached mapping, least recently used out first. */
export class MappingCache {
  readonly #entries = new Map<string, CachedTypes>();
  readonly #max: number;
  /** The most recently used index, which `get` need not move (one query run in a loop). */
  #recent: string | undefined;

  constructor(max: number) {
    this.#max = max;
  }

  /** The entry of an index when it was read at `epoch` (it becomes the most recent). */
  get(index: string, epoch: number): CachedTypes | undefined {
    const hit = this.#entries.get(index);
    if (hit === undefined) return undefined;
    if (hit.epoch === epoch && index === this.#recent) return hit;
    this.#entries.delete(index);
    if (hit.epoch !== epoch) return undefined;
    this.#entries.set(index, hit);
    this.#recent = index;
    return hit;
  }

  set(index: string, entry: CachedTypes): void {
    this.#entries.delete(index);
    this.#entries.set(index, entry);
    this.#recent = index;
    while (this.#entries.size > this.#max) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  /** Drops an entry, if it is still `entry` (a failed read). */
  drop(index: string, entry?: CachedTypes): void {
    if (entry === undefined || this.#entries.get(index) === entry) this.#entries.delete(index);
  }

  clear(): void {
    this.#entries.clear();
    this.#recent = undefined;
  }

  get size(): number {
    return this.#entries.size;
  }
}

const shared = new WeakMap<object, MappingCache>();

/** The cache shared by every LambdaTemplate over `source` (the first one sets its bound). */
export function sharedMappingCache(source: object, max: number): MappingCache {
  let cache = shared.get(source);
  if (cache === undefined) shared.set(source, cache = new MappingCache(max));
  return cache;
}
