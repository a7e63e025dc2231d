// query_then_fetch as the real engines run it on a multi-shard index: each shard scores its own
// documents with its own statistics; `dfs_query_then_fetch` scores with the index's.

import type { Hits } from "../_query/doc_set.ts";
import type { ExecContext } from "../_query/exec_context.ts";
import { shardLayoutOf, shardSnapshots } from "../_index/shard_stats.ts";
import { mergeShardHits } from "../_query/shard_hits.ts";
import type { SearchTarget } from "../_index/search_target.ts";

/**
 * The execution context of each shard of a target (null for a one-shard target): the same
 * documents and ordinals, each shard seeing only its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardContexts } from "./shard_scoring.ts";
 * import { ShardSnapshot } from "../_index/shard_snapshot.ts";
 * import { execContextOf } from "../_query/exec_context.ts";
 * const target = {
 *   index: "i",
 *   snapshot: new ShardSnapshot([], 0),
 *   mappings: {},
 *   shards: 2,
 *   maxResultWindow: 10000,
 * };
 * assert.equal(shardContexts(target, execContextOf(target, 0))?.length, 2);
 * ```
 */
export function shardContexts(target: SearchTarget, ctx: ExecContext): ExecContext[] | null {
  if ((target.shards ?? 1) <= 1) return null;
  return shardSnapshots(target.snapshot, shardLayoutOf(target)).map((snapshot) => ({
    ...ctx,
    snapshot,
  }));
}

/** Runs `run` on each shard's context and merges the (disjoint) hits in ordinal order. */
export function perShard(contexts: ExecContext[], run: (ctx: ExecContext) => Hits): Hits {
  return mergeShardHits(contexts.map(run));
}

/**
 * {@link perShard} in steps: `run` gives each shard's hits as steps (`matchLiveSteps`), and the
 * shards run one after another with a pause point between them; the hits are {@link perShard}'s.
 */
export function* perShardSteps(
  contexts: ExecContext[],
  run: (ctx: ExecContext) => Generator<void, Hits, void>,
): Generator<void, Hits, void> {
  const parts: Hits[] = [];
  for (const c of contexts) {
    if (parts.length > 0) yield;
    parts.push(yield* run(c));
  }
  return mergeShardHits(parts);
}
