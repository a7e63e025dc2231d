// `_shard_doc` sort values as the real engines compute them: the shard's index in the search
// (shifted 32 bits) plus the Lucene doc id within that shard, where each document is routed by
// murmur3 of its `_id` (or routing) and every nested object takes a doc id before its parent.

import type { FieldMap } from "../_index/field_map.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { routingShardsOf, shardFor } from "../_index/routing.ts";
import { fieldMapOf } from "../_index/field_map.ts";

/** Lucene documents a source's nested objects make (every level), beside the root document. */
export function nestedDocCount(source: unknown, fields: FieldMap, prefix = ""): number {
  if (source === null || typeof source !== "object") return 0;
  if (Array.isArray(source)) {
    let n = 0;
    for (const item of source) n += nestedDocCount(item, fields, prefix);
    return n;
  }
  let n = 0;
  for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
    const path = prefix + key;
    if (fields.nested.has(path)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === null || typeof item !== "object") continue;
        n += 1 + nestedDocCount(item, fields, path + ".");
      }
    } else if (fields.objects.has(path)) n += nestedDocCount(value, fields, path + ".");
  }
  return n;
}

const cache = new WeakMap<object, Float64Array>();

/**
 * The `_shard_doc` value of every document of a target (by global ordinal), its shards counted
 * from `firstShard` (the shards of the targets before it).
 */
export function shardDocValues(target: SearchTarget, firstShard: number): Float64Array {
  const known = cache.get(target.snapshot);
  if (known && firstShard === 0) return known;
  const shards = target.shards ?? 1;
  const routingShards = routingShardsOf(target);
  const fields = fieldMapOf(target.mappings);
  const next = new Array<number>(shards).fill(0);
  const out = new Float64Array(target.snapshot.maxDoc);
  for (const v of target.snapshot.views) {
    v.segment.docs.forEach((doc, local) => {
      const shard = shardFor(doc.routing ?? doc.id, shards, routingShards);
      const id = next[shard]! + (fields.nested.size ? nestedDocCount(doc.source, fields) : 0);
      next[shard] = id + 1;
      out[v.base + local] = (firstShard + shard) * 2 ** 32 + id;
    });
  }
  if (firstShard === 0) cache.set(target.snapshot, out);
  return out;
}
