// Parsers of the full-text queries: `match` and its phrase and prefix variants, `multi_match` and
// `combined_fields`.

import { parsingError, parsingErrorAt } from "../_errors.ts";
import type { QueryOf } from "./query_nodes.ts";
import type { JsonObject } from "../_json.ts";
import {
  boostedFields,
  boostOf,
  checkKeys,
  expectObject,
  fuzzyParams,
  msm,
  operatorOf,
  type Parser,
  queryDialect,
  singleField,
} from "./query_parse_util.ts";

/** The `match` node of `match` and `match_bool_prefix`; `variant` holds what differs. */
function matchNode(
  field: string,
  params: JsonObject,
  n: string,
  variant: { zeroTermsAll: boolean; lenient?: boolean; prefixLast?: boolean },
): QueryOf<"match"> {
  return {
    kind: "match",
    field,
    query: params.query,
    operator: operatorOf(params.operator, n),
    minimumShouldMatch: msm(params.minimum_should_match),
    analyzer: params.analyzer as string | undefined,
    boost: boostOf(params),
    ...variant,
    ...fuzzyParams(params),
  };
}

/** The `match_phrase` node of `match_phrase` and `match_phrase_prefix`. */
function phraseNode(
  field: string,
  params: JsonObject,
  variant: { prefixLast?: boolean; maxExpansions?: number },
): QueryOf<"match_phrase"> {
  return {
    kind: "match_phrase",
    field,
    query: params.query,
    slop: Number(params.slop ?? 0),
    boost: boostOf(params),
    ...variant,
  };
}

const MATCH_KEYS = [
  "query",
  "operator",
  "minimum_should_match",
  "analyzer",
  "fuzziness",
  "prefix_length",
  "max_expansions",
  "fuzzy_transpositions",
  "lenient",
  "zero_terms_query",
  "auto_generate_synonyms_phrase_query",
  "cutoff_frequency",
  "fuzzy_rewrite",
];

/** `match` keys of the parse's dialect: Elasticsearch 9.5.4 refuses `cutoff_frequency`. */
function matchKeys(): readonly string[] {
  return queryDialect() === "elasticsearch"
    ? MATCH_KEYS.filter((k) => k !== "cutoff_frequency")
    : MATCH_KEYS;
}

/** The full-text query parsers, by query name. */
export const FULL_TEXT_PARSERS: Record<string, Parser> = {
  match: (b, n) => {
    const { field, params } = singleField(b, n, "query");
    checkKeys(params, n, matchKeys());
    if (params.query === undefined) throw parsingError(`No text specified for text query`);
    return matchNode(field, params, n, {
      zeroTermsAll: String(params.zero_terms_query ?? "none").toLowerCase() === "all",
      lenient: params.lenient === true,
    });
  },
  match_phrase: (b, n) => {
    const { field, params } = singleField(b, n, "query");
    checkKeys(params, n, ["query", "slop", "analyzer", "zero_terms_query"]);
    return phraseNode(field, params, {});
  },
  match_phrase_prefix: (b, n) => {
    const { field, params } = singleField(b, n, "query");
    checkKeys(params, n, ["query", "slop", "analyzer", "max_expansions", "zero_terms_query"]);
    return phraseNode(field, params, {
      prefixLast: true,
      ...(params.max_expansions === undefined
        ? {}
        : { maxExpansions: Number(params.max_expansions) }),
    });
  },
  match_bool_prefix: (b, n) => {
    const { field, params } = singleField(b, n, "query");
    // both real engines refuse `cutoff_frequency` here, where `match` (OpenSearch) still takes it
    checkKeys(params, n, MATCH_KEYS.filter((k) => k !== "cutoff_frequency"));
    return matchNode(field, params, n, { zeroTermsAll: false, prefixLast: true });
  },
  multi_match: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, [...matchKeys(), "fields", "type", "tie_breaker", "slop"]);
    if (o.query === undefined) throw parsingError(`[multi_match] requires query value`);
    const type = String(o.type ?? "best_fields");
    const known = [
      "best_fields",
      "most_fields",
      "cross_fields",
      "phrase",
      "phrase_prefix",
      "bool_prefix",
    ];
    if (!known.includes(type)) {
      throw parsingError(`failed to parse [multi_match] query type [${type}]. unknown type.`);
    }
    if (type === "bool_prefix") {
      for (const k of ["slop", "cutoff_frequency"]) {
        if (o[k] !== undefined) {
          throw parsingErrorAt(`[${k}] not allowed for type [bool_prefix]`, "multi_match", "end");
        }
      }
    }
    return {
      kind: "multi_match",
      fields: boostedFields(o.fields),
      query: o.query,
      type,
      operator: operatorOf(o.operator, n),
      minimumShouldMatch: msm(o.minimum_should_match),
      tieBreaker: Number(
        o.tie_breaker ?? (type === "most_fields" || type === "bool_prefix" ? 1 : 0),
      ),
      boost: boostOf(o),
      lenient: o.lenient === true,
      analyzer: o.analyzer as string | undefined,
      ...fuzzyParams(o),
    };
  },
  combined_fields: (b, n) => {
    // One query over several text fields as if they were one field: each term scored once over
    // the fields blended (BM25F, Lucene's CombinedFieldQuery).
    const o = expectObject(b, n);
    checkKeys(o, n, [
      "query",
      "fields",
      "operator",
      "minimum_should_match",
      "auto_generate_synonyms_phrase_query",
      "zero_terms_query",
    ]);
    if (o.query === undefined) throw parsingError(`[combined_fields] requires 'query' field`);
    if (!Array.isArray(o.fields) || o.fields.length === 0) {
      throw parsingError(`[combined_fields] requires 'fields' field`);
    }
    return {
      kind: "multi_match",
      fields: boostedFields(o.fields),
      query: o.query,
      type: "combined_fields",
      operator: operatorOf(o.operator, n),
      minimumShouldMatch: msm(o.minimum_should_match),
      tieBreaker: 0,
      boost: boostOf(o),
      lenient: false,
      analyzer: undefined,
      ...fuzzyParams({}),
    };
  },
};
