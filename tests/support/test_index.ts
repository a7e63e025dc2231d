// Test support: builds a searchable target from plain sources without the REST layer.

import { type MergeOptions, Shard } from "../../engine/_index/shard.ts";
import type { Mappings, StoredDoc } from "../../engine/_index/types.ts";
import type { SearchTarget } from "../../engine/_index/search_target.ts";

/** A shard plus mappings that tests can index into and search. */
export class TestIndex {
  /** The shard. */
  readonly shard: Shard;
  #seq = 0;

  constructor(
    readonly name: string,
    readonly mappings: Mappings,
    readonly maxResultWindow = 10000,
    merges?: MergeOptions,
  ) {
    this.shard = new Shard(merges);
  }

  /** Indexes (or replaces) docs by id and refreshes; `null` deletes. */
  put(docs: Record<string, Record<string, unknown> | null>): this {
    const changes = Object.entries(docs).map(([id, source]) => ({
      id,
      doc: source === null
        ? null
        : { id, source, version: 1, seqNo: this.#seq++, primaryTerm: 1 } as StoredDoc,
    }));
    this.shard.refresh(changes, this.mappings);
    return this;
  }

  /** A search target over the current snapshot. */
  target(): SearchTarget {
    return {
      index: this.name,
      snapshot: this.shard.snapshot(),
      mappings: this.mappings,
      maxResultWindow: this.maxResultWindow,
    };
  }
}
