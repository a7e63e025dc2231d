// Reads a search request (body and URL parameters) into one validated, typed object.

import {
  type EngineError,
  esError,
  illegalArgument,
  jsonReadError,
  parsingError,
  parsingErrorAt,
  validationFailed,
} from "../_errors.ts";
import { jsonTokenName } from "../_json.ts";
import type { QueryNode, QueryOf, ScoreScript } from "../_query/query_nodes.ts";
import { parseKnnSection } from "../_query/knn.ts";
import { type FieldRequest, parseFieldRequests } from "../_hits/fetch_fields.ts";
import { type HighlightRequest, parseHighlight } from "../_hits/highlight.ts";
import { findNestedInnerHits, type NestedInnerHits } from "../_hits/inner_hits.ts";
import { parseQuery } from "../_query/query_parser.ts";
import { scoreScript } from "../_query/script_score.ts";
import { checkAggregations } from "../_aggs/aggregations.ts";
import { boostedFields } from "../_query/query_parse_util.ts";
import { parseLuceneSyntax } from "../_query/query_string.ts";
import { parseSort, type SortKey } from "../_hits/sort.ts";
import { parseSourceFilter, type SourceFilter } from "../_hits/source_filter.ts";

/** A parsed search request. */
export interface SearchRequest {
  /** The query (match_all when absent). */
  readonly query: QueryNode;
  /** Post filter applied after aggregations. */
  readonly postFilter: QueryNode | null;
  /** Offset. */
  readonly from: number;
  /** Page size. */
  readonly size: number;
  /** Sort keys (empty = by score). */
  readonly sort: SortKey[];
  /** `_source` filter. */
  readonly source: SourceFilter;
  /** Threshold for counting hits; `true` = exact, `false` = none. */
  readonly trackTotalHits: number | boolean;
  /** Report `hits.total` as a number. */
  readonly restTotalHitsAsInt: boolean;
  /** Compute scores even when sorting by a field. */
  readonly trackScores: boolean;
  /** `search_type=dfs_query_then_fetch`: every shard scores with the index's statistics. */
  readonly dfs: boolean;
  /** `search_after` values. */
  readonly searchAfter: unknown[] | null;
  /** `pit` section. */
  readonly pit: { id: string; keepAlive?: string } | null;
  /** Aggregations. */
  readonly aggs: Record<string, unknown> | null;
  /** Scroll keep-alive text. */
  readonly scroll: string | null;
  /** Include `_version`. */
  readonly version: boolean;
  /** Include `_seq_no` and `_primary_term`. */
  readonly seqNoPrimaryTerm: boolean;
  /** `stored_fields: _none_` hides `_id` and `_source`. */
  readonly storedFieldsNone: boolean;
  /** Minimum score. */
  readonly minScore: number | null;
  /** `docvalue_fields`. */
  readonly docvalueFields: FieldRequest[];
  /** `fields` (values from `_source`). */
  readonly fields: FieldRequest[];
  /** Largest rescore `window_size` (0 without rescore). */
  readonly rescoreWindow: number;
  /** Number of `script_fields`. */
  readonly scriptFieldCount: number;
  /** The `script_fields`, by name. */
  readonly scriptFields: ReadonlyArray<readonly [string, ScoreScript]>;
  /** `highlight`, if requested. */
  readonly highlight: HighlightRequest | null;
  /** `inner_hits` asked for by `nested` queries. */
  readonly innerHits: readonly NestedInnerHits[];
  /** `collapse.field`, if collapsing. */
  readonly collapse: string | null;
  /** `?include_named_queries_score`: `matched_queries` as `{name: score}` instead of names. */
  readonly includeNamedQueriesScore: boolean;
  /** `indices_boost`: score multipliers by index name or pattern. */
  readonly indicesBoost: Array<[string, number]>;
  /** The `knn` section: each entry's global top k joins the query's hits, scores summed. */
  readonly knn: readonly QueryOf<"knn">[];
  /** `profile: true`: report a per-shard profile of the query. */
  readonly profile: boolean;
  /** `terminate_after`: docs each shard collects at most (0 = no limit). */
  readonly terminateAfter: number;
}

const BODY_KEYS = new Set([
  "query",
  "from",
  "size",
  "sort",
  "_source",
  "track_total_hits",
  "track_scores",
  "search_after",
  "pit",
  "aggs",
  "aggregations",
  "seq_no_primary_term",
  "version",
  "stored_fields",
  "explain",
  "timeout",
  "terminate_after",
  "min_score",
  "post_filter",
  "highlight",
  "docvalue_fields",
  "fields",
  "script_fields",
  "collapse",
  "rescore",
  "profile",
  "indices_boost",
  "suggest",
  "stats",
  "ext",
  "runtime_mappings",
  "slice",
  "knn",
]);

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** A text Java's `Double.parseDouble` reads (after trimming), hexadecimal forms aside. */
const JAVA_DOUBLE = /^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?)$/;

/** `Integer.parseInt`'s failure, as the real engines report it. */
function numberFormat(v: string): EngineError {
  return esError("number_format_exception", v === "" ? "empty String" : `For input string: "${v}"`);
}

/** An integer URL parameter, read as `RestRequest.paramAsInt` reads it. */
function intParam(v: string, name: string): number {
  const n = /^[+-]?\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= INT_MIN && n <= INT_MAX)) {
    throw illegalArgument(
      `Failed to parse int parameter [${name}] with value [${v}]`,
      numberFormat(v),
    );
  }
  return n;
}

/**
 * An integer of the body, read as the real engines' parser reads one (`intValue` with coercion):
 * a number is truncated, a string is read as a double first (`" 2 "`, `"1.5"`, `"1e3"`), a
 * number beyond an int is the JSON reader's failure, a string beyond one an illegal argument.
 */
function bodyInt(v: unknown, name: string): number {
  if (v === null || typeof v === "object") {
    throw parsingErrorAt(`Unknown key for a ${jsonTokenName(v)} in [${name}].`, name, "value");
  }
  if (typeof v === "number" || typeof v === "bigint") {
    const n = Number(v);
    if (!(n >= INT_MIN && n <= INT_MAX)) {
      throw jsonReadError(
        "coercion",
        `Numeric value (${v}) out of range of int (${INT_MIN} - ${INT_MAX})`,
      );
    }
    return Math.trunc(n);
  }
  if (typeof v === "string") {
    const text = v.trim();
    if (!JAVA_DOUBLE.test(text)) throw numberFormat(v);
    const n = Number(text.replace(/[dDfF]$/, ""));
    if (!(n >= INT_MIN && n <= INT_MAX)) {
      throw illegalArgument(`Value [${v}] is out of range for an integer`);
    }
    return Math.trunc(n);
  }
  throw illegalArgument(`Failed to parse int parameter [${name}] with value [${v}]`);
}

/** An integer named in the URL (which wins) or the body. */
function int(param: string | null, v: unknown, name: string): number {
  return param !== null ? intParam(param, name) : bodyInt(v, name);
}

function bool(v: string | null): boolean {
  return v === "" || v === "true";
}

/** A boolean URL parameter read like `RestRequest.paramAsBoolean`: `?x` and `x=true` are true. */
function strictBool(v: string | null): boolean {
  if (v === null || v === "false") return false;
  if (v === "" || v === "true") return true;
  throw illegalArgument(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
}

function trackTotal(v: unknown): number | boolean {
  if (v === undefined || v === null) return 10000;
  if (v === true || v === "true") return true;
  if (v === false || v === "false") return false;
  const n = Number(v);
  if (!Number.isInteger(n) || n < -1) {
    throw illegalArgument(
      `[track_total_hits] parameter must be positive or equals to -1, got ${v}`,
    );
  }
  return n === -1 ? true : n;
}

function collapseField(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const field = (v as Record<string, unknown>).field;
  if (typeof field !== "string") throw parsingError(`[collapse] requires a [field]`);
  return field;
}

function validation(reason: string): EngineError {
  return validationFailed(`${reason}`);
}

function rescoreWindow(v: unknown): number {
  if (v === undefined || v === null) return 0;
  const list = Array.isArray(v) ? v : [v];
  return Math.max(0, ...list.map((r) => Number((r as Record<string, unknown>)?.window_size ?? 10)));
}

/** Parses and validates a search request like Elasticsearch's RestSearchAction does. */
export function parseSearchRequest(
  body: Record<string, unknown> | undefined,
  params: URLSearchParams,
): SearchRequest {
  const b = body ?? {};
  checkBodyKeys(b);
  const query = requestQuery(b, params);
  const dfs = isDfs(params);
  const { from, size, terminateAfter } = pageOf(b, params);
  const scroll = params.get("scroll");
  const { trackTotalHits, restTotalHitsAsInt } = totalHitsOf(b, { params, scroll });
  const { searchAfter, pit } = cursorOf(b, { params, scroll, from, size });
  const aggs = (b.aggs ?? b.aggregations ?? null) as Record<string, unknown> | null;
  // The whole aggregation tree is parsed with the request, before any index is resolved.
  if (aggs !== null) checkAggregations(aggs);
  const { storedFieldsNone, source, scriptFields } = hitSourceOf(b, params);
  return {
    query,
    postFilter: b.post_filter === undefined ? null : parseQuery(b.post_filter),
    from,
    size,
    sort: parseSort(b.sort, params.get("sort")),
    source,
    trackTotalHits,
    restTotalHitsAsInt,
    trackScores: b.track_scores === true || bool(params.get("track_scores")),
    dfs,
    searchAfter,
    pit,
    aggs,
    scroll,
    version: b.version === true || bool(params.get("version")),
    seqNoPrimaryTerm: b.seq_no_primary_term === true || bool(params.get("seq_no_primary_term")),
    storedFieldsNone,
    minScore: b.min_score === undefined ? null : Number(b.min_score),
    docvalueFields: parseFieldRequests(b.docvalue_fields, params.get("docvalue_fields")),
    fields: parseFieldRequests(b.fields, null),
    rescoreWindow: rescoreWindow(b.rescore),
    highlight: parseHighlight(b.highlight),
    innerHits: findNestedInnerHits(b.query),
    collapse: collapseField(b.collapse),
    includeNamedQueriesScore: strictBool(params.get("include_named_queries_score")),
    indicesBoost: indicesBoost(b.indices_boost),
    knn: parseKnnSection(b.knn, size, parseQuery),
    profile: b.profile === true,
    terminateAfter,
    scriptFieldCount: scriptFields.length,
    scriptFields,
  };
}

/** Refuses a body key the search API does not know, as the real engines' parser does. */
function checkBodyKeys(b: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(b)) {
    if (!BODY_KEYS.has(k)) {
      throw parsingErrorAt(`Unknown key for a ${jsonTokenName(v)} in [${k}].`, k, "value");
    }
  }
}

/** The body's query, or the URL's `q` (Lucene syntax) in its place; match_all when neither. */
function requestQuery(b: Record<string, unknown>, params: URLSearchParams): QueryNode {
  const q = params.get("q");
  // With a knn section and no query, only the nearest neighbours match.
  const query: QueryNode = b.query === undefined
    ? b.knn === undefined ? { kind: "match_all", boost: 1 } : { kind: "match_none" }
    : parseQuery(b.query);
  if (q === null) return query;
  const df = params.get("df");
  return parseLuceneSyntax(q, {
    fields: boostedFields(df ?? "*"),
    defaultAnd: (params.get("default_operator") ?? "or").toLowerCase() === "and",
    boost: 1,
    lenient: bool(params.get("lenient")) || df === null,
  });
}

/** Whether `search_type` asks for dfs_query_then_fetch; another type than the two is refused. */
function isDfs(params: URLSearchParams): boolean {
  const searchType = params.get("search_type");
  if (
    searchType !== null && searchType !== "query_then_fetch" &&
    searchType !== "dfs_query_then_fetch"
  ) {
    throw illegalArgument(`No search type for [${searchType}]`);
  }
  return searchType === "dfs_query_then_fetch";
}

/** `from`, `size` and `terminate_after`, the URL's winning over the body's. */
function pageOf(
  b: Record<string, unknown>,
  params: URLSearchParams,
): { from: number; size: number; terminateAfter: number } {
  const terminateAfter = int(
    params.get("terminate_after"),
    Object.hasOwn(b, "terminate_after") ? b.terminate_after : 0,
    "terminate_after",
  );
  if (terminateAfter < 0) throw illegalArgument("terminateAfter must be > 0");
  const from = int(params.get("from"), Object.hasOwn(b, "from") ? b.from : 0, "from");
  const size = int(params.get("size"), Object.hasOwn(b, "size") ? b.size : 10, "size");
  if (from < 0) throw illegalArgument(`[from] parameter cannot be negative, found [${from}]`);
  if (size < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${size}]`);
  return { from, size, terminateAfter };
}

/**
 * `track_total_hits`, made exact by `rest_total_hits_as_int` (which refuses a threshold given)
 * and by a scroll.
 */
function totalHitsOf(
  b: Record<string, unknown>,
  opts: { params: URLSearchParams; scroll: string | null },
): { trackTotalHits: number | boolean; restTotalHitsAsInt: boolean } {
  const { params } = opts;
  const restTotalHitsAsInt = bool(params.get("rest_total_hits_as_int"));
  let trackTotalHits = trackTotal(params.get("track_total_hits") ?? b.track_total_hits);
  if (restTotalHitsAsInt) {
    if (
      trackTotalHits !== true &&
      (params.has("track_total_hits") || b.track_total_hits !== undefined) &&
      trackTotalHits !== false
    ) {
      throw illegalArgument(
        `[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${trackTotalHits}`,
      );
    }
    if (trackTotalHits !== false) trackTotalHits = true;
  }
  if (opts.scroll !== null && trackTotalHits !== false) trackTotalHits = true;
  return { trackTotalHits, restTotalHitsAsInt };
}

/** `search_after` and `pit`, and what a scroll context refuses beside them. */
function cursorOf(
  b: Record<string, unknown>,
  opts: { params: URLSearchParams; scroll: string | null; from: number; size: number },
): { searchAfter: unknown[] | null; pit: SearchRequest["pit"] } {
  const { scroll } = opts;
  const searchAfter = b.search_after === undefined ? null : b.search_after;
  if (searchAfter !== null && !Array.isArray(searchAfter)) {
    throw parsingError(`[search_after] must be an array`);
  }
  let pit: SearchRequest["pit"] = null;
  if (b.pit !== undefined) {
    const p = b.pit as Record<string, unknown>;
    if (typeof p !== "object" || p === null || typeof p.id !== "string") {
      throw parsingError(`[pit] requires an [id]`);
    }
    pit = { id: p.id, keepAlive: p.keep_alive === undefined ? undefined : String(p.keep_alive) };
  }
  if (scroll !== null && searchAfter !== null) {
    throw illegalArgument(`[search_after] cannot be used in a scroll context`);
  }
  if (searchAfter !== null && opts.from > 0) {
    throw illegalArgument(`[from] parameter must be set to 0 when [search_after] is used`);
  }
  if (pit && scroll !== null) {
    throw illegalArgument(`using [point in time] is not allowed in a scroll context`);
  }
  if (scroll !== null && opts.size === 0) {
    throw validation(`[size] cannot be [0] in a scroll context`);
  }
  if (scroll !== null && bool(opts.params.get("request_cache"))) {
    throw validation(`[request_cache] cannot be used in a scroll context`);
  }
  return { searchAfter, pit };
}

/**
 * What the hits carry of each document: `stored_fields` (`_none_` hides `_id` and `_source`),
 * the `_source` filter, and `script_fields`. Stored or script fields asked for without
 * `_source` leave the source out.
 */
function hitSourceOf(
  b: Record<string, unknown>,
  params: URLSearchParams,
): Pick<SearchRequest, "storedFieldsNone" | "source" | "scriptFields"> {
  const stored = params.get("stored_fields") ?? b.stored_fields;
  const storedList = stored === undefined || stored === null
    ? []
    : Array.isArray(stored)
    ? stored.map(String)
    : String(stored).split(",");
  const storedFieldsNone = storedList.includes("_none_");
  let source = parseSourceFilter(b._source, params);
  const scriptFields = typeof b.script_fields === "object" && b.script_fields !== null
    ? Object.entries(b.script_fields as Record<string, unknown>).map(([name, f]) =>
      [name, scoreScript((f as Record<string, unknown> | null)?.script)] as const
    )
    : [];
  if (
    ((stored !== undefined && stored !== null && !storedList.includes("_source")) ||
      (scriptFields.length > 0 && (stored === undefined || stored === null))) &&
    b._source === undefined &&
    !params.has("_source")
  ) {
    source = { fetch: false, includes: [], excludes: [] };
  }
  return { storedFieldsNone, source, scriptFields };
}

/** `indices_boost`, an object or a list of them, as (index or pattern, boost) pairs. */
function indicesBoost(v: unknown): Array<[string, number]> {
  return (Array.isArray(v) ? v : [v ?? {}]).flatMap((o) =>
    Object.entries(o as Record<string, unknown>).map(([k, n]) => [k, Number(n)] as [string, number])
  );
}
