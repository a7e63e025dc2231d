// The shared pieces of every query family's parser: the object and key checks, `boost`, the
// single-field shape, operators and `minimum_should_match`, boosted field lists and fuzziness.

import { illegalArgument, parsingError, parsingErrorAt } from "../_errors.ts";
import type { BoostedField, QueryNode } from "./query_nodes.ts";
import { isJsonObject, type JsonObject } from "../_json.ts";

/** The product whose query rules apply where the two part (see {@link withQueryDialect}). */
let dialect: "elasticsearch" | "opensearch" | undefined;

/**
 * Runs `parse` (synchronous: the rules hold for that call only) with one product's query rules
 * where the two part: Elasticsearch 8+ dropped `cutoff_frequency` from `match` and `multi_match`.
 * Without a dialect the parsers take what either product takes.
 */
export function withQueryDialect<T>(
  flavour: "elasticsearch" | "opensearch" | undefined,
  parse: () => T,
): T {
  const before = dialect;
  dialect = flavour;
  try {
    return parse();
  } finally {
    dialect = before;
  }
}

/** The dialect of the parse running now (see {@link withQueryDialect}). */
export function queryDialect(): "elasticsearch" | "opensearch" | undefined {
  return dialect;
}

/** Parses one query body under its query name into a node. */
export type Parser = (body: unknown, name: string) => QueryNode;

/** The query body as an object, or the `parsing_exception` Elasticsearch gives for a non-object. */
export function expectObject(v: unknown, name: string): JsonObject {
  if (!isJsonObject(v)) {
    throw parsingError(`[${name}] query malformed, no start_object after query name`);
  }
  return v;
}

/** The clause's `boost` (1 when absent); a non-number is a `parsing_exception`. */
export function boostOf(o: JsonObject): number {
  const b = o.boost ?? 1;
  const n = typeof b === "string" || typeof b === "bigint" ? Number(b) : b;
  if (typeof n !== "number" || Number.isNaN(n)) throw parsingError(`[boost] must be a number`);
  return n;
}

/**
 * Refuses any key of `o` outside `allowed` (`boost` and `_name` always pass), at the key's value
 * (`line` and `col`), where the real engines' hand-written query parsers stand when they refuse it.
 */
export function checkKeys(o: JsonObject, name: string, allowed: readonly string[]): void {
  const k = unknownKey(o, allowed);
  if (k !== undefined) {
    throw parsingErrorAt(`[${name}] query does not support [${k}]`, k, "value");
  }
}

/** The first key of `o` outside `allowed` (`boost` and `_name` always pass). */
export function unknownKey(o: JsonObject, allowed: readonly string[]): string | undefined {
  return Object.keys(o).find((k) => k !== "boost" && k !== "_name" && !allowed.includes(k));
}

/** Splits `{ field: value }` or `{ field: { value, ...params } }` of single-field queries. */
export function singleField(
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

/** `minimum_should_match` as text, or `undefined` when absent. */
export function msm(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

/**
 * The `operator` of a full-text query, `or` by default, in any case; anything else fails as Java's
 * `Operator.valueOf` does (`illegal_argument_exception`, `No enum constant …Operator.XOR`).
 */
export function operatorOf(v: unknown, _name: string): "or" | "and" {
  if (v === undefined || v === null) return "or";
  const op = String(v).toLowerCase();
  if (op !== "or" && op !== "and") {
    throw illegalArgument(
      `No enum constant org.elasticsearch.index.query.Operator.${String(v).toUpperCase()}`,
    );
  }
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

/** The fuzziness settings of a full-text query, empty when `fuzziness` is absent. */
export function fuzzyParams(
  p: JsonObject,
): {
  fuzziness?: string;
  prefixLength?: number;
  transpositions?: boolean;
  constantRewrite?: boolean;
} {
  if (p.fuzziness === undefined) return {};
  const constant = typeof p.fuzzy_rewrite === "string" &&
    p.fuzzy_rewrite.startsWith("constant_score");
  return {
    fuzziness: String(p.fuzziness),
    prefixLength: Number(p.prefix_length ?? 0),
    transpositions: p.fuzzy_transpositions !== false,
    ...(constant ? { constantRewrite: true } : {}),
  };
}
