// Parsers of the compound queries, which hold other queries: `bool`, `constant_score`,
// `function_score`, `boosting`, `nested` and `dis_max`. Each clause is parsed by the `parseQuery`
// handed in, so this file needs no import of the dispatcher.

import { illegalArgument, parsingError } from "../_errors.ts";
import type { NestedScoreMode, QueryNode } from "./query_nodes.ts";
import { parseFunction } from "./function_score.ts";
import type { JsonObject } from "../_json.ts";
import {
  boostOf,
  checkKeys,
  expectObject,
  msm,
  type Parser,
  unknownKey,
} from "./query_parse_util.ts";

const SCORE_MODES: readonly NestedScoreMode[] = ["avg", "max", "min", "sum", "none"];

/** The compound query parsers, by query name, parsing their clauses with `parseQuery`. */
export function compoundParsers(
  parseQuery: (json: unknown) => QueryNode,
): Record<string, Parser> {
  function clauses(v: unknown): QueryNode[] {
    if (v === undefined || v === null) return [];
    return Array.isArray(v) ? v.map((q) => parseQuery(q)) : [parseQuery(v)];
  }
  return {
    bool: (b, n) => {
      const o = expectObject(b, n);
      // (the real engines' `bool` parser is an ObjectParser: no `line`/`col` fields)
      const unknown = unknownKey(o, [
        "must",
        "should",
        "must_not",
        "filter",
        "minimum_should_match",
        "adjust_pure_negative",
      ]);
      if (unknown !== undefined) throw parsingError(`[bool] query does not support [${unknown}]`);
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
    constant_score: (b, n) => {
      const o = expectObject(b, n);
      checkKeys(o, n, ["filter"]);
      if (o.filter === undefined) {
        throw parsingError(`[constant_score] requires a 'filter' element`);
      }
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
  };
}
