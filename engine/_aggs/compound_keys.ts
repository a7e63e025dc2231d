// Keys made of several fields' values (`composite`, `multi_terms`): each doc's distinct values
// per field, every combination of them, and comparing key parts in their natural order.

import { type AggInput, eachValue, eachValueOrMissing } from "./agg_values.ts";
import { ipToBigInt } from "../_index/ip_address.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import type { BucketDocs } from "./bucket_aggs.ts";
import type { JsonObject } from "../_json.ts";

/** One part of a compound key; `null` stands for a missing value. */
export type Part = number | string | bigint | null;

/** Each doc's distinct parts of one field, per input (by index), with the field's info. */
export interface DocParts {
  /** Per input: doc → its distinct parts, in the order met. */
  readonly maps: Map<number, Part[]>[];
  /** The field as the first input that maps it sees it. */
  readonly info: FieldInfo | undefined;
}

/**
 * Collects each doc's distinct parts of `field`, mapped by `round` (a histogram's rounding or
 * the identity). With `missingOf` set, a doc without the field gets its `missing` value.
 */
export function docParts(
  inputs: AggInput[],
  field: string,
  round: (v: number | string | bigint) => Part,
  missingOf?: JsonObject,
): DocParts {
  const maps = inputs.map(() => new Map<number, Part[]>());
  const add = (v: number | string | bigint, doc: number, input: AggInput) => {
    const part = round(v);
    const m = maps[inputs.indexOf(input)]!;
    const list = m.get(doc);
    if (!list) m.set(doc, [part]);
    else if (!list.includes(part)) list.push(part);
  };
  const missing = missingOf?.missing;
  const info = missing !== undefined && missing !== null
    ? eachValueOrMissing(inputs, missingOf!, field, add)
    : eachValue(inputs, field, add, true);
  return { maps, info };
}

/** Every combination of one part from each list, in list order. */
export function combinations(lists: Part[][]): Part[][] {
  let out: Part[][] = [[]];
  for (const l of lists) out = out.flatMap((prefix) => l.map((p) => [...prefix, p]));
  return out;
}

/** Compares two non-null parts: numbers before text, text by its code units. */
export function comparePart(a: Part, b: Part): number {
  if (typeof a === "number" || typeof a === "bigint") {
    if (typeof b === "number" || typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
    return -1;
  }
  if (typeof b === "number" || typeof b === "bigint") return 1;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Compares two non-null parts of an `ip` field: as {@link comparePart}, addresses by value. */
export function compareIpPart(a: Part, b: Part): number {
  if (
    typeof a === "number" || typeof a === "bigint" || typeof b === "number" || typeof b === "bigint"
  ) {
    return comparePart(a, b);
  }
  const ia = ipToBigInt(String(a));
  const ib = ia === null ? null : ipToBigInt(String(b));
  if (ia !== null && ib !== null) return ia < ib ? -1 : ia > ib ? 1 : 0;
  return comparePart(a, b);
}

/** The comparison of a field's parts: {@link compareIpPart} for an `ip` field. */
export function partComparator(ip: boolean): (a: Part, b: Part) => number {
  return ip ? compareIpPart : comparePart;
}

/** A string that is equal for equal keys (a map key for buckets). */
export function keyId(key: Part[]): string {
  return key.map((p) => p === null ? "n" : `${typeof p}:${String(p)}`).join("\u0000");
}

/** A bucket of docs under a key, counted once per doc. */
export interface KeyBucket<K> {
  readonly key: K;
  readonly docs: BucketDocs;
  count: number;
}

/**
 * Adds `doc` of input `input` to the bucket of `key` (a part or a compound key, found by its
 * {@link keyId}; made when new); returns the bucket.
 */
export function addToBucket<K extends Part | Part[]>(
  buckets: Map<string, KeyBucket<K>>,
  key: K,
  input: number,
  doc: number,
): KeyBucket<K> {
  const id = keyId(Array.isArray(key) ? key : [key as Part]);
  let b = buckets.get(id);
  if (!b) buckets.set(id, b = { key, docs: new Map(), count: 0 });
  let list = b.docs.get(input);
  if (!list) b.docs.set(input, list = []);
  list.push(doc);
  b.count++;
  return b;
}
