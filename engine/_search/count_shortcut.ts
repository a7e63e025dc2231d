// OpenSearch's `terminated_early: true` on a search for no hits with aggregations. Its query phase
// counts the hits of a `size: 0` search with a collector that stops early
// (EmptyTopDocsCollectorContext): at once when it need not count (a total known without counting,
// or `track_total_hits: false`), else after `track_total_hits` documents. Stopped at once, it says
// so as soon as a shard hands it a segment; the aggregations still see every document. Without
// aggregations no segment is searched, and Elasticsearch never reports it.

import type { QueryNode } from "../_query/query_nodes.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import { shardDocValues } from "../_hits/shard_doc.ts";
import type { SearchRequest } from "./search_request.ts";

const SHARD_SPAN = 2 ** 32;

/** How each shard of a target holds documents, and how many of `matches` it holds. */
interface ShardState {
  segments: boolean;
  deletions: boolean;
  live: number;
  matches: number;
}

function shardStates(target: SearchTarget, matches: Int32Array): ShardState[] {
  const states = Array.from(
    { length: target.shards ?? 1 },
    () => ({ segments: false, deletions: false, live: 0, matches: 0 }),
  );
  const shardOf = shardDocValues(target, 0);
  for (const v of target.snapshot.views) {
    for (let local = 0; local < v.segment.maxDoc; local++) {
      const state = states[Math.floor(shardOf[v.base + local]! / SHARD_SPAN)];
      if (!state) continue;
      state.segments = true;
      if (v.deleted?.[local] === 1) state.deletions = true;
      else state.live++;
    }
  }
  for (const doc of matches) {
    const state = states[Math.floor(shardOf[doc]! / SHARD_SPAN)];
    if (state) state.matches++;
  }
  return states;
}

/**
 * The Lucene query a node becomes when it is one OpenSearch counts without collecting
 * (`shortcutTotalHitCount`): `match_all` (unless nested documents make it a filtered query), a
 * single term on a keyword, text or boolean field (known on a shard without deletions; a match of
 * one term repeated too), or a
 * range every document of the shard falls in (rewritten to match all), through `constant_score`
 * and a `bool` of one clause.
 */
function countable(q: QueryNode, target: SearchTarget): "all" | "term" | "range" | undefined {
  const nested = fieldMapOf(target.mappings).nested.size > 0;
  switch (q.kind) {
    case "match_all":
      return nested ? undefined : "all";
    case "constant_score":
      return countable(q.filter, target);
    case "bool": {
      const clauses = [...q.must, ...q.should, ...q.filter];
      const one = clauses.length === 1 && q.mustNot.length === 0 &&
        (q.should.length === 0 || q.minimumShouldMatch === undefined);
      return one ? countable(clauses[0]!, target) : undefined;
    }
    case "term": {
      if (q.caseInsensitive) return undefined;
      const info = fieldMapOf(target.mappings).byPath.get(q.field);
      const termField = info && (info.kind === "text" || info.kind === "boolean" ||
        info.type === "keyword");
      return termField ? "term" : undefined;
    }
    case "match":
    case "match_phrase": {
      const info = fieldMapOf(target.mappings).byPath.get(q.field);
      if (!info || (info.kind !== "text" && info.type !== "keyword")) return undefined;
      if (q.kind === "match" && (q.fuzziness !== undefined || q.prefixLast)) return undefined;
      if (q.kind === "match_phrase" && q.prefixLast) return undefined;
      const tokens = info.searchAnalyzer(String(q.query));
      if (q.kind === "match_phrase") return tokens.length === 1 ? "term" : undefined;
      // Lucene merges a match's repeated term into one clause (`dog dog` is `body:dog^2.0`), with
      // `and` or a minimum_should_match too, as OpenSearch 3.8.0 shows.
      return new Set(tokens.map((t) => t.term)).size === 1 ? "term" : undefined;
    }
    case "range": {
      const info = fieldMapOf(target.mappings).byPath.get(q.field);
      const points = info && (info.kind === "number" || info.kind === "date");
      return points && !nested ? "range" : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Whether OpenSearch reports `terminated_early: true` for this search: no hits asked for,
 * aggregations, no `terminate_after`, no collector that filters (`post_filter`, `min_score`), and a
 * shard with a segment whose count stops early. `matches` are each target's matching documents.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine } from "../engine.ts";
 * const engine = new Engine({ flavour: "opensearch" });
 * await engine.fetch("http://e/t/_doc/1?refresh=true", {
 *   method: "PUT",
 *   headers: { "content-type": "application/json" },
 *   body: '{"tag":"a"}',
 * });
 * const res = await engine.fetch("http://e/t/_search", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: '{"size":0,"aggs":{"n":{"value_count":{"field":"tag.keyword"}}}}',
 * });
 * assert.equal((await res.json()).terminated_early, true);
 * engine.close();
 * ```
 */
export function terminatesEarly(
  req: SearchRequest,
  targets: readonly SearchTarget[],
  matches: readonly Int32Array[],
): boolean {
  if (
    req.size !== 0 || !req.aggs || Object.keys(req.aggs).length === 0 || req.terminateAfter > 0 ||
    req.postFilter !== null || req.minScore !== null
  ) return false;
  return targets.some((target, t) => {
    const shortcut = countable(req.query, target);
    return shardStates(target, matches[t] ?? new Int32Array()).some((shard) => {
      if (!shard.segments) return false;
      if (req.trackTotalHits === false) return true;
      if (shortcut === "all" || (shortcut === "term" && !shard.deletions)) return true;
      if (shortcut === "range" && shard.matches === shard.live) return true;
      return typeof req.trackTotalHits === "number" && shard.matches > req.trackTotalHits;
    });
  });
}
