/**
 * A `fetch` for Node on `node:http` / `node:https` with a keep-alive agent: Node's built-in
 * `fetch` costs several times what its `http` module does per request, and the official
 * Elasticsearch client keeps sockets alive. Pass the returned function as the data source's
 * `fetch`; everything else (retries, timeouts, the response-size cap, errors) stays the
 * driver's. Works on Deno and Bun too (through their `node:http`), where it brings no gain.
 *
 * What it keeps of `fetch`'s contract, so the driver stays safe on it:
 * - the request's `AbortSignal` destroys the socket, before the answer and while its body
 *   streams, and the promise or the stream fails with the signal's reason;
 * - the body arrives as a stream with backpressure (never buffered whole here), so the driver's
 *   `maxResponseBytes` counts it while it arrives and cuts an endless body off;
 * - connection failures reject with Node's error (its `code`, e.g. `ECONNREFUSED`), which the
 *   driver tells apart from failures after the request was sent.
 *
 * @example
 * ```ts
 * import { nodeFetch } from "@searchvisitor/searchvisitor/contrib/fetch_node";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine, serve } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const server = await serve(engine, { port: 0 });
 * const fetch = nodeFetch({ maxSockets: 16 });
 * const ds = new DataSource({ nodes: [server.url], fetch });
 * {
 *   await using conn = await ds.getConnection();
 *   const rs = await conn.createStatement().executeQuery("GET /_cat/health");
 *   assert.ok(rs.next());
 * }
 * fetch.close();
 * await server.close();
 * engine.close();
 * ```
 *
 * @module
 */

import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** Options of {@linkcode nodeFetch}. */
export interface NodeFetchOptions {
  /** Sockets per host (default 256, as the official client). */
  maxSockets?: number;
  /** Idle sockets kept per host (default 256). */
  maxFreeSockets?: number;
  /** How long an idle socket stays open, in ms (default 30 000; the server may close sooner). */
  keepAliveMs?: number;
  /** TLS options for `https:` nodes (a CA, client certificate, `rejectUnauthorized`). */
  tls?: { ca?: string | string[]; cert?: string; key?: string; rejectUnauthorized?: boolean };
}

/** A `fetch` over `node:http`; `close()` ends its idle sockets. */
export interface NodeFetch {
  /** Sends one request, like `fetch(url, init)` with a string URL. */
  (url: string, init?: RequestInit): Promise<Response>;
  /** Destroys the agents' sockets; call it when the data source is no longer used. */
  close(): void;
}

/** Statuses whose response has no body by definition (a web `Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Creates a `fetch` on `node:http` / `node:https` with keep-alive agents.
 *
 * @param options Socket pool sizes, keep-alive and TLS options.
 * @returns The fetch function, with `close()` for its sockets.
 *
 * @example
 * ```ts
 * import { nodeFetch } from "@searchvisitor/searchvisitor/contrib/fetch_node";
 * import assert from "node:assert/strict";
 *
 * const fetch = nodeFetch();
 * await assert.rejects(fetch("ftp://example.com/"), TypeError);
 * fetch.close();
 * ```
 */
export function nodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const pool = {
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: options.maxSockets ?? 256,
    maxFreeSockets: options.maxFreeSockets ?? 256,
    timeout: options.keepAliveMs ?? 30_000,
    scheduling: "lifo" as const,
  };
  const http = new HttpAgent(pool);
  const https = new HttpsAgent({ ...pool, ...options.tls });
  const fetchFn = (url: string, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const secure = url.startsWith("https:");
      if (!secure && !url.startsWith("http:")) {
        return reject(new TypeError(`nodeFetch: only http: and https: URLs, got ${url}`));
      }
      let body: string | Uint8Array | undefined;
      try {
        body = requestBody(init.body);
      } catch (error) {
        return reject(error);
      }
      const req = (secure ? httpsRequest : httpRequest)(url, {
        method: init.method ?? "GET",
        headers: plainHeaders(init.headers),
        agent: secure ? https : http,
      });
      let res: IncomingMessage | undefined;
      let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
      const onAbort = (): void => {
        const reason = signal!.reason;
        req.destroy(reason);
        res?.destroy(reason);
        if (controller) {
          try {
            controller.error(reason);
          } catch { /* the stream already ended */ }
        }
        reject(reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = (): void => signal?.removeEventListener("abort", onAbort);
      req.on("error", (error) => {
        done();
        reject(error);
      });
      req.on("response", (message) => {
        res = message;
        const status = message.statusCode ?? 0;
        const headers = new Headers();
        const raw = message.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
        if (NULL_BODY.has(status) || init.method === "HEAD") {
          message.resume();
          message.on("end", done);
          return resolve(new Response(null, { status, headers }));
        }
        const stream = new ReadableStream<Uint8Array>({
          start(c) {
            controller = c;
            message.on("data", (chunk: Uint8Array) => {
              c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
              if ((c.desiredSize ?? 1) <= 0) message.pause();
            });
            message.on("end", () => {
              done();
              controller = undefined;
              c.close();
            });
            message.on("error", (error) => {
              done();
              if (controller) {
                controller = undefined;
                c.error(error);
              }
            });
          },
          pull() {
            message.resume();
          },
          cancel(reason) {
            done();
            controller = undefined;
            message.destroy(reason instanceof Error ? reason : undefined);
          },
        }, { highWaterMark: 4 });
        let response: Response;
        try {
          response = new Response(stream, { status, headers });
        } catch (error) {
          message.destroy();
          done();
          return reject(error);
        }
        resolve(response);
      });
      req.end(body);
    });
  return Object.assign(fetchFn, {
    close(): void {
      http.destroy();
      https.destroy();
    },
  });
}

function requestBody(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) {
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  }
  throw new TypeError(
    "nodeFetch: a request body must be a string or bytes (the driver sends nothing else)",
  );
}

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) {
    const out: Record<string, string> = {};
    new Headers(headers).forEach((value, key) => out[key] = value);
    return out;
  }
  return headers as Record<string, string>;
}
