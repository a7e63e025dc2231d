// Parses span queries (span_term, span_near, span_or, span_not, span_first, span_multi,
// span_containing, span_within) into span clauses, with Elasticsearch's errors.

import { illegalArgument, parsingError } from "../_errors.ts";
import { wildcardAutomaton } from "../_index/automaton.ts";
import { editDistance, maxEdits } from "./fuzzy.ts";
import { compileRegexp } from "./regexp_syntax.ts";
import { fieldOf, type SpanNode } from "./span_nodes.ts";
import type { JsonObject } from "../_json.ts";

/** Span query names the parser accepts. */
export const SPAN_QUERIES: readonly string[] = [
  "span_term",
  "span_near",
  "span_or",
  "span_not",
  "span_first",
  "span_multi",
  "span_containing",
  "span_within",
];

function object(v: unknown, name: string): JsonObject {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw parsingError(`[${name}] query malformed, no start_object after query name`);
  }
  return v as JsonObject;
}

function clauseOf(v: unknown, owner: string, what: string): SpanNode {
  const o = object(v, owner);
  const [name, body] = Object.entries(o)[0] ?? [];
  if (!name || !SPAN_QUERIES.includes(name)) {
    throw parsingError(`${owner} [${what}] must be of type span query`);
  }
  return parseSpan(name, body);
}

function sameField(clauses: readonly SpanNode[]): void {
  const f = new Set(clauses.map(fieldOf));
  if (f.size > 1) throw illegalArgument("Clauses must have same field.");
}

function multiTest(match: JsonObject): { field: string; test: (t: string) => boolean } {
  const [type, body] = Object.entries(match)[0] ?? [];
  const o = object(body, String(type));
  const [field, spec] = Object.entries(o)[0] ?? [];
  if (!field) throw parsingError(`[${type}] query requires a field`);
  const value = spec !== null && typeof spec === "object" ? (spec as JsonObject).value : spec;
  const text = String(value);
  switch (type) {
    case "prefix":
      return { field, test: (t) => t.startsWith(text) };
    case "wildcard": {
      const a = wildcardAutomaton(text);
      return { field, test: (t) => a.test(t) };
    }
    case "regexp": {
      const a = compileRegexp(text);
      return { field, test: (t) => a.test(t) };
    }
    case "fuzzy": {
      const max = maxEdits(String((spec as JsonObject)?.fuzziness ?? "AUTO"), text);
      return { field, test: (t) => editDistance(t, text, max, "transpositions") <= max };
    }
    default:
      throw parsingError(
        `[span_multi] [match] must be of type multi term query, got [${type}]`,
      );
  }
}

/** Parses one span query body (the value under its name). */
export function parseSpan(name: string, raw: unknown): SpanNode {
  const o = object(raw, name);
  switch (name) {
    case "span_term": {
      const [field, spec] = Object.entries(o).filter(([k]) => k !== "boost" && k !== "_name")[0] ??
        [];
      if (!field) throw parsingError("[span_term] query requires a field");
      const value = spec !== null && typeof spec === "object"
        ? (spec as JsonObject).value ?? (spec as JsonObject).term
        : spec;
      return { kind: "term", field, term: String(value) };
    }
    case "span_near": {
      if (!Array.isArray(o.clauses) || o.clauses.length === 0) {
        throw parsingError("span_near must include [clauses]");
      }
      const clauses = o.clauses.map((c) => clauseOf(c, "span_near", "clauses"));
      sameField(clauses);
      return {
        kind: "near",
        clauses,
        slop: Number(o.slop ?? 0),
        inOrder: o.in_order !== false,
      };
    }
    case "span_or": {
      if (!Array.isArray(o.clauses) || o.clauses.length === 0) {
        throw parsingError("spanOr must include [clauses]");
      }
      const clauses = o.clauses.map((c) => clauseOf(c, "span_or", "clauses"));
      sameField(clauses);
      return { kind: "or", clauses };
    }
    case "span_not": {
      if (o.include === undefined) {
        throw parsingError("span_not must have [include] span query clause");
      }
      if (o.exclude === undefined) {
        throw parsingError("span_not must have [exclude] span query clause");
      }
      if (o.dist !== undefined && (o.pre !== undefined || o.post !== undefined)) {
        throw parsingError("span_not can have either [dist] or [pre] and/or [post] specified.");
      }
      const include = clauseOf(o.include, "span_not", "include");
      const exclude = clauseOf(o.exclude, "span_not", "exclude");
      sameField([include, exclude]);
      const dist = Number(o.dist ?? 0);
      return {
        kind: "not",
        include,
        exclude,
        pre: o.dist !== undefined ? dist : Number(o.pre ?? 0),
        post: o.dist !== undefined ? dist : Number(o.post ?? 0),
      };
    }
    case "span_first": {
      if (o.match === undefined) {
        throw parsingError("span_first must have [match] span query clause");
      }
      if (o.end === undefined) throw parsingError("span_first must have [end] set for it");
      return { kind: "first", match: clauseOf(o.match, "span_first", "match"), end: Number(o.end) };
    }
    case "span_multi": {
      if (o.match === undefined) {
        throw parsingError("span_multi must have [match] multi term query clause");
      }
      return { kind: "multi", ...multiTest(object(o.match, "span_multi")) };
    }
    case "span_containing":
    case "span_within": {
      if (o.big === undefined || o.little === undefined) {
        throw parsingError(`${name} must include [big] and [little]`);
      }
      const big = clauseOf(o.big, name, "big");
      const little = clauseOf(o.little, name, "little");
      sameField([big, little]);
      return { kind: name === "span_containing" ? "containing" : "within", big, little };
    }
  }
  throw parsingError(`unknown query [${name}]`);
}
