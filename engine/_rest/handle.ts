// The request pipeline: URL → route → handler → Response, with Elasticsearch's error bodies.

import { EngineError } from "../_errors.ts";
import type { EngineState, Reply, RequestContext } from "./context.ts";
import { errorBody } from "./error_body.ts";
import { filterPath } from "./filter_path.ts";
import { checkBodyContentType, checkMediaTypes } from "./media_type.ts";
import { buildRouter } from "./routes.ts";
import { stringifyReply } from "../_index/raw_source.ts";

const ROUTER = buildRouter();

/** Largest accepted request body (Elasticsearch's `http.max_content_length` default). */
export const MAX_BODY_BYTES = 100 * 1024 * 1024;

function respond(
  state: EngineState,
  reply: Reply,
  head: boolean,
  params?: URLSearchParams,
): Response {
  const headers = new Headers(reply.headers);
  if (state.flavour === "elasticsearch") headers.set("x-elastic-product", "Elasticsearch");
  let payload: string | null = null;
  if (reply.text !== undefined) payload = reply.text;
  else if (reply.body !== undefined) {
    const filter = params?.get("filter_path");
    const body = filter ? filterPath(reply.body, filter) : reply.body;
    const pretty = params?.has("pretty") && params.get("pretty") !== "false";
    payload = pretty ? stringifyReply(body, 2) + "\n" : stringifyReply(body);
  }
  if (!headers.has("content-type")) headers.set("content-type", "application/json; charset=UTF-8");
  if (head || payload === null) {
    if (payload !== null) {
      headers.set("content-length", String(new TextEncoder().encode(payload).length));
    }
    return new Response(null, { status: reply.status, headers });
  }
  return new Response(payload, { status: reply.status, headers });
}

function errorReply(e: unknown): Reply {
  if (e instanceof EngineError) return { status: e.status, body: errorBody(e) };
  const message = e instanceof Error ? e.message : String(e);
  const error = new EngineError(500, "exception", message || "internal error");
  return { status: 500, body: error.toBody() };
}

async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) {
    throw new EngineError(413, "content_too_long", "request body too large");
  }
  if (!request.body) return "";
  const buffer = await request.arrayBuffer();
  if (buffer.byteLength > MAX_BODY_BYTES) {
    throw new EngineError(413, "content_too_long", "request body too large");
  }
  let bytes = new Uint8Array(buffer);
  if (request.headers.get("content-encoding") === "gzip") {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  return new TextDecoder().decode(bytes);
}

/** Answers one request against the engine state; never throws. Echoes `X-Opaque-Id` like ES. */
export async function handle(state: EngineState, request: Request): Promise<Response> {
  const response = await answer(state, request);
  const opaqueId = request.headers.get("x-opaque-id");
  if (opaqueId !== null) response.headers.set("x-opaque-id", opaqueId);
  return response;
}

async function answer(state: EngineState, request: Request): Promise<Response> {
  const head = request.method === "HEAD";
  try {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const match = ROUTER.match(method, path);
    if (match.kind === "not_found") {
      return respond(state, {
        status: 400,
        body: {
          error: `no handler found for uri [${url.pathname}${url.search}] and method [${method}]`,
          status: 400,
        },
      }, head);
    }
    if (match.kind === "method_not_allowed") {
      return respond(state, {
        status: 405,
        body: {
          error:
            `Incorrect HTTP method for uri [${url.pathname}${url.search}] and method [${method}], allowed: [${
              match.allowed.join(", ")
            }]`,
          status: 405,
        },
        headers: { allow: match.allowed.join(",") },
      }, head);
    }
    const refused = checkMediaTypes(state, request.headers);
    if (refused) return respond(state, refused, head);
    const bodyText = await readBody(request);
    const badType = checkBodyContentType(request.headers, bodyText.length > 0);
    if (badType) return respond(state, badType, head);
    const ctx: RequestContext = {
      state,
      method,
      path,
      params: url.searchParams,
      p: match.params,
      bodyText,
    };
    const reply = await match.handler(ctx);
    return respond(state, reply, head, url.searchParams);
  } catch (e) {
    return respond(state, errorReply(e), head);
  }
}
