// Which shard a document lands on: the murmur3 hash of its routing value (its `_id` unless
// `routing` is given) over the index's routing shards, as Elasticsearch and OpenSearch route.

/**
 * Murmur3 (x86, 32 bits, seed 0) of a string's UTF-16 code units, little-endian: the hash the
 * real engines route by.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { murmur3 } from "./routing.ts";
 * assert.equal(murmur3(""), 0);
 * assert.equal(typeof murmur3("12"), "number");
 * ```
 */
export function murmur3(s: string): number {
  const n = s.length * 2;
  const byte = (i: number) => {
    const c = s.charCodeAt(i >> 1);
    return i & 1 ? c >>> 8 : c & 255;
  };
  const mix = (k: number) => {
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    return Math.imul(k, 0x1b873593);
  };
  let h = 0;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    h ^= mix(byte(i) | (byte(i + 1) << 8) | (byte(i + 2) << 16) | (byte(i + 3) << 24));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  // A string's byte length is even: the tail is two bytes or none.
  if (n & 3) h ^= mix(byte(blocks) | (byte(blocks + 1) << 8));
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/**
 * OpenSearch's default `index.number_of_routing_shards`: the shard count doubled as often as it
 * can be split up to 1024 shards (at least once). Elasticsearch 9 routes over the shards
 * themselves unless the setting is given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitRoutingShards } from "./routing.ts";
 * assert.equal(splitRoutingShards(3), 768);
 * assert.equal(splitRoutingShards(1), 1024);
 * ```
 */
export function splitRoutingShards(shards: number): number {
  const log2 = 32 - Math.clz32(shards - 1);
  return shards * 2 ** Math.max(1, 10 - log2);
}

/**
 * The routing shards a searched index's documents were placed over: the index's own
 * (`routingShards`, from `index.number_of_routing_shards` where the flavour honours it), else
 * OpenSearch's default or, in Elasticsearch, the shards themselves.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { routingShardsOf } from "./routing.ts";
 * assert.equal(routingShardsOf({ shards: 5, flavour: "opensearch", routingShards: 5 }), 5);
 * assert.equal(routingShardsOf({ shards: 5, flavour: "opensearch" }), 640);
 * ```
 */
export function routingShardsOf(
  target: { shards?: number; flavour?: string; routingShards?: number },
): number {
  const shards = target.shards ?? 1;
  return target.routingShards ??
    (target.flavour === "opensearch" ? splitRoutingShards(shards) : shards);
}

/**
 * The shard of `routing` among `shards`, hashed over `routingShards` (a multiple of `shards`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardFor } from "./routing.ts";
 * // As Elasticsearch 9.5.4 placed ids 0..3 on a three-shard index.
 * assert.deepEqual(["0", "1", "8", "9"].map((id) => shardFor(id, 3, 3)), [0, 2, 1, 2]);
 * ```
 */
export function shardFor(routing: string, shards: number, routingShards: number): number {
  if (shards <= 1) return 0;
  const h = murmur3(routing);
  const m = ((h % routingShards) + routingShards) % routingShards;
  return Math.floor(m / (routingShards / shards));
}
