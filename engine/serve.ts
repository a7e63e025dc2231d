// serve(): exposes an Engine over HTTP (node:http in Deno, Bun and Node), guarded.

import { answerHandler, type Engine, useHeapSize, useTimeSlices } from "./engine.ts";
import { type Answer, knowBodyText, MAX_BODY_BYTES, replyText } from "./_rest/handle.ts";
import {
  corsHeaders,
  guard,
  type GuardOptions,
  isLoopback,
  type ServeAuth,
} from "./serve_guard.ts";

export type { ServeAuth };

/**
 * Options of {@link serve}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, serve, type ServeOptions } from "@searchvisitor/searchvisitor/engine";
 *
 * const options: ServeOptions = { port: 0, hostname: "127.0.0.1" };
 * const engine = new Engine();
 * const server = await serve(engine, options);
 * assert.ok(server.port > 0);
 * await server.close();
 * engine.close();
 * ```
 */
export interface ServeOptions {
  /** Port to listen on; 0 (the default) picks a free port. */
  port?: number;
  /**
   * Interface to bind; `127.0.0.1` by default. Any other than loopback requires `auth`: the
   * engine is for tests and development, and anyone who reaches the port could use it.
   */
  hostname?: string;
  /** Credentials every request must carry (basic or API key); none by default on loopback. */
  auth?: ServeAuth;
  /** Origins whose browser requests are allowed (`"*"` for any); none by default. */
  cors?: readonly string[];
  /** Extra names the `Host` header may carry on a loopback server (DNS-rebinding guard). */
  allowedHosts?: readonly string[];
  /** `http.max_content_length` in bytes: 100 MB by default. */
  maxContentLength?: number;
}

/**
 * A running HTTP server for an engine.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, type EngineServer, serve } from "@searchvisitor/searchvisitor/engine";
 *
 * const engine = new Engine();
 * const server: EngineServer = await serve(engine);
 * assert.equal(server.url, `http://127.0.0.1:${server.port}`);
 * await server.close();
 * engine.close();
 * ```
 */
export interface EngineServer {
  /** Base URL, e.g. `http://127.0.0.1:9200`. */
  url: string;
  /** The port actually bound. */
  port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** How an adapter listens. */
export interface ListenOptions {
  /** Port to listen on; 0 picks a free port. */
  port: number;
  /** Interface to bind. */
  hostname: string;
  /** The largest request body read. */
  maxBodyBytes: number;
  /**
   * The text an answer's body was built from, when the engine built it (its bytes are that text
   * in UTF-8): written as it is instead of reading the body back.
   */
  textOf?: (response: Response) => string | undefined;
  /**
   * Tells the engine the text of a body the adapter has already read whole (UTF-8 decoded, a
   * BOM dropped, as the engine decodes one): it is then not read again from the request.
   */
  knowText?: (request: Request, text: string) => void;
}

/** What a runtime adapter provides. */
export interface Adapter {
  /** The heap the runtime gives this process, in bytes, when it can tell. */
  heapSize?(): number | undefined;
  listen(
    handler: (request: Request, method: string, target: string) => Promise<Response | Answer>,
    options: ListenOptions,
  ): Promise<{ port: number; close(): Promise<void> }>;
}

/**
 * Serves an engine over HTTP (`node:http`, which Deno, Bun and Node provide; it keeps bodies sent
 * with GET). Loopback by default; checks the `Host` header against DNS rebinding, refuses
 * cross-origin browser requests unless `cors` allows them, and requires `auth` when given.
 *
 * @param engine The engine whose `fetch` answers the requests.
 * @param options Port (0 = free port), hostname, credentials, CORS origins, body limit.
 * @returns The URL, the bound port and `close()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine, serve } from "@searchvisitor/searchvisitor/engine";
 *
 * const engine = new Engine();
 * const server = await serve(engine, { port: 0 });
 * const res = await fetch(server.url);
 * const info = await res.json();
 * assert.equal(info.tagline, "You Know, for Search");
 * await server.close();
 * engine.close();
 * ```
 */
export async function serve(engine: Engine, options: ServeOptions = {}): Promise<EngineServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const auth = options.auth;
  const hasCredentials = auth !== undefined &&
    ((auth.username !== undefined && auth.password !== undefined) ||
      (auth.apiKeys ?? []).length > 0);
  if (!isLoopback(hostname) && !hasCredentials) {
    throw new Error(
      `serve: ${hostname} is not a loopback address; pass auth (a username and password, or API keys) to listen there`,
    );
  }
  const maxBodyBytes = options.maxContentLength ?? MAX_BODY_BYTES;
  const raw = answerHandler(engine);
  const adapter: Adapter = await import("./serve_node.ts");
  const heap = adapter.heapSize?.();
  if (heap !== undefined) useHeapSize(engine, heap);
  useTimeSlices(engine);
  const guardOptions: GuardOptions = {
    hostname,
    port: options.port ?? 0,
    auth: hasCredentials ? auth : undefined,
    cors: options.cors,
    allowedHosts: options.allowedHosts,
    elastic: engine.flavour === "elasticsearch",
  };
  const server = await adapter.listen(async (request, method, target) => {
    const refused = guard(request, method, guardOptions);
    if (refused) return refused;
    const answer = await raw(request, method, maxBodyBytes, target);
    for (const [k, v] of corsHeaders(request, guardOptions)) answer.headers[k] = v;
    return answer;
  }, {
    port: options.port ?? 0,
    hostname,
    maxBodyBytes,
    textOf: replyText,
    knowText: knowBodyText,
  });
  guardOptions.port = server.port;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return { url: `http://${host}:${server.port}`, port: server.port, close: server.close };
}
