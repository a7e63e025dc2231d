/**
 * The metadata of one search hit (or fetched document) beside its `_ID` and `_DOC`: score, sort
 * values, highlights, named queries, inner hits, index, version and sequence numbers.
 *
 * @module
 */

import { isJsonObject, type JsonObject } from "../_json.ts";

/**
 * What a hit carries beside its source. Fields the response did not have are null (or empty).
 *
 * @example
 * ```ts
 * import { readHitMeta } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const meta = readHitMeta({ _index: "users", _id: "1", _score: 1.5, matched_queries: ["by_name"] });
 * assert.equal(meta.score, 1.5);
 * assert.deepEqual(meta.matchedQueries, ["by_name"]);
 * assert.equal(meta.version, null);
 * ```
 */
export interface HitMeta {
  /** `_index`: the concrete index the hit came from. */
  readonly index: string | null;
  /** `_id`. */
  readonly id: string | null;
  /** `_score` (null when the search sorted without scoring). */
  readonly score: number | null;
  /** `sort`: the hit's sort values (what `search_after` takes), integers beyond 2^53 as bigint. */
  readonly sort: readonly unknown[] | null;
  /** `highlight`: fragments per field. */
  readonly highlight: Readonly<Record<string, readonly string[]>> | null;
  /** The names of the named queries (`_name`) the hit matched. */
  readonly matchedQueries: readonly string[];
  /** Their scores, when the search asked for `include_named_queries_score`. */
  readonly matchedQueryScores: Readonly<Record<string, number>> | null;
  /** `inner_hits` as sent, by name (read them with `ResultSet.getInnerHits(name)`). */
  readonly innerHits: Readonly<Record<string, unknown>> | null;
  /** `_version` (searches return it with `"version": true`). */
  readonly version: number | null;
  /** `_seq_no` (searches return it with `"seq_no_primary_term": true`). */
  readonly seqNo: number | null;
  /** `_primary_term`. */
  readonly primaryTerm: number | null;
  /** `_routing`, when the document was routed. */
  readonly routing: string | null;
  /** `fields` (docvalue, stored, script and runtime fields), as sent. */
  readonly fields: Readonly<Record<string, readonly unknown[]>> | null;
}

const num = (v: unknown): number | null =>
  typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : null;
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * The raw hits of a response, one per row: the hits of a search, the docs of an `_mget`, or the
 * document of a single GET (none when it was not found).
 *
 * @param raw A parsed response body.
 * @returns Its hit objects, in row order.
 */
export function hitsOf(raw: unknown): readonly unknown[] {
  if (!isJsonObject(raw)) return [];
  if (isJsonObject(raw.hits) && Array.isArray(raw.hits.hits)) {
    return raw.hits.hits.filter(isJsonObject);
  }
  if (Array.isArray(raw.docs)) return raw.docs.filter(isJsonObject);
  if (raw._id !== undefined) return raw.found === false ? [] : [raw];
  return [];
}

/**
 * Reads the metadata of a raw hit (an element of `hits.hits`, an `_mget` doc or a `GET` answer).
 *
 * @param hit The raw hit.
 * @returns Its metadata; everything null when `hit` is not an object.
 *
 * @example
 * ```ts
 * import { readHitMeta } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const meta = readHitMeta({ _id: "1", _seq_no: 4, _primary_term: 1, sort: [12345678901234567890n] });
 * assert.deepEqual([meta.seqNo, meta.primaryTerm], [4, 1]);
 * assert.deepEqual(meta.sort, [12345678901234567890n]);
 * ```
 */
export function readHitMeta(hit: unknown): HitMeta {
  const h: JsonObject = isJsonObject(hit) ? hit : {};
  const matched = h.matched_queries;
  return {
    index: str(h._index),
    id: h._id === undefined || h._id === null ? null : String(h._id),
    score: num(h._score),
    sort: Array.isArray(h.sort) ? h.sort : null,
    highlight: isJsonObject(h.highlight) ? h.highlight as Record<string, string[]> : null,
    matchedQueries: Array.isArray(matched)
      ? matched.map(String)
      : isJsonObject(matched)
      ? Object.keys(matched)
      : [],
    matchedQueryScores: isJsonObject(matched) ? matched as Record<string, number> : null,
    innerHits: isJsonObject(h.inner_hits) ? h.inner_hits : null,
    version: num(h._version),
    seqNo: num(h._seq_no),
    primaryTerm: num(h._primary_term),
    routing: str(h._routing),
    fields: isJsonObject(h.fields) ? h.fields as Record<string, unknown[]> : null,
  };
}
