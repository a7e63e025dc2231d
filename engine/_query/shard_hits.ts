// The hits of the shards of one index, merged: each shard ran the query on its own view (the same
// ordinals, the other shards' documents hidden), so their hits are disjoint.

import { type Hits, NO_HITS } from "./doc_set.ts";

/**
 * Merges disjoint hit lists (ascending ordinals each) into one, in ordinal order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeShardHits } from "./shard_hits.ts";
 * const merged = mergeShardHits([
 *   { docs: Int32Array.of(1, 4), scores: Float64Array.of(0.5, 0.25) },
 *   { docs: Int32Array.of(2), scores: Float64Array.of(1) },
 * ]);
 * assert.deepEqual([...merged.docs], [1, 2, 4]);
 * assert.deepEqual([...merged.scores!], [0.5, 1, 0.25]);
 * ```
 */
export function mergeShardHits(lists: readonly Hits[]): Hits {
  const parts = lists.filter((h) => h.docs.length > 0);
  if (parts.length === 0) return NO_HITS;
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
