// The request pipeline: URL → route → handler → Response, with Elasticsearch's error bodies.

import { locate } from "./body_spot.ts";
import { EngineError, esError, xContentParseError } from "../_errors.ts";
import type { EngineState, Reply, RequestContext } from "./context.ts";
import { errorBody } from "./error_body.ts";
import { filterPath } from "./filter_path.ts";
import { checkBodyContentType, checkMediaTypes, requestedCompat } from "./media_type.ts";
import { buildRouter, noHandler } from "./routes.ts";
import { stringifyReply } from "../_index/raw_source.ts";
import { resolveDateMathNames } from "../_state/date_math_names.ts";
import type { PathParams } from "./router.ts";
import { utf8Length } from "../_utf8.ts";
import { bulkHandler } from "./bulk.ts";
import { eachChunkAtMost, readLines } from "./ndjson_lines.ts";

const ROUTER = buildRouter();

/** Largest accepted request body (Elasticsearch's `http.max_content_length` default). */
export const MAX_BODY_BYTES = 100 * 1024 * 1024;

/** How a reply is written for the request it answers. */
interface ReplyShape {
  /** A HEAD request: the headers only, with the length the body would have. */
  head: boolean;
  /** The request's parameters (`filter_path`, `pretty`) once it reached its handler. */
  params?: URLSearchParams;
  /** The REST compatibility version the request asked for, echoed in the content type. */
  compat?: number;
}

/** The text of each answer `respond` built with a body, for {@link replyText}. */
const TEXTS = new WeakMap<Response, string>();

/**
 * The body of an answer as the text it was built from (its bytes are that text in UTF-8), or
 * undefined for an answer without one or not built here. An HTTP server writes it as it is,
 * without reading the answer's stream back into bytes (several KB per request).
 */
export function replyText(response: Response): string | undefined {
  return TEXTS.get(response);
}

/**
 * An answer as the engine builds it, before any web `Response`: what an HTTP adapter writes
 * (a `Response` and its `Headers` cost more than many searches allocate).
 */
export interface Answer {
  /** The HTTP status. */
  status: number;
  /** The headers, by lowercase name. */
  headers: Record<string, string>;
  /** The body's text (its bytes are this text in UTF-8), or null for none (a HEAD's too). */
  text: string | null;
}

/** Sets a header of `headers` as `new Headers(record)` takes it: a lowercase name, values joined. */
function addHeader(headers: Record<string, string>, name: string, value: string): void {
  const key = name.toLowerCase();
  const v = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
  const old = headers[key];
  headers[key] = old === undefined ? v : `${old}, ${v}`;
}

function respond(state: EngineState, reply: Reply, shape: ReplyShape): Answer {
  const { head, params, compat } = shape;
  const headers: Record<string, string> = {};
  if (reply.headers) { for (const k in reply.headers) addHeader(headers, k, reply.headers[k]!); }
  if (state.flavour === "elasticsearch") headers["x-elastic-product"] = "Elasticsearch";
  let payload: string | null = null;
  if (reply.text !== undefined) payload = reply.text;
  else if (reply.body !== undefined) {
    const filter = params?.get("filter_path");
    const body = filter ? filterPath(reply.body, filter) : reply.body;
    const pretty = params?.has("pretty") && params.get("pretty") !== "false";
    payload = pretty ? stringifyReply(body, 2) + "\n" : stringifyReply(body);
  }
  if (headers["content-type"] === undefined) {
    headers["content-type"] = compat !== undefined && reply.text === undefined
      ? `application/vnd.elasticsearch+json;compatible-with=${compat}`
      : "application/json; charset=UTF-8";
  }
  if (head || payload === null) {
    if (payload !== null) headers["content-length"] = String(utf8Length(payload));
    return { status: reply.status, headers, text: null };
  }
  return { status: reply.status, headers, text: payload };
}

/** The web `Response` of an answer (its text kept for {@link replyText}). */
export function answerResponse(answer: Answer): Response {
  const response = new Response(answer.text, { status: answer.status, headers: answer.headers });
  if (answer.text !== null) TEXTS.set(response, answer.text);
  return response;
}

let incidents = 0;

/**
 * The reply for an error: Elasticsearch's body for an {@link EngineError}; anything else is an
 * engine fault, answered with a 500 whose reason names only an incident number, while the log
 * gets the details (never the client: no message or stack in the body).
 */
function errorReply(state: EngineState, e: unknown, request: Request, method: string): Reply {
  if (e instanceof EngineError) return { status: e.status, body: errorBody(e, state.flavour) };
  if (e instanceof TypeError && /Cannot convert object to primitive value/.test(e.message)) {
    // Only request JSON can hold an object whose `toString` key is data, not a method: an
    // object or array where the API wanted a value.
    const error = xContentParseError("an object or array was found where a value was expected");
    return { status: 400, body: errorBody(error) };
  }
  const incident = ++incidents;
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  const where = (() => {
    try {
      return new URL(request.url).pathname;
    } catch {
      return "?";
    }
  })();
  try {
    state.log?.(`engine: internal error #${incident} on ${method} ${where}: ${what}`);
  } catch {
    // a failing logger must not turn one fault into two
  }
  const error = esError("exception", `internal error #${incident}; see the engine log`);
  return { status: 500, body: error.toBody() };
}

function tooLong(limit: number): EngineError {
  return esError(
    "content_too_long",
    `request body is too large; the limit is [${limit}] bytes (http.max_content_length)`,
  );
}

/** Reads a stream to its end, refusing it as soon as it passes `limit` bytes. */
async function readAtMost(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const whole = await eachChunkAtMost(stream, limit, (chunk) => {
    chunks.push(chunk);
    total += chunk.byteLength;
  });
  if (!whole) throw tooLong(limit);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The bodies whose text is already known (see {@link knowBodyText}). */
const KNOWN = new WeakMap<Request, string>();

/**
 * Tells the engine the text of a request's body, as {@link readBody} would decode it (UTF-8, a
 * leading BOM dropped, nothing ill-formed): the body is then not read from the request, whose
 * stream, reader and promises cost more than a search allocates.
 */
export function knowBodyText(request: Request, text: string): void {
  KNOWN.set(request, text);
}

/**
 * The request body as text, at most `limit` bytes both as sent (declared, chunked or not) and
 * after `gzip`/`deflate` decompression, so a small compressed bomb never inflates in memory.
 */
async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) throw tooLong(limit);
  // A known text first: `request.body` builds the body's stream the first time it is read.
  const known = KNOWN.get(request);
  const encoding = (request.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (known !== undefined && encoding === "") {
    if (utf8Length(known) > limit) throw tooLong(limit);
    return known;
  }
  if (!request.body) return "";
  let bytes: Uint8Array;
  if (encoding === "gzip" || encoding === "deflate") {
    const raw = await readAtMost(request.body, limit);
    try {
      const inflated = new Blob([raw as BlobPart]).stream().pipeThrough(
        new DecompressionStream(encoding),
      );
      bytes = await readAtMost(inflated, limit);
    } catch (e) {
      if (e instanceof EngineError) throw e;
      throw esError("parse_exception", `failed to decompress the ${encoding} body`);
    }
  } else bytes = await readAtMost(request.body, limit);
  return new TextDecoder().decode(bytes);
}

/**
 * The body of a `_bulk` request split into lines while it arrives (the same limits as
 * {@link readBody}), or undefined when it comes compressed (then read whole by `readBody`).
 */
async function readBodyLines(request: Request, limit: number): Promise<string[] | undefined> {
  const encoding = (request.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (encoding === "gzip" || encoding === "deflate") return undefined;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) throw tooLong(limit);
  const known = KNOWN.get(request);
  if (known !== undefined) {
    // The lines `readLines` would cut from this text's bytes.
    if (utf8Length(known) > limit) throw tooLong(limit);
    return known.split("\n");
  }
  if (!request.body) return [""];
  const lines = await readLines(request.body, limit);
  if (lines === null) throw tooLong(limit);
  return lines;
}

/** What an HTTP adapter knows of a request beyond the `Request` itself. */
export interface Arrival {
  /** The real method (a GET or HEAD with a body travels as POST); `request.method` by default. */
  method?: string;
  /** The largest body accepted; the state's limit, else {@link MAX_BODY_BYTES}, by default. */
  maxContentLength?: number;
  /**
   * The request target as sent (path and query): routing reads its path undecoded, as
   * Elasticsearch does, so a `%2e%2e` segment is the data `..`, never a step up; without it the
   * path of `request.url` is read (where the URL parser has already resolved dot segments).
   */
  target?: string;
}

/** Answers one request against the engine state; never throws. Echoes `X-Opaque-Id` like ES. */
export async function handle(
  state: EngineState,
  request: Request,
  arrival: Arrival = {},
): Promise<Response> {
  return answerResponse(await handleAnswer(state, request, arrival));
}

/** {@link handle}'s answer before it becomes a web `Response` (for an HTTP adapter). */
export async function handleAnswer(
  state: EngineState,
  request: Request,
  arrival: Arrival = {},
): Promise<Answer> {
  const out = await answer(state, request, {
    method: (arrival.method ?? request.method).toUpperCase(),
    maxContentLength: arrival.maxContentLength ?? state.maxContentLength ?? MAX_BODY_BYTES,
    target: arrival.target,
  });
  const opaqueId = request.headers.get("x-opaque-id");
  if (opaqueId !== null) out.headers["x-opaque-id"] = opaqueId;
  return out;
}

async function answer(
  state: EngineState,
  request: Request,
  arrival: Arrival & { method: string; maxContentLength: number },
): Promise<Answer> {
  const { method, maxContentLength: limit, target } = arrival;
  const head = method === "HEAD";
  const compat = requestedCompat(state, request.headers);
  let text = "";
  try {
    const url = new URL(request.url);
    const query = target?.indexOf("?") ?? -1;
    const rawPath = target === undefined || !target.startsWith("/")
      ? url.pathname
      : query < 0
      ? target
      : target.slice(0, query);
    const path = rawPath.replace(/\/+$/, "") || "/";
    const match = ROUTER.match(method, path);
    if (match.kind === "not_found") {
      // OpenSearch names the path alone, Elasticsearch the path and its query.
      const uri = state.flavour === "opensearch" ? rawPath : rawPath + url.search;
      return respond(state, noHandler(uri, method), { head, compat });
    }
    if (match.kind === "method_not_allowed") {
      return respond(
        state,
        {
          status: 405,
          body: {
            error:
              `Incorrect HTTP method for uri [${rawPath}${url.search}] and method [${method}], allowed: [${
                match.allowed.join(", ")
              }]`,
            status: 405,
          },
          headers: { allow: match.allowed.join(",") },
        },
        { head, compat },
      );
    }
    const refused = checkMediaTypes(state, request.headers);
    if (refused) return respond(state, refused, { head });
    // A bulk body is read line by line as it arrives: never one string of up to 100 MB.
    const bodyLines = match.handler === bulkHandler
      ? await readBodyLines(request, limit)
      : undefined;
    const bodyText = text = bodyLines ? "" : await readBody(request, limit);
    const hasBody = bodyLines ? bodyLines.length > 1 || bodyLines[0] !== "" : bodyText.length > 0;
    const badType = hasBody ? checkBodyContentType(request.headers) : undefined;
    if (badType) return respond(state, badType, { head, compat });
    const ctx: RequestContext = {
      state,
      method,
      path,
      params: url.searchParams,
      p: withDateMathIndex(match.params, state.now()),
      bodyText,
      bodyLines,
      accept: request.headers.get("accept") ?? undefined,
    };
    const reply = await match.handler(ctx);
    return respond(state, reply, { head, params: url.searchParams, compat });
  } catch (e) {
    if (e instanceof EngineError && e.spot && text) {
      const at = locate(text, e.spot);
      if (at) Object.assign(e.extra, at);
    }
    return respond(state, errorReply(state, e, request, method), { head, compat });
  }
}

/** The path parameters with date-math index and alias names (`<logs-{now/d}>`) resolved. */
function withDateMathIndex(p: PathParams, now: number): PathParams {
  let out = p;
  for (const key of ["index", "name"] as const) {
    const value = p[key];
    if (value !== undefined && value.includes("<")) {
      out = { ...out, [key]: resolveDateMathNames(value, now) };
    }
  }
  return out;
}
