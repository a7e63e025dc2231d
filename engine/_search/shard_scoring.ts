// query_then_fetch as the real engines run it on a multi-shard index: each shard scores its own
// documents with its own statistics; `dfs_query_then_fetch` scores with the index's.

import type { Hits } from "../_query/doc_set.ts";
import type { ExecContext } from "../_query/exec_context.ts";
import { splitRoutingShards } from "../_index/routing.ts";
import { shardSnapshots } from "../_index/shard_stats.ts";
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
  const shards = target.shards ?? 1;
  if (shards <= 1) return null;
  const routingShards = target.flavour === "opensearch" ? splitRoutingShards(shards) : shards;
  return shardSnapshots(target.snapshot, { shards, routingShards }).map((snapshot) => ({
    ...ctx,
    snapshot,
  }));
}

/** Runs `run` on each shard's context and merges the (disjoint) hits in ordinal order. */
export function perShard(contexts: ExecContext[], run: (ctx: ExecContext) => Hits): Hits {
  const parts = contexts.map(run).filter((h) => h.docs.length > 0);
  if (parts.length === 0) return { docs: new Int32Array(0), scores: null };
  if (parts.length === 1) return parts[0]!;
  const scoring = parts.some((p) => p.scores !== null);
  let n = 0;
  for (const p of parts) n += p.docs.length;
  const docs = new Int32Array(n);
  const scores = scoring ? new Float64Array(n) : null;
  const at = new Int32Array(parts.length);
  for (let k = 0; k < n; k++) {
    let best = -1;
    for (let i = 0; i < parts.length; i++) {
      if (at[i]! < parts[i]!.docs.length) {
        if (best < 0 || parts[i]!.docs[at[i]!]! < parts[best]!.docs[at[best]!]!) best = i;
      }
    }
    const p = parts[best]!;
    docs[k] = p.docs[at[best]!]!;
    if (scores) scores[k] = p.scores ? p.scores[at[best]!]! : 0;
    at[best]!++;
  }
  return { docs, scores };
}
