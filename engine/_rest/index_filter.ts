// `_field_caps`' `index_filter`: which indices the filter can match. The real engines do not
// search for a matching document: they rewrite the query against each shard and drop the shard
// when it becomes `match_none` (Elasticsearch's and OpenSearch's `queryStillMatchesAfterRewrite`).
// A term-level query on a field the index does not map rewrites to nothing; `_index` queries
// compare the index name; a `range` on a date field is dropped when it cannot reach the shard's
// values (an index with none included); `bool`, `constant_score`, `boosting` and
// `function_score` pass their clauses' verdict up. Anything else (`match`, a numeric range, a
// term no document holds) keeps the index.

import { matchPattern } from "../_index/name_pattern.ts";
import { isJsonObject } from "../_json.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import { own } from "../_index/own.ts";
import type { FieldMapping } from "../_index/types.ts";
import type { IndexState } from "../_state/index_state.ts";
import { countApi } from "../_search/matches_api.ts";
import { parseQuery } from "../_query/query_parser.ts";

type Json = Record<string, unknown>;

/** Term-level queries that rewrite to `match_none` on a field the index does not map. */
const UNMAPPED_NONE = new Set(["term", "terms", "prefix", "wildcard", "fuzzy", "range", "exists"]);

const LOWER = ["gt", "gte", "from", "include_lower"];
const UPPER = ["lt", "lte", "to", "include_upper"];

function clauses(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined ? [] : [v];
}

/** The one field a term-level query names (`exists` names it in `field`). */
function fieldOf(type: string, body: Json): string | undefined {
  if (type === "exists") return typeof body.field === "string" ? body.field : undefined;
  return Object.keys(body).find((k) => k !== "boost" && k !== "_name");
}

/** Whether `path` is an alias field of the mapping. */
function isAlias(props: Record<string, FieldMapping> | undefined, path: string): boolean {
  const [head, ...rest] = path.split(".");
  const field = props ? own(props, head!) : undefined;
  if (!field) return false;
  if (rest.length === 0) return field.type === "alias";
  return isAlias(field.properties, rest.join("."));
}

function mapped(index: IndexState, field: string): boolean {
  if (field.startsWith("_")) return true; // metadata fields
  const map = fieldMapOf(index.mappings);
  if (field.includes("*")) return map.expand(field).length > 0;
  return map.byPath.has(field) || map.objects.has(field) ||
    isAlias(index.mappings.properties, field);
}

/** The values of an `_index` query, when it is one. */
function indexMatches(type: string, value: unknown, name: string): boolean | undefined {
  const v = isJsonObject(value) ? value.value ?? value.values : value;
  if (type === "term" || type === "wildcard") {
    return typeof v === "string" ? matchPattern(v, name) : undefined;
  }
  if (type === "terms") {
    return Array.isArray(value) ? value.some((x) => String(x) === name) : undefined;
  }
  if (type === "prefix") return typeof v === "string" ? name.startsWith(v) : undefined;
  return undefined;
}

function count(index: IndexState, query: Json): number {
  return Number(countApi([index.searchTarget()], { query }, new URLSearchParams()).count);
}

/**
 * A date range that cannot reach the index's values: asked as its lower bound alone and its
 * upper bound alone, one of the two matches no document (the values' maximum lies below the
 * range, or their minimum above it; an index without values fails both).
 */
function dateRangeMisses(index: IndexState, field: string, body: Json): boolean {
  const map = fieldMapOf(index.mappings);
  const info = map.byPath.get(field);
  if (!info || info.kind !== "date" || map.nestedPathOf(field) !== "") return false;
  const half = (drop: string[]): Json =>
    Object.fromEntries(Object.entries(body).filter(([k]) => !drop.includes(k)));
  return count(index, { range: { [field]: half(UPPER) } }) === 0 ||
    count(index, { range: { [field]: half(LOWER) } }) === 0;
}

function rewritesToNone(
  index: IndexState,
  query: unknown,
  flavour: "elasticsearch" | "opensearch",
): boolean {
  if (!isJsonObject(query)) return false;
  const type = Object.keys(query)[0];
  if (type === undefined) return false;
  const body = query[type];
  if (type === "match_none") return true;
  if (!isJsonObject(body)) return false;
  const none = (q: unknown) => rewritesToNone(index, q, flavour);
  switch (type) {
    case "bool": {
      const required = [...clauses(body.must), ...clauses(body.filter)];
      if (required.some(none)) return true;
      // Elasticsearch 9 rewrites a `must_not` of `match_all` to nothing; OpenSearch does not.
      if (
        flavour === "elasticsearch" &&
        clauses(body.must_not).some((q) => isJsonObject(q) && Object.keys(q)[0] === "match_all")
      ) return true;
      const should = clauses(body.should);
      return required.length === 0 && should.length > 0 && should.every(none);
    }
    case "constant_score":
      return none(body.filter);
    case "boosting":
      return none(body.positive);
    case "function_score":
      return body.query !== undefined && none(body.query);
  }
  if (!UNMAPPED_NONE.has(type)) return false;
  const field = fieldOf(type, body);
  if (field === undefined) return false;
  if (field === "_index") return indexMatches(type, body[field], index.name) === false;
  if (!mapped(index, field)) return true;
  if (type === "range" && isJsonObject(body[field])) {
    return dateRangeMisses(index, field, body[field] as Json);
  }
  return false;
}

/**
 * Whether `index_filter` can match `index`: false when the real engines would rewrite it to
 * `match_none` on the index's shards. A filter that does not parse fails as in a search.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine } from "../engine.ts";
 *
 * const engine = new Engine();
 * await engine.fetch("http://x/logs", { method: "PUT" });
 * const caps = await engine.fetch("http://x/logs/_field_caps?fields=*", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ index_filter: { term: { unmapped: 1 } } }),
 * });
 * assert.deepEqual((await caps.json()).indices, []);
 * engine.close();
 * ```
 */
export function indexFilterMatches(
  index: IndexState,
  filter: unknown,
  flavour: "elasticsearch" | "opensearch",
): boolean {
  parseQuery(filter); // a filter that does not parse fails as in a search (it is never run)
  return !rewritesToNone(index, filter, flavour);
}
