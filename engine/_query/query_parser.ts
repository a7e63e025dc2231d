// Parses Query DSL JSON into frozen QueryNode trees, with Elasticsearch's parse errors. The
// parsers live by query family (term_level_parsers.ts, full_text_parsers.ts, compound_parsers.ts,
// span_parser.ts); this file joins them into one table and dispatches on the query name.

import { illegalArgument, parsingError, parsingErrorAt } from "../_errors.ts";
import type { QueryNode } from "./query_nodes.ts";
import { parseKnnQuery } from "./knn.ts";
import { parseScriptQuery, parseScriptScore } from "./script_score.ts";
import { registerName } from "./named_queries.ts";
import { parseQueryString, parseSimpleQueryString } from "./query_string.ts";
import { parseSpan, SPAN_QUERIES } from "./span_parser.ts";
import { isJsonObject } from "../_json.ts";
import { boostOf, expectObject, type Parser } from "./query_parse_util.ts";
import { TERM_LEVEL_PARSERS } from "./term_level_parsers.ts";
import { FULL_TEXT_PARSERS } from "./full_text_parsers.ts";
import { compoundParsers } from "./compound_parsers.ts";
import { GEO_PARSERS } from "./geo_queries.ts";

const spanParser: Parser = (b, n) => ({
  kind: "span",
  span: parseSpan(n, b),
  boost: boostOf(expectObject(b, n)),
});

const PARSERS: Record<string, Parser> = {
  ...Object.fromEntries(SPAN_QUERIES.map((name) => [name, spanParser])),
  match_all: (b, n) => ({ kind: "match_all", boost: boostOf(expectObject(b, n)) }),
  match_none: (b, n) => (expectObject(b, n), { kind: "match_none" }),
  ...TERM_LEVEL_PARSERS,
  ...FULL_TEXT_PARSERS,
  ...GEO_PARSERS,
  ...compoundParsers(parseQuery),
  knn: (b) => parseKnnQuery(b, parseQuery),
  script_score: (b, n) => parseScriptScore(expectObject(b, n), parseQuery),
  script: (b, n) => parseScriptQuery(expectObject(b, n)),
  query_string: (b, n) => parseQueryString(expectObject(b, n)),
  simple_query_string: (b, n) => parseSimpleQueryString(expectObject(b, n)),
};

/**
 * `indices.query.bool.max_nested_depth`: how deep query objects may nest (a node setting in
 * Elasticsearch, 30 by default), checked while parsing, before the tree is run.
 */
export const MAX_NESTED_DEPTH = 30;

let depth = 0;

/** Parses one Query DSL clause. Unknown query names → 400 `parsing_exception "unknown query [x]"`. */
export function parseQuery(json: unknown): QueryNode {
  if (depth >= MAX_NESTED_DEPTH) {
    throw illegalArgument(
      "The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]",
    );
  }
  depth++;
  try {
    return parseClause(json);
  } finally {
    depth--;
  }
}

function parseClause(json: unknown): QueryNode {
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
  if (!parser) throw parsingErrorAt(`unknown query [${name}]`, name, "value");
  const node = Object.freeze(parser(json[name], name));
  registerName(node, json[name]);
  return node;
}
