// Parses Query DSL JSON into frozen QueryNode trees, with Elasticsearch's parse errors.

import { illegalArgument, parsingError } from "../_errors.ts";
import type { BoostedField, NestedScoreMode, QueryNode, QueryOf } from "./query_nodes.ts";
import { parseFunction } from "./function_score.ts";
import { parseKnnQuery } from "./knn.ts";
import { parseScriptQuery, parseScriptScore } from "./script_score.ts";
import { registerName } from "./named_queries.ts";
import { parseQueryString, parseSimpleQueryString } from "./query_string.ts";
import { parseRegexpFlags } from "./regexp_syntax.ts";
import { parseSpan, SPAN_QUERIES } from "./span_parser.ts";
import { isJsonObject, type JsonObject } from "../_json.ts";
import { parseTimeZone } from "../_index/time_zones.ts";

type Parser = (body: unknown, name: string) => QueryNode;

function expectObject(v: unknown, name: string): JsonObject {
  if (!isJsonObject(v)) {
    throw parsingError(`[${name}] query malformed, no start_object after query name`);
  }
  return v;
}

function boostOf(o: JsonObject): number {
  const b = o.boost ?? 1;
  const n = typeof b === "string" || typeof b === "bigint" ? Number(b) : b;
  if (typeof n !== "number" || Number.isNaN(n)) throw parsingError(`[boost] must be a number`);
  return n;
}

/** A `time_zone` value, checked as Elasticsearch checks it. */
function timeZoneOf(v: unknown): string {
  if (typeof v !== "string") throw parsingError(`[range] time_zone must be a string`);
  return parseTimeZone(v).id;
}

function checkKeys(o: JsonObject, name: string, allowed: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (k !== "boost" && k !== "_name" && !allowed.includes(k)) {
      throw parsingError(`[${name}] query does not support [${k}]`);
    }
  }
}

/** Splits `{ field: value }` or `{ field: { value, ...params } }` of single-field queries. */
function singleField(
  body: unknown,
  name: string,
  valueKey: string,
): { field: string; params: JsonObject } {
  const o = expectObject(body, name);
  const fields = Object.keys(o).filter((k) => k !== "boost" && k !== "_name");
  if (fields.length !== 1) {
    if (fields.length === 0) throw parsingError(`[${name}] query malformed, no field specified`);
    throw parsingError(
      `[${name}] query doesn't support multiple fields, found [${fields[0]}] and [${fields[1]}]`,
    );
  }
  const field = fields[0]!;
  const raw = o[field];
  const params: JsonObject = isJsonObject(raw) ? { ...raw } : { [valueKey]: raw };
  if (o.boost !== undefined && params.boost === undefined) params.boost = o.boost;
  return { field, params };
}

function clauses(v: unknown): QueryNode[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v.map((q) => parseQuery(q)) : [parseQuery(v)];
}

function msm(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

function operatorOf(v: unknown, name: string): "or" | "and" {
  if (v === undefined) return "or";
  const op = String(v).toLowerCase();
  if (op !== "or" && op !== "and") throw parsingError(`[${name}] unknown operator [${v}]`);
  return op;
}

/** Parses `["title^2", "body"]` into boosted fields. */
export function boostedFields(v: unknown): BoostedField[] {
  const list = v === undefined ? ["*"] : Array.isArray(v) ? v : [v];
  return list.map((f) => {
    const s = String(f);
    const at = s.lastIndexOf("^");
    return at < 0
      ? { field: s, boost: 1 }
      : { field: s.slice(0, at), boost: Number(s.slice(at + 1)) };
  });
}

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
  variant: { prefixLast?: boolean },
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

function fuzzyParams(
  p: JsonObject,
): { fuzziness?: string; prefixLength?: number; transpositions?: boolean } {
  if (p.fuzziness === undefined) return {};
  return {
    fuzziness: String(p.fuzziness),
    prefixLength: Number(p.prefix_length ?? 0),
    transpositions: p.fuzzy_transpositions !== false,
  };
}

const TERM_KEYS = ["value", "case_insensitive"];
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

const spanParser: Parser = (b, n) => ({
  kind: "span",
  span: parseSpan(n, b),
  boost: boostOf(expectObject(b, n)),
});

const SCORE_MODES: readonly NestedScoreMode[] = ["avg", "max", "min", "sum", "none"];

const PARSERS: Record<string, Parser> = {
  ...Object.fromEntries(SPAN_QUERIES.map((name) => [name, spanParser])),
  match_all: (b, n) => ({ kind: "match_all", boost: boostOf(expectObject(b, n)) }),
  match_none: (b, n) => (expectObject(b, n), { kind: "match_none" }),
  term: (b, n) => {
    const { field, params } = singleField(b, n, "value");
    checkKeys(params, n, TERM_KEYS);
    if (params.value === undefined || params.value === null || isJsonObject(params.value)) {
      throw parsingError(`[term] query malformed, no value specified`);
    }
    return {
      kind: "term",
      field,
      value: params.value,
      boost: boostOf(params),
      caseInsensitive: params.case_insensitive === true,
    };
  },
  terms: (b, n) => {
    const o = expectObject(b, n);
    const fields = Object.keys(o).filter((k) => k !== "boost" && k !== "_name");
    if (fields.length !== 1) throw parsingError(`[terms] query does not support multiple fields`);
    const values = o[fields[0]!];
    if (!Array.isArray(values)) throw parsingError(`[terms] query does not support [${fields[0]}]`);
    return { kind: "terms", field: fields[0]!, values, boost: boostOf(o) };
  },
  match: (b, n) => {
    const { field, params } = singleField(b, n, "query");
    checkKeys(params, n, MATCH_KEYS);
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
    return phraseNode(field, params, { prefixLast: true });
  },
  match_bool_prefix: (b, n) => {
    const { field, params } = singleField(b, n, "query");
    checkKeys(params, n, MATCH_KEYS);
    return matchNode(field, params, n, { zeroTermsAll: false, prefixLast: true });
  },
  multi_match: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, [...MATCH_KEYS, "fields", "type", "tie_breaker", "slop"]);
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
        if (o[k] !== undefined) throw parsingError(`[${k}] not allowed for type [bool_prefix]`);
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
    // One query over several text fields as if they were one field: cross-field term matching
    // (scored per term across the fields, not Lucene's BM25F field blending).
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
      type: "cross_fields",
      operator: operatorOf(o.operator, n),
      minimumShouldMatch: msm(o.minimum_should_match),
      tieBreaker: 0,
      boost: boostOf(o),
      lenient: false,
      analyzer: undefined,
      ...fuzzyParams({}),
    };
  },
  bool: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, [
      "must",
      "should",
      "must_not",
      "filter",
      "minimum_should_match",
      "adjust_pure_negative",
    ]);
    return {
      kind: "bool",
      must: clauses(o.must),
      should: clauses(o.should),
      mustNot: clauses(o.must_not),
      filter: clauses(o.filter),
      minimumShouldMatch: msm(o.minimum_should_match),
      boost: boostOf(o),
    };
  },
  range: (b, n) => {
    const { field, params } = singleField(b, n, "value");
    checkKeys(params, n, [
      "gt",
      "gte",
      "lt",
      "lte",
      "from",
      "to",
      "include_lower",
      "include_upper",
      "format",
      "time_zone",
      "relation",
    ]);
    const p: JsonObject = { gt: params.gt, gte: params.gte, lt: params.lt, lte: params.lte };
    if (params.from !== undefined && params.from !== null) {
      p[params.include_lower === false ? "gt" : "gte"] = params.from;
    }
    if (params.to !== undefined && params.to !== null) {
      p[params.include_upper === false ? "lt" : "lte"] = params.to;
    }
    for (const k of Object.keys(p)) if (p[k] === null) delete p[k];
    return {
      kind: "range",
      field,
      ...p,
      format: params.format as string | undefined,
      ...(params.time_zone === undefined ? {} : { timeZone: timeZoneOf(params.time_zone) }),
      boost: boostOf(params),
    };
  },
  prefix: (b, n) => {
    const { field, params } = singleField(b, n, "value");
    checkKeys(params, n, ["value", "rewrite", "case_insensitive"]);
    return {
      kind: "prefix",
      field,
      value: String(params.value),
      boost: boostOf(params),
      caseInsensitive: params.case_insensitive === true,
    };
  },
  wildcard: (b, n) => {
    const { field, params } = singleField(b, n, "value");
    checkKeys(params, n, ["value", "wildcard", "rewrite", "case_insensitive"]);
    const value = String(params.value ?? params.wildcard);
    return {
      kind: "wildcard",
      field,
      value,
      boost: boostOf(params),
      caseInsensitive: params.case_insensitive === true,
    };
  },
  regexp: (b, n) => {
    const { field, params } = singleField(b, n, "value");
    checkKeys(params, n, [
      "value",
      "flags",
      "max_determinized_states",
      "rewrite",
      "case_insensitive",
    ]);
    const maxStates = params.max_determinized_states;
    return {
      kind: "regexp",
      field,
      value: String(params.value),
      boost: boostOf(params),
      caseInsensitive: params.case_insensitive === true,
      flags: parseRegexpFlags(params.flags),
      ...(typeof maxStates === "number" ? { maxDeterminizedStates: maxStates } : {}),
    };
  },
  fuzzy: (b, n) => {
    const { field, params } = singleField(b, n, "value");
    checkKeys(params, n, [
      "value",
      "fuzziness",
      "prefix_length",
      "max_expansions",
      "transpositions",
      "rewrite",
    ]);
    return {
      kind: "match",
      field,
      query: params.value,
      operator: "or",
      boost: boostOf(params),
      zeroTermsAll: false,
      analyzer: "keyword",
      fuzziness: String(params.fuzziness ?? "AUTO"),
      prefixLength: Number(params.prefix_length ?? 0),
      transpositions: params.transpositions !== false,
    };
  },
  exists: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, ["field"]);
    if (typeof o.field !== "string") throw parsingError(`[exists] must be provided with a [field]`);
    return { kind: "exists", field: o.field, boost: boostOf(o) };
  },
  ids: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, ["values", "type"]);
    const values = o.values;
    if (!Array.isArray(values)) {
      throw parsingError(`[ids] query malformed, values must be an array`);
    }
    return { kind: "ids", values: values.map(String), boost: boostOf(o) };
  },
  constant_score: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, ["filter"]);
    if (o.filter === undefined) throw parsingError(`[constant_score] requires a 'filter' element`);
    return { kind: "constant_score", filter: parseQuery(o.filter), boost: boostOf(o) };
  },
  function_score: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, [
      "query",
      "filter",
      "functions",
      "score_mode",
      "boost_mode",
      "max_boost",
      "min_score",
      "weight",
      "field_value_factor",
      "random_score",
    ]);
    const functions = Array.isArray(o.functions)
      ? o.functions.map((f) => parseFunction(f as JsonObject, parseQuery))
      : [];
    const inline: JsonObject = {};
    for (const k of ["weight", "field_value_factor", "random_score"]) {
      if (o[k] !== undefined) inline[k] = o[k];
    }
    if (Object.keys(inline).length) functions.push(parseFunction(inline, parseQuery));
    return {
      kind: "function_score",
      query: o.query === undefined ? { kind: "match_all", boost: 1 } : parseQuery(o.query),
      functions,
      scoreMode: String(o.score_mode ?? "multiply"),
      boostMode: String(o.boost_mode ?? "multiply"),
      maxBoost: Number(o.max_boost ?? Number.MAX_VALUE),
      minScore: o.min_score === undefined ? undefined : Number(o.min_score),
      boost: boostOf(o),
    };
  },
  boosting: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, ["positive", "negative", "negative_boost"]);
    if (o.positive === undefined) {
      throw parsingError(`[boosting] query requires 'positive' query to be set'`);
    }
    if (o.negative === undefined) {
      throw parsingError(`[boosting] query requires 'negative' query to be set'`);
    }
    return {
      kind: "boosting",
      positive: parseQuery(o.positive),
      negative: parseQuery(o.negative),
      negativeBoost: Number(o.negative_boost ?? 0),
      boost: boostOf(o),
    };
  },
  nested: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, ["path", "query", "score_mode", "ignore_unmapped", "inner_hits"]);
    if (typeof o.path !== "string") throw parsingError(`[nested] requires 'path' field`);
    if (o.query === undefined) throw parsingError(`[nested] requires 'query' field`);
    const mode = o.score_mode ?? "avg";
    if (typeof mode !== "string" || !SCORE_MODES.includes(mode as NestedScoreMode)) {
      throw illegalArgument(`No score mode for child query [${mode}] found`);
    }
    return {
      kind: "nested",
      path: o.path,
      query: parseQuery(o.query),
      scoreMode: mode as NestedScoreMode,
      ignoreUnmapped: o.ignore_unmapped === true || o.ignore_unmapped === "true",
      boost: boostOf(o),
    };
  },
  dis_max: (b, n) => {
    const o = expectObject(b, n);
    checkKeys(o, n, ["queries", "tie_breaker"]);
    return {
      kind: "dis_max",
      queries: clauses(o.queries),
      tieBreaker: Number(o.tie_breaker ?? 0),
      boost: boostOf(o),
    };
  },
  knn: (b) => parseKnnQuery(b, parseQuery),
  script_score: (b, n) => parseScriptScore(expectObject(b, n), parseQuery),
  script: (b, n) => parseScriptQuery(expectObject(b, n)),
  query_string: (b, n) => parseQueryString(expectObject(b, n)),
  simple_query_string: (b, n) => parseSimpleQueryString(expectObject(b, n)),
};

/** Parses one Query DSL clause. Unknown query names → 400 `parsing_exception "unknown query [x]"`. */
export function parseQuery(json: unknown): QueryNode {
  if (!isJsonObject(json)) throw parsingError(`query malformed, must start with start_object`);
  const keys = Object.keys(json);
  if (keys.length === 0) return { kind: "match_all", boost: 1 };
  if (keys.length > 1) {
    throw parsingError(
      `[${keys[0]}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`,
    );
  }
  const name = keys[0]!;
  const parser = Object.hasOwn(PARSERS, name) ? PARSERS[name] : undefined;
  if (!parser) throw parsingError(`unknown query [${name}]`);
  const node = Object.freeze(parser(json[name], name));
  registerName(node, json[name]);
  return node;
}
