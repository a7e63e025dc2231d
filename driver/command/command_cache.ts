/**
 * A small bounded least-recently-used map, used to cache parsed command texts by their text.
 *
 * @module
 */

/**
 * A bounded least-recently-used cache: reading an entry makes it the newest; adding an entry
 * beyond `maxEntries` drops the oldest one.
 *
 * @typeParam V The cached value.
 *
 * @example Keep the two most recently used entries
 * ```ts
 * import { CommandCache } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const cache = new CommandCache<number>(2);
 * cache.set("a", 1);
 * cache.set("b", 2);
 * assert.equal(cache.get("a"), 1); // "a" is now the newest
 * cache.set("c", 3);               // drops "b", the oldest
 * assert.equal(cache.get("b"), undefined);
 * assert.equal(cache.size, 2);
 * ```
 */
export class CommandCache<V> {
  /** The most entries kept. */
  readonly maxEntries: number;
  #map: Map<string, V> = new Map();
  #recent: string | undefined;
  /** The value of `#recent` (read without a lookup when the same key is asked again). */
  #recentValue: V | undefined;

  /**
   * Creates an empty cache.
   *
   * @param maxEntries The most entries kept (at least 1).
   */
  constructor(maxEntries = 1000) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    }
    this.maxEntries = maxEntries;
  }

  /** How many entries are cached. */
  get size(): number {
    return this.#map.size;
  }

  /**
   * Returns the entry for `key` and marks it as the most recently used.
   *
   * @param key The key.
   * @returns The value, or `undefined` when absent.
   */
  get(key: string): V | undefined {
    // The common case of one command run in a loop: the newest key, its value without a lookup
    // (and no re-insertion: it is already the end of Map's insertion order).
    if (key === this.#recent) return this.#recentValue;
    const value = this.#map.get(key);
    // Re-inserting moves the key to the end of Map's insertion order.
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
      this.#recent = key;
      this.#recentValue = value;
    }
    return value;
  }

  /**
   * Adds or replaces an entry; drops the least recently used one when full.
   *
   * @param key The key.
   * @param value The value.
   */
  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    this.#recent = key;
    this.#recentValue = value;
    if (this.#map.size > this.maxEntries) {
      const oldest = this.#map.keys().next().value as string;
      this.#map.delete(oldest);
    }
  }

  /** Removes every entry. */
  clear(): void {
    this.#map.clear();
    this.#recent = undefined;
    this.#recentValue = undefined;
  }
}
