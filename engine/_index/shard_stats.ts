// One shard of a multi-shard index as its own snapshot, for scoring: the real engines score each
// shard with its own statistics (docCount, docFreq, average length), so a document's BM25 score
// depends on the documents routed beside it. The index is kept as one set of segments (documents
// are routed to shards by murmur3 of their id, routing.ts); a shard's view shares those segments
// and global ordinals, hides the other shards' documents as deleted, and counts its statistics
// over its own documents only (deleted ones included until merged away, as Lucene counts them).

import { routingShardsOf, shardFor } from "./routing.ts";
import type { SearchTarget } from "./search_target.ts";
import type { Segment } from "./segment.ts";
import { type FieldStats, type SegmentView, ShardSnapshot } from "./shard_snapshot.ts";

/** How an index spreads its documents: shard count and the routing shards hashed over. */
export interface ShardLayout {
  /** `index.number_of_shards`. */
  readonly shards: number;
  /** The routing shards the hash is taken over (a multiple of `shards`). */
  readonly routingShards: number;
}

/**
 * The layout of a target: Elasticsearch 9 hashes over the shards themselves, OpenSearch over its
 * default routing shards (routing.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardLayoutOf } from "./shard_stats.ts";
 * import { ShardSnapshot } from "./shard_snapshot.ts";
 * const target = { index: "i", snapshot: new ShardSnapshot([], 0), mappings: {}, maxResultWindow: 1 };
 * assert.deepEqual(shardLayoutOf({ ...target, shards: 3, flavour: "opensearch" }), {
 *   shards: 3,
 *   routingShards: 768,
 * });
 * ```
 */
export function shardLayoutOf(target: SearchTarget): ShardLayout {
  const shards = target.shards ?? 1;
  return {
    shards,
    routingShards: routingShardsOf(target),
  };
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

/**
 * The statistics of every shard of one snapshot, each counted in one pass for all shards (a
 * field's lengths, a term's documents) the first time a shard asks.
 */
class ShardCounts {
  readonly #views: readonly SegmentView[];
  readonly #of: readonly ArrayLike<number>[];
  readonly #shards: number;
  readonly #fields = new Map<string, { docCount: Float64Array; sum: Float64Array }>();
  readonly #docFreqs = new Map<string, Float64Array>();

  constructor(views: readonly SegmentView[], of: readonly ArrayLike<number>[], shards: number) {
    this.#views = views;
    this.#of = of;
    this.#shards = shards;
  }

  field(field: string): { docCount: Float64Array; sum: Float64Array } {
    let counts = this.#fields.get(field);
    if (!counts) {
      const docCount = new Float64Array(this.#shards);
      const sum = new Float64Array(this.#shards);
      this.#views.forEach((v, i) => {
        const f = v.segment.fields.get(field);
        if (!f) return;
        const of = this.#of[i]!;
        for (const d of f.present) docCount[of[d]!]!++;
        for (const p of f.terms.values()) {
          for (let k = 0; k < p.docs.length; k++) {
            sum[of[p.docs[k]!]!]! += p.freqs ? p.freqs[k]! : 1;
          }
        }
      });
      counts = { docCount, sum };
      this.#fields.set(field, counts);
    }
    return counts;
  }

  docFreq(field: string, term: string): Float64Array {
    const key = `${field}\u0000${term}`;
    let n = this.#docFreqs.get(key);
    if (!n) {
      n = new Float64Array(this.#shards);
      this.#views.forEach((v, i) => {
        const p = v.segment.fields.get(field)?.terms.get(term);
        if (!p) return;
        const of = this.#of[i]!;
        for (const d of p.docs) n![of[d]!]!++;
      });
      if (this.#docFreqs.size >= 4096) this.#docFreqs.clear();
      this.#docFreqs.set(key, n);
    }
    return n;
  }
}

/** One shard's documents of a snapshot, with that shard's term statistics. */
class ShardView extends ShardSnapshot {
  readonly #shard: number;
  readonly #of: readonly ArrayLike<number>[];
  readonly #counts: ShardCounts;
  readonly #stats = new Map<string, FieldStats>();

  constructor(
    views: readonly SegmentView[],
    live: number,
    placement: { shard: number; of: readonly ArrayLike<number>[]; counts: ShardCounts },
  ) {
    super(views, live);
    this.#shard = placement.shard;
    this.#of = placement.of;
    this.#counts = placement.counts;
  }

  /** The shard, and the shard of every document of each segment view. */
  get placement(): { shard: number; of: readonly ArrayLike<number>[] } {
    return { shard: this.#shard, of: this.#of };
  }

  override fieldStats(field: string): FieldStats {
    let stats = this.#stats.get(field);
    if (!stats) {
      const counts = this.#counts.field(field);
      const docCount = counts.docCount[this.#shard]!;
      const sum = counts.sum[this.#shard]!;
      stats = { docCount, avgLength: docCount ? sum / docCount : 1 };
      this.#stats.set(field, stats);
    }
    return stats;
  }

  override docFreq(field: string, term: string): number {
    return this.#counts.docFreq(field, term)[this.#shard]!;
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
  let shards = 0;
  for (const o of of) for (let i = 0; i < o.length; i++) shards = Math.max(shards, o[i]! + 1);
  const counts = new ShardCounts(objects.views, objectsOf, Math.max(shards, shard + 1));
  return new ShardView(objects.views, objects.live, { shard, of: objectsOf, counts });
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
    const counts = new ShardCounts(snapshot.views, of, layout.shards);
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
      out.push(new ShardView(views, live, { shard: s, of, counts }));
    }
    byLayout.set(key, out);
  }
  return out;
}
