// What every handler receives: the engine state and the parsed request.

import type { IndexingPressure } from "./indexing_pressure.ts";
import {
  esError,
  illegalArgument,
  jsonReadError,
  parsingError,
  xContentParseError,
} from "../_errors.ts";
import type { SearchContexts } from "../_search/search_api.ts";
import type { Cluster } from "../_state/cluster.ts";
import type { ParseErrorType } from "../_state/dynamic_mapping.ts";
import type { PathParams } from "./router.ts";
import { parseExactJson } from "../_index/exact_json.ts";
import { own, setOwn } from "../_index/own.ts";
import { isJsonObject } from "../_json.ts";
import type { NodeIdentity } from "./node_identity.ts";

/** Engine-wide state shared by all requests. */
export interface EngineState {
  cluster: Cluster;
  flavour: "elasticsearch" | "opensearch";
  version: string;
  now: () => number;
  search: SearchContexts;
  timers: Set<ReturnType<typeof setTimeout>>;
  waiters: Set<() => void>;
  clusterUuid: string;
  persistentSettings: Record<string, unknown>;
  /** Finished background tasks (`wait_for_completion=false`), by task id. */
  tasks: Map<string, Record<string, unknown>>;
  transientSettings: Record<string, unknown>;
  /** `http.max_content_length` in bytes (100 MB when absent). */
  maxContentLength?: number;
  /** Reports internal errors, one line each. */
  log?: (line: string) => void;
  /** The one node's name and transport address (`searchvisitor`, 127.0.0.1:9300 by default). */
  node?: NodeIdentity;
  /** `indexing_pressure.memory.limit` and the bulk bytes in flight. */
  indexingPressure: IndexingPressure;
  /**
   * Whether `_search` gives the event loop turns between its phases (set by `serve()`: requests
   * arriving over the network then get in between; see `searchApiSliced`).
   */
  timeSliced?: boolean;
}

/** A handler's answer: status, JSON body (or text, or nothing) and extra headers. */
export interface Reply {
  status: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

/** One request as handlers see it. */
export interface RequestContext {
  state: EngineState;
  method: string;
  path: string;
  params: URLSearchParams;
  p: PathParams;
  bodyText: string;
  /**
   * The body split on `\n` as it arrived, for handlers that read it line by line (`_bulk`);
   * `bodyText` is then empty.
   */
  bodyLines?: readonly string[];
  /** The `Accept` header, if any (`_cat` answers JSON when it asks for JSON). */
  accept?: string;
}

/** Shorthand for a 200 JSON reply. */
export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** The name ES uses for document parse failures in this flavour. */
export function parseErrorType(state: EngineState): ParseErrorType {
  return state.flavour === "opensearch" ? "mapper_parsing_exception" : "document_parsing_exception";
}

/** Describes a JSON syntax error the way Jackson does: `[line:col] Unexpected character (...)`. */
export function describeJsonError(message: string, text: string): string {
  const m = /position (\d+)/.exec(message);
  const token = /Unexpected token '(.)'/.exec(message);
  let pos = m ? Number(m[1]) : text.length;
  if (!m && token) pos = Math.max(0, text.indexOf(token[1]!));
  const before = text.slice(0, pos).split("\n");
  const where = `[${before.length}:${before[before.length - 1]!.length + 1}]`;
  if (pos >= text.length) return `${where} Unexpected end-of-input`;
  const ch = text[pos]!;
  const expected = /^(Expected [^.]*?) in JSON/.exec(message)?.[1];
  const detail = expected ? `: ${expected.charAt(0).toLowerCase()}${expected.slice(1)}` : "";
  return `${where} Unexpected character ('${ch}' (code ${ch.charCodeAt(0)}))${detail}`;
}

/** Deepest nesting a JSON body may have (Jackson's `maxNestingDepth`, which Elasticsearch keeps). */
export const MAX_JSON_DEPTH = 1000;

/**
 * Where `text` first nests deeper than {@link MAX_JSON_DEPTH} (`[line:column]` and the depth), or
 * undefined. One linear scan that skips string contents; it runs before any recursive code sees
 * the value.
 */
export function tooDeep(text: string): { where: string; depth: number } | undefined {
  if (text.length <= MAX_JSON_DEPTH) return undefined; // too short to open that many brackets
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) return { where: `[${line}:${i - lineStart + 1}]`, depth };
    } else if (c === 125 || c === 93) depth--;
    else if (c === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return undefined;
}

/**
 * How a body is read: `request` and `document` parse numbers as doubles (documents keep their
 * text for exact replies); `query` (search bodies) keeps integers beyond 2^53 exact as bigints,
 * so a `long` named in a query, a sort or `search_after` reaches the engine unrounded.
 */
export type BodyKind = "request" | "document" | "query";

/**
 * The request body with the query at `path` read again with integers beyond 2^53 exact (as
 * search bodies are), so a write by query selects the right documents; the rest (script
 * params, sizes) stays doubles. Texts without a run of 16 digits are parsed once.
 */
export function bodyWithExactQuery(
  ctx: RequestContext,
  path: readonly string[],
): Record<string, unknown> | undefined {
  const body = bodyObject(ctx);
  if (body === undefined || !/\d{16}/.test(bodyTextOf(ctx))) return body;
  let exact: unknown = bodyObject(ctx, "query");
  let plain: unknown = body;
  for (const key of path.slice(0, -1)) {
    exact = isJsonObject(exact) ? own(exact, key) : undefined;
    plain = isJsonObject(plain) ? own(plain, key) : undefined;
  }
  const last = path.at(-1)!;
  if (isJsonObject(exact) && isJsonObject(plain) && own(exact, last) !== undefined) {
    setOwn(plain, last, own(exact, last));
  }
  return body;
}

/** Parses JSON text, throwing Elasticsearch's 400 for malformed or too deeply nested input. */
export function parseJson(
  text: string,
  kind: BodyKind = "request",
  documentError: ParseErrorType = "document_parsing_exception",
): unknown {
  const deep = tooDeep(text);
  if (deep) {
    const reason =
      `${deep.where} Document nesting depth (${deep.depth}) exceeds the maximum allowed (${MAX_JSON_DEPTH}, from \`StreamReadConstraints.getMaxNestingDepth()\`)`;
    if (kind === "document") {
      throw esError(
        documentError,
        `${deep.where} failed to parse`,
        {},
        esError("stream_constraints_exception", reason),
      );
    }
    throw xContentParseError(reason);
  }
  try {
    return kind === "query" ? parseExactJson(text) : JSON.parse(text);
  } catch (e) {
    const reason = describeJsonError(e instanceof Error ? e.message : String(e), text);
    const failure = reason.endsWith("] Unexpected end-of-input") ? "eof" : "syntax";
    const cause = jsonReadError(failure, reason);
    if (kind === "document") {
      const where = reason.slice(0, reason.indexOf("]") + 1);
      throw esError(documentError, `${where} failed to parse`, {}, cause);
    }
    throw cause;
  }
}

/** The text of a request's body: the body itself, else the `source` query parameter. */
export function bodyTextOf(ctx: RequestContext): string {
  const source = ctx.params.get("source");
  return ctx.bodyText.trim() === "" && source ? source : ctx.bodyText;
}

/** The JSON body as an object, or undefined when empty; anything else than an object is a 400. */
export function bodyObject(
  ctx: RequestContext,
  kind: BodyKind = "request",
): Record<string, unknown> | undefined {
  const text = bodyTextOf(ctx);
  if (text.trim() === "") return undefined;
  const value = parseJson(text, kind, parseErrorType(ctx.state));
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    if (kind === "document") {
      throw esError(parseErrorType(ctx.state), "failed to parse, document is empty");
    }
    throw parsingError("request body or source parameter is required");
  }
  return value as Record<string, unknown>;
}

/** Requires a JSON object body. */
export function requireBody(ctx: RequestContext): Record<string, unknown> {
  const body = bodyObject(ctx);
  if (!body) throw esError("parse_exception", "request body is required");
  return body;
}

/** Boolean query parameter (`?flag`, `?flag=true`). */
export function boolParam(ctx: RequestContext, name: string, fallback = false): boolean {
  const v = ctx.params.get(name);
  if (v === null) return fallback;
  if (v === "" || v === "true") return true;
  if (v === "false") return false;
  throw illegalArgument(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
}

/** Integer query parameter. */
export function intParam(ctx: RequestContext, name: string): number | undefined {
  const v = ctx.params.get(name);
  if (v === null || v === "") return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) {
    throw illegalArgument(`Failed to parse int parameter [${name}] with value [${v}]`);
  }
  return n;
}
