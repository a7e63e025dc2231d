// Parsers of the term-level queries: `term`, `terms`, `range`, `prefix`, `wildcard`, `regexp`,
// `fuzzy`, `exists` and `ids`.

import { parsingError } from "../_errors.ts";
import { parseRegexpFlags } from "./regexp_syntax.ts";
import { isJsonObject, type JsonObject } from "../_json.ts";
import { parseTimeZone } from "../_index/time_zones.ts";
import { boostOf, checkKeys, expectObject, type Parser, singleField } from "./query_parse_util.ts";

/** A `time_zone` value, checked as Elasticsearch checks it. */
function timeZoneOf(v: unknown): string {
  if (typeof v !== "string") throw parsingError(`[range] time_zone must be a string`);
  return parseTimeZone(v).id;
}

const TERM_KEYS = ["value", "case_insensitive"];

/** The term-level query parsers, by query name. */
export const TERM_LEVEL_PARSERS: Record<string, Parser> = {
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
};
