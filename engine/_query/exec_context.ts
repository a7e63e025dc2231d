// What query execution needs: the snapshot, the field map, the clock, and per-segment helpers.

import { type EngineError, esError } from "../_errors.ts";
import { constantHits, type Hits, NO_HITS, type Scoring } from "./doc_set.ts";
import { type FieldMap, fieldMapOf } from "../_index/field_map.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import type { SegmentView, ShardSnapshot } from "../_index/shard_snapshot.ts";

/** Everything a query needs to run against one target. */
export interface ExecContext {
  /** The frozen shard state. */
  readonly snapshot: ShardSnapshot;
  /** The target's fields. */
  readonly fields: FieldMap;
  /** Clock for date math. */
  readonly now: number;
  /** Index name (for `_index` queries and errors). */
  readonly index: string;
  /** `index.max_regex_length`. */
  readonly maxRegexLength?: number;
  /** `index.max_terms_count`. */
  readonly maxTermsCount?: number;
  /** Scores with LegacyBM25Similarity (Elasticsearch's default): every boost times 1 + k1. */
  readonly legacyBm25?: boolean;
  /** `index.max_inner_result_window` (inner hits and `top_hits`). */
  readonly maxInnerResultWindow?: number;
  /** The engine's flavour: what a query accepts and whose scoring it follows (Elasticsearch when absent). */
  readonly flavour?: "elasticsearch" | "opensearch";
  /** `index.number_of_shards` (1 when absent): aggregations that reduce per shard route by it. */
  readonly shards?: number;
  /** The routing shards its documents were placed over (see `routingShardsOf`). */
  readonly routingShards?: number;
}

/** The context of one target of a search, at the clock reading `now`. */
export function execContextOf(target: SearchTarget, now: number): ExecContext {
  return {
    snapshot: target.snapshot,
    fields: fieldMapOf(target.mappings).scope(""),
    now,
    index: target.index,
    maxRegexLength: target.maxRegexLength,
    maxTermsCount: target.maxTermsCount,
    legacyBm25: target.legacyBm25,
    maxInnerResultWindow: target.maxInnerResultWindow,
    flavour: target.flavour,
    shards: target.shards,
    routingShards: target.routingShards,
  };
}

/** Runs `fn` on each segment and concatenates the local results into global ordinals. */
export function perSegment(ctx: ExecContext, fn: (view: SegmentView) => Hits): Hits {
  const parts: Hits[] = [];
  let total = 0;
  let scoring = false;
  for (const v of ctx.snapshot.views) {
    const h = fn(v);
    if (h.docs.length === 0) continue;
    parts.push(v.base === 0 ? h : { docs: h.docs.map((d) => d + v.base), scores: h.scores });
    total += h.docs.length;
    scoring ||= h.scores !== null;
  }
  if (parts.length === 0) return NO_HITS;
  if (parts.length === 1) return parts[0]!;
  const docs = new Int32Array(total);
  const scores = scoring ? new Float64Array(total) : null;
  let at = 0;
  for (const p of parts) {
    docs.set(p.docs, at);
    if (scores && p.scores) scores.set(p.scores, at);
    at += p.docs.length;
  }
  return { docs, scores };
}

/**
 * Sorted, de-duplicated doc ordinals from an unsorted list. With `maxDoc` and a list covering a good
 * part of it, a bitmap scan replaces the sort.
 */
export function sortedUnique(docs: ArrayLike<number>, maxDoc = 0): Int32Array {
  if (maxDoc > 0 && docs.length * 16 > maxDoc) {
    const seen = new Uint8Array(maxDoc);
    for (let i = 0; i < docs.length; i++) seen[docs[i]!] = 1;
    const out = new Int32Array(Math.min(docs.length, maxDoc));
    let k = 0;
    for (let d = 0; d < maxDoc; d++) if (seen[d]) out[k++] = d;
    return out.subarray(0, k);
  }
  const a = Int32Array.from(docs).sort();
  let k = 0;
  for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[k - 1]) a[k++] = a[i]!;
  return a.subarray(0, k);
}

/** Union of several postings' docs inside one segment, with a constant score. */
export function unionDocs(lists: Int32Array[], score: number, scoring: Scoring): Hits {
  if (lists.length === 0) return NO_HITS;
  if (lists.length === 1) return constantHits(lists[0]!, score, scoring);
  let n = 0;
  for (const l of lists) n += l.length;
  const all = new Int32Array(n);
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  let max = 0;
  for (const l of lists) if (l.length && l[l.length - 1]! >= max) max = l[l.length - 1]! + 1;
  return constantHits(sortedUnique(all, max), score, scoring);
}

/** A 400 `query_shard_exception` for this index, as Elasticsearch raises when a query cannot be built. */
export function queryShardError(
  ctx: ExecContext,
  reason: string,
  cause?: EngineError,
): EngineError {
  return esError("query_shard_exception", reason, { index: ctx.index }, cause);
}

/** Drops deleted docs. */
export function liveOnly(snapshot: ShardSnapshot, hits: Hits): Hits {
  if (snapshot.views.every((v) => v.deleted === null)) return hits;
  const docs: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < hits.docs.length; i++) {
    const d = hits.docs[i]!;
    const v = snapshot.viewOf(d);
    if (v.deleted?.[d - v.base]) continue;
    docs.push(d);
    if (hits.scores) scores.push(hits.scores[i]!);
  }
  return { docs: Int32Array.from(docs), scores: hits.scores ? Float64Array.from(scores) : null };
}

const ordinalsCache = new WeakMap<ShardSnapshot, Int32Array>();

/** Every doc ordinal of a snapshot, 0..maxDoc-1 (computed once per snapshot; never mutate it). */
export function allOrdinals(snapshot: ShardSnapshot): Int32Array {
  let docs = ordinalsCache.get(snapshot);
  if (!docs) {
    docs = new Int32Array(snapshot.maxDoc);
    for (let i = 0; i < docs.length; i++) docs[i] = i;
    ordinalsCache.set(snapshot, docs);
  }
  return docs;
}
