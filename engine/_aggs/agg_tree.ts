// Reading an `aggs` object's entries (type, body, sub-aggregations, meta) and checking the whole
// tree before anything runs, so a malformed or unknown aggregation is a 400 even when no bucket
// would ever reach it (or the index does not exist).

import { type EngineError, esError, parsingError } from "../_errors.ts";
import { editDistance } from "../_query/fuzzy.ts";
import type { JsonObject } from "../_json.ts";

/** One entry of an `aggs` object. */
export interface AggDef {
  readonly type: string;
  readonly body: JsonObject;
  readonly sub: JsonObject | undefined;
  readonly meta: unknown;
}

/** Reads the entry `name` of an `aggs` object, refusing what Elasticsearch's parser refuses. */
export function readAggDef(name: string, def: unknown): AggDef {
  if (typeof def !== "object" || def === null || Array.isArray(def)) {
    throw parsingError(
      `Expected [START_OBJECT] under [${name}], but got a [VALUE_STRING] in [${name}]`,
    );
  }
  let type: string | undefined;
  let body: JsonObject | undefined;
  let sub: JsonObject | undefined;
  let meta: unknown;
  for (const [k, v] of Object.entries(def as JsonObject)) {
    if (k === "aggs" || k === "aggregations") {
      if (v === null || typeof v !== "object" || Array.isArray(v)) {
        throw parsingError(`Expected [START_OBJECT] under [${k}], but got a [VALUE] in [${name}]`);
      }
      sub = v as JsonObject;
    } else if (k === "meta") meta = v;
    else if (type !== undefined) {
      throw parsingError(
        `Found two aggregation type definitions in [${name}]: [${type}] and [${k}]`,
      );
    } else {
      type = k;
      body = v as JsonObject;
    }
  }
  if (!type) throw parsingError(`Missing definition for aggregation [${name}]`);
  return { type, body: body ?? {}, sub, meta };
}

/** " did you mean [x]?" for the known names close to `input`, as Elasticsearch suggests them. */
function suggest(input: string, known: readonly string[]): string {
  const close = known
    .map((k) => {
      const longest = Math.max(input.length, k.length);
      return { k, score: 1 - editDistance(input, k, longest, "levenshtein") / longest };
    })
    .filter((c) => c.score > 0.5)
    .sort((a, b) => b.score - a.score || (a.k < b.k ? -1 : 1))
    .map((c) => c.k);
  if (close.length === 0) return "";
  return close.length === 1
    ? ` did you mean [${close[0]}]?`
    : ` did you mean any of [${close.join(", ")}]?`;
}

/**
 * The real engines' refusal of an unknown type: a `parsing_exception` placed at the type's value
 * (`line`, `col`), caused by the registry's `named_object_not_found_exception`.
 */
function unknownType(type: string, known: readonly string[]): EngineError {
  const e = esError(
    "parsing_exception",
    `Unknown aggregation type [${type}]${suggest(type, known)}`,
    {},
    esError("named_object_not_found_exception", `unknown field [${type}]`),
  );
  e.spot = { key: type, at: "value" };
  return e;
}

/** Checks every entry of an `aggs` tree: shape and known types (`known` lists them). */
export function checkAggTree(aggs: JsonObject, known: readonly string[]): void {
  for (const [name, def] of Object.entries(aggs)) {
    const { type, sub } = readAggDef(name, def);
    if (!known.includes(type)) throw unknownType(type, known);
    if (sub) checkAggTree(sub, known);
  }
}
