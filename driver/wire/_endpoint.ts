// Classifies a command's method + path into the result shape it produces, and rewrites the path
// where the driver must (`format=json` for `_cat`, `refresh=true` for document writes).

import { UnsupportedFeatureError } from "../errors.ts";
import type { Method } from "../command/command.ts";

/** The shapes a command's response is mapped to. */
export type EndpointKind =
  | "head"
  | "search"
  | "msearch"
  | "mget"
  | "count"
  | "doc_get"
  | "source_get"
  | "cat"
  | "mapping"
  | "settings"
  | "aliases"
  | "read"
  | "bulk"
  | "update_by_query"
  | "delete_by_query"
  | "reindex"
  | "update"
  | "doc_write"
  | "doc_delete"
  | "write";

/** A classified endpoint: its kind, raw path segments and the query string without `?`. */
export interface Endpoint {
  readonly kind: EndpointKind;
  readonly segments: readonly string[];
  readonly query: string;
}

const READ_ENDPOINTS = new Set([
  "_explain",
  "_field_caps",
  "_validate",
  "_analyze",
  "_termvectors",
  "_mtermvectors",
  "_pit",
  "_sql",
  "_rank_eval",
  "_search_shards",
]);

const DOCUMENT_WRITES = new Set<EndpointKind>([
  "bulk",
  "update_by_query",
  "delete_by_query",
  "update",
  "doc_write",
  "doc_delete",
]);

/** Splits `/a/b?x=1` into the path and the query string (without `?`). */
function splitPath(path: string): { pathname: string; query: string } {
  const at = path.indexOf("?");
  if (at < 0) return { pathname: path, query: "" };
  return { pathname: path.slice(0, at), query: path.slice(at + 1) };
}

/** The value of a query-string parameter (case-insensitive name), or undefined. */
export function queryValue(query: string, name: string): string | undefined {
  if (query === "") return undefined; // most commands: no query string at all
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (decode(key).toLowerCase() === name) {
      return eq < 0 ? "" : decode(pair.slice(eq + 1).replace(/\+/g, " "));
    }
  }
  return undefined;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a literal `%` the user wrote
  }
}

/** Adds `name=value` to a path, with `?` or `&` as needed. */
export function appendQuery(path: string, name: string, value: string): string {
  const { pathname, query } = splitPath(path);
  return `${pathname}?${query === "" ? "" : query + "&"}${name}=${value}`;
}

/**
 * Works out what a command's response looks like from its method and path.
 *
 * @param method The HTTP method as written.
 * @param path The path with its query string.
 * @returns The classified endpoint.
 */
export function classify(method: Method, path: string): Endpoint {
  // By method, then by path: no key string is built per call, and a path that is the same
  // string as before (a command without bound path values) is looked up by its cached hash.
  let byPath = CLASSIFIED.get(method);
  if (byPath === undefined) CLASSIFIED.set(method, byPath = new Map());
  let endpoint = byPath.get(path);
  if (endpoint === undefined) {
    const { pathname, query } = splitPath(path);
    const segments = Object.freeze(pathname.split("/").filter((s) => s !== ""));
    endpoint = Object.freeze({ kind: kindOf(method, segments), segments, query });
    // Bounded: paths with bound ids are endless; the same few searches run again and again.
    if (++classified > 256) {
      for (const paths of CLASSIFIED.values()) paths.clear();
      classified = 1;
    }
    byPath.set(path, endpoint);
  }
  return endpoint;
}

/** Endpoints already worked out, by method, then path (frozen: they are shared). */
const CLASSIFIED = new Map<string, Map<string, Endpoint>>();
/** How many endpoints `CLASSIFIED` holds. */
let classified = 0;

function kindOf(method: Method, s: readonly string[]): EndpointKind {
  const last = s.at(-1) ?? "";
  if (method === "HEAD") return "head";
  if (s[0] === "_cat") return "cat";
  // A document address first: its id is a bound value and may read like an API (`_search`).
  if (s.length === 3 && DOC_SEGMENTS.has(s[1]!)) {
    const doc = documentKind(method, s[1]!);
    if (doc !== undefined) return doc;
  }
  if (s.includes("_msearch")) return "msearch";
  const search = s.indexOf("_search");
  if (search >= 0) {
    // `_search/point_in_time` and OpenSearch's `_search/pipeline` answer no hits.
    const sub = s[search + 1];
    if (sub === "point_in_time" || sub === "pipeline") {
      return method === "DELETE" ? "write" : "read";
    }
    return method === "DELETE" ? "write" : "search";
  }
  if (last === "_count") return "count";
  if (last === "_mget") return "mget";
  if (last === "_refresh") return "write";
  if (method === "GET") {
    if (s.length === 3 && s[1] === "_doc") return "doc_get";
    if (s.length === 3 && s[1] === "_source") return "source_get";
    if (last === "_mapping") return "mapping";
    if (last === "_settings") return "settings";
    if ((last === "_aliases" || last === "_alias") && s.length <= 2) return "aliases";
    return "read";
  }
  if (s.some((segment) => READ_ENDPOINTS.has(segment))) {
    return method === "DELETE" ? "write" : "read";
  }
  if (last === "_bulk") return "bulk";
  if (last === "_update_by_query") return "update_by_query";
  if (last === "_delete_by_query") return "delete_by_query";
  if (s[0] === "_reindex") return "reindex";
  if (s.length === 3 && s[1] === "_update" && method === "POST") return "update";
  if (s.length === 3 && s[1] === "_doc" && method === "DELETE") return "doc_delete";
  if (method !== "DELETE") {
    if (s.length === 2 && s[1] === "_doc" && method === "POST") return "doc_write";
    if (s.length === 3 && (s[1] === "_doc" || s[1] === "_create")) return "doc_write";
  }
  return "write";
}

const DOC_SEGMENTS = new Set(["_doc", "_source", "_update", "_create"]);

function documentKind(method: Method, api: string): EndpointKind | undefined {
  if (method === "GET") {
    return api === "_doc" ? "doc_get" : api === "_source" ? "source_get" : undefined;
  }
  if (api === "_update") return method === "POST" ? "update" : undefined;
  if (method === "DELETE") return api === "_doc" ? "doc_delete" : undefined;
  return api === "_doc" || api === "_create" ? "doc_write" : undefined;
}

/** True when a 404 is an answer rather than a failure for this kind. */
export function allowsNotFound(kind: EndpointKind): boolean {
  return kind === "head" || kind === "doc_get" || kind === "source_get" || kind === "doc_delete";
}

/** What a connection's data source asks of the paths it sends. */
export interface PathRules {
  /** Document writes get `refresh=true` unless they name a `refresh` of their own. */
  indexRefresh?: boolean;
}

/**
 * Rewrites the path before sending: `_cat` gets `format=json` (another format is refused) and,
 * with `indexRefresh`, document writes get `refresh=true` unless `refresh` is already there.
 *
 * @param endpoint The classified endpoint.
 * @param path The path with its query string.
 * @param rules What the data source asks of the paths (one object per connection).
 * @param command The command text, for the error.
 * @returns The path to send.
 */
export function rewritePath(
  endpoint: Endpoint,
  path: string,
  rules: PathRules,
  command?: string,
): string {
  if (endpoint.kind === "cat") {
    const format = queryValue(endpoint.query, "format");
    if (format === undefined) return appendQuery(path, "format", "json");
    if (format.toLowerCase() !== "json") {
      throw new UnsupportedFeatureError(
        `_cat with format=${format}; the driver reads _cat as JSON, so leave format out or use format=json`,
        { command },
      );
    }
    return path;
  }
  if (
    rules.indexRefresh === true && DOCUMENT_WRITES.has(endpoint.kind) &&
    queryValue(endpoint.query, "refresh") === undefined
  ) {
    return appendQuery(path, "refresh", "true");
  }
  return path;
}
