/**
 * Where a routing value (or a document id) lands, as the real engines place it: Murmur3 x86 32-bit
 * (seed 0) over the value's UTF-16 code units in little-endian order, then reduced over the index's
 * routing shards and divided by the routing factor. OpenSearch 3.8 defaults the routing shards to
 * the largest `shards * 2^k ≤ 1024` (at least one split); Elasticsearch 9.5 was measured to place
 * documents by the hash modulo the shard count. Matching the real placement keeps per-shard
 * figures (`_seq_no`, `_cat/shards` docs, `_search_shards`) the same as theirs.
 */

/** Murmur3 x86_32 (seed 0) of a string's UTF-16LE bytes, as a signed 32-bit integer. */
export function routingHash(value: string): number {
  const chars = value.length;
  const byteLength = chars * 2;
  let h = 0;
  const pairs = chars >> 1;
  for (let j = 0; j < pairs; j++) {
    const k = value.charCodeAt(2 * j) | (value.charCodeAt(2 * j + 1) << 16);
    h ^= mixK(k);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (chars & 1) h ^= mixK(value.charCodeAt(chars - 1));
  h ^= byteLength;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

function mixK(k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, 0x1b873593);
}

/** The default number of routing shards for an index of `shards` primaries (7.0 and later). */
export function defaultRoutingShards(shards: number): number {
  const log2Shards = shards <= 1 ? 0 : 32 - Math.clz32(shards - 1);
  const splits = Math.max(1, 10 - log2Shards);
  return shards * 2 ** splits;
}

/** The shard (0-based) a routing value lands on among `shards`, over `routingShards`. */
export function shardFor(value: string, shards: number, routingShards: number): number {
  if (shards <= 1) return 0;
  const hash = routingHash(value);
  const mod = ((hash % routingShards) + routingShards) % routingShards;
  return Math.floor(mod / (routingShards / shards));
}
