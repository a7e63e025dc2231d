// `profile: true`: a per-shard profile in Elasticsearch's shape (query tree with Lucene query
// types and timing breakdowns, rewrite time, collectors, aggregations). The engine does not time
// each query node, so a node's time is its share of the measured query phase.

import type { QueryNode } from "../_query/query_nodes.ts";
import type { JsonObject } from "../_json.ts";

const LUCENE: Partial<Record<QueryNode["kind"], string>> = {
  bool: "BooleanQuery",
  match_all: "MatchAllDocsQuery",
  match_none: "MatchNoDocsQuery",
  term: "TermQuery",
  terms: "TermInSetQuery",
  match: "BooleanQuery",
  match_phrase: "PhraseQuery",
  multi_match: "DisjunctionMaxQuery",
  range: "IndexOrDocValuesQuery",
  prefix: "PrefixQuery",
  wildcard: "WildcardQuery",
  regexp: "RegexpQuery",
  exists: "FieldExistsQuery",
  ids: "TermInSetQuery",
  constant_score: "ConstantScoreQuery",
  dis_max: "DisjunctionMaxQuery",
  function_score: "FunctionScoreQuery",
  boosting: "BoostingQuery",
};

/** The Lucene query a node rewrites to: a `match` of one word is a term query. */
function luceneType(n: QueryNode): string {
  if (
    n.kind === "match" && typeof n.query === "string" && /^[\p{L}\p{N}_]+$/u.test(n.query.trim())
  ) {
    return "TermQuery";
  }
  return LUCENE[n.kind] ?? "Query";
}

const BREAKDOWN = [
  "set_min_competitive_score",
  "match",
  "shallow_advance",
  "next_doc",
  "score",
  "build_scorer",
  "create_weight",
  "advance",
  "compute_max_score",
] as const;

function children(n: QueryNode): QueryNode[] {
  switch (n.kind) {
    case "bool":
      return [...n.must, ...n.should, ...n.mustNot, ...n.filter];
    case "constant_score":
      return [n.filter];
    case "dis_max":
      return [...n.queries];
    case "function_score":
    case "nested":
      return [n.query];
    case "boosting":
      return [n.positive, n.negative];
    default:
      return [];
  }
}

function describe(n: QueryNode): string {
  const o = n as unknown as JsonObject;
  if (n.kind === "match_all") return "*:*";
  if (typeof o.field === "string") {
    const v = o.value ?? o.query ?? o.values ?? "";
    return `${o.field}:${Array.isArray(v) ? v.join(" ") : String(v)}`;
  }
  const kids = children(n);
  return kids.length ? kids.map((k) => `+${describe(k)}`).join(" ") : n.kind;
}

function profileNode(n: QueryNode, nanos: number): JsonObject {
  const kids = children(n);
  const breakdown: JsonObject = {};
  for (const k of BREAKDOWN) {
    breakdown[k] = k === "match" || k === "next_doc" ? Math.round(nanos / 2) : 0;
    breakdown[`${k}_count`] = k === "match" || k === "next_doc" ? 1 : 0;
  }
  const out: JsonObject = {
    type: luceneType(n),
    description: describe(n),
    time_in_nanos: nanos,
    breakdown,
  };
  if (kids.length) {
    out.children = kids.map((k) => profileNode(k, Math.round(nanos / (kids.length + 1))));
  }
  return out;
}

/** The `profile` section of a search response. */
export function searchProfile(
  query: QueryNode,
  indices: string[],
  queryNanos: number,
  aggNames: string[],
): JsonObject {
  const nanos = Math.max(1, Math.round(queryNanos));
  return {
    shards: indices.map((index) => ({
      id: `[searchvisitor][${index}][0]`,
      node_id: "searchvisitor",
      shard_id: 0,
      index,
      cluster: "(local)",
      searches: [{
        query: [profileNode(query, nanos)],
        rewrite_time: 0,
        collector: [{
          name: "QueryPhaseCollector",
          reason: "search_query_phase",
          time_in_nanos: nanos,
        }],
      }],
      aggregations: aggNames.map((name) => ({
        type: "Aggregator",
        description: name,
        time_in_nanos: 0,
        breakdown: {},
      })),
    })),
  };
}
