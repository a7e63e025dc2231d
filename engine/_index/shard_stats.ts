// One shard of a multi-shard index as its own snapshot, for scoring: the real engines score each
// shard with its own statistics (docCount, docFreq, average length), so a document's BM25 score
// depends on the documents routed beside it. The index is kept as one set of segments (documents
// are routed to shards by murmur3 of their id, routing.ts); a shard's view shares those segments
// and global ordinals, hides the other shards' documents as deleted, and counts its statistics
// over its own documents only (deleted ones included until merged away, as Lucene counts them).

import { shardFor } from "./routing.ts";
import type { Segment } from "./segment.ts";
import { type FieldStats, type SegmentView, ShardSnapshot } from "./shard_snapshot.ts";

/** How an index spreads its documents: shard count and the routing shards hashed over. */
export interface ShardLayout {
  /** `index.number_of_shards`. */
  readonly shards: number;
  /** The routing shards the hash is taken over (a multiple of `shards`). */
  readonly routingShards: number;
}

const shardsBySegment = new WeakMap<Segment, Map<string, Uint8Array | Uint16Array>>();

/** The shard of every document of a segment (by local ordinal), computed once per layout. */
export function segmentShards(segment: Segment, layout: ShardLayout): ArrayLike<number> {
  let byLayout = shardsBySegment.get(segment);
  if (!byLayout) shardsBySegment.set(segment, byLayout = new Map());
  const key = `${layout.shards}/${layout.routingShards}`;
  let out = byLayout.get(key);
  if (!out) {
    out = layout.shards <= 256 ? new Uint8Array(segment.maxDoc) : new Uint16Array(segment.maxDoc);
    segment.docs.forEach((doc, local) => {
      out![local] = shardFor(doc.routing ?? doc.id, layout.shards, layout.routingShards);
    });
    byLayout.set(key, out);
  }
  return out;
}

/** One shard's documents of a snapshot, with that shard's term statistics. */
class ShardView extends ShardSnapshot {
  readonly #shard: number;
  readonly #of: readonly ArrayLike<number>[];
  readonly #stats = new Map<string, FieldStats>();
  readonly #docFreqs = new Map<string, number>();

  constructor(
    views: readonly SegmentView[],
    live: number,
    shard: number,
    of: readonly ArrayLike<number>[],
  ) {
    super(views, live);
    this.#shard = shard;
    this.#of = of;
  }

  /** The shard, and the shard of every document of each segment view. */
  get placement(): { shard: number; of: readonly ArrayLike<number>[] } {
    return { shard: this.#shard, of: this.#of };
  }

  override fieldStats(field: string): FieldStats {
    let stats = this.#stats.get(field);
    if (!stats) {
      let docCount = 0;
      let sum = 0;
      this.views.forEach((v, i) => {
        const f = v.segment.fields.get(field);
        if (!f) return;
        const of = this.#of[i]!;
        for (const d of f.present) if (of[d] === this.#shard) docCount++;
        for (const p of f.terms.values()) {
          for (let k = 0; k < p.docs.length; k++) {
            if (of[p.docs[k]!] === this.#shard) sum += p.freqs ? p.freqs[k]! : 1;
          }
        }
      });
      stats = { docCount, avgLength: docCount ? sum / docCount : 1 };
      this.#stats.set(field, stats);
    }
    return stats;
  }

  override docFreq(field: string, term: string): number {
    const key = `${field}\u0000${term}`;
    let n = this.#docFreqs.get(key);
    if (n === undefined) {
      n = 0;
      this.views.forEach((v, i) => {
        const p = v.segment.fields.get(field)?.terms.get(term);
        if (!p) return;
        const of = this.#of[i]!;
        for (const d of p.docs) if (of[d] === this.#shard) n!++;
      });
      if (this.#docFreqs.size >= 4096) this.#docFreqs.clear();
      this.#docFreqs.set(key, n);
    }
    return n;
  }
}

/**
 * For the nested objects of a shard's snapshot: a snapshot of `views` (objects whose parents are
 * the outer snapshot's documents) counting the statistics of that shard's objects only; a plain
 * snapshot when `outer` is not one shard's. `parents[i]` gives, for object view `i`, the index of
 * its parent segment view in `outer` and each object's local parent ordinal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShardSnapshot } from "./shard_snapshot.ts";
 * import { objectsSnapshot } from "./shard_stats.ts";
 * const outer = new ShardSnapshot([], 0);
 * assert.equal(objectsSnapshot(outer, { views: [], live: 0, parents: [] }).maxDoc, 0);
 * ```
 */
export function objectsSnapshot(
  outer: ShardSnapshot,
  objects: {
    views: readonly SegmentView[];
    live: number;
    parents: readonly { view: number; parent: Int32Array }[];
  },
): ShardSnapshot {
  if (!(outer instanceof ShardView)) return new ShardSnapshot(objects.views, objects.live);
  const { shard, of } = outer.placement;
  const objectsOf = objects.parents.map(({ view, parent }) => {
    const shardOf = of[view]!;
    const out = new Uint16Array(parent.length);
    for (let i = 0; i < parent.length; i++) out[i] = shardOf[parent[i]!]!;
    return out;
  });
  return new ShardView(objects.views, objects.live, shard, objectsOf);
}

const viewsCache = new WeakMap<ShardSnapshot, Map<string, ShardSnapshot[]>>();

/**
 * The snapshot split into its shards, one snapshot each (the same global ordinals; the other
 * shards' documents deleted). Built once per snapshot and layout.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShardSnapshot } from "./shard_snapshot.ts";
 * import { shardSnapshots } from "./shard_stats.ts";
 * const empty = new ShardSnapshot([], 0);
 * assert.equal(shardSnapshots(empty, { shards: 3, routingShards: 3 }).length, 3);
 * ```
 */
export function shardSnapshots(snapshot: ShardSnapshot, layout: ShardLayout): ShardSnapshot[] {
  let byLayout = viewsCache.get(snapshot);
  if (!byLayout) viewsCache.set(snapshot, byLayout = new Map());
  const key = `${layout.shards}/${layout.routingShards}`;
  let out = byLayout.get(key);
  if (!out) {
    const of = snapshot.views.map((v) => segmentShards(v.segment, layout));
    out = [];
    for (let s = 0; s < layout.shards; s++) {
      let live = 0;
      const views = snapshot.views.map((v, i) => {
        const deleted = new Uint8Array(v.segment.maxDoc);
        const shardOf = of[i]!;
        for (let d = 0; d < deleted.length; d++) {
          if (shardOf[d] !== s || v.deleted?.[d]) deleted[d] = 1;
          else live++;
        }
        return { segment: v.segment, deleted, base: v.base };
      });
      out.push(new ShardView(views, live, s, of));
    }
    byLayout.set(key, out);
  }
  return out;
}
