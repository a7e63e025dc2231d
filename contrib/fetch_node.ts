/**
 * A `fetch` for Node: HTTP/1.1 over `node:net` / `node:tls` with keep-alive connections.
 * Node's built-in `fetch` costs several times what a plain socket does per request, and even
 * `node:http` spends more on each request than the exchange needs; this sends each request in
 * one write and parses the answer itself. Pass the returned function as the data source's
 * `fetch`; everything else (retries, timeouts, the response-size cap, errors) stays the
 * driver's. Works on Deno (through its `node:net`, where it brings no gain) and on Bun, where
 * plain `http:` goes over Bun's own sockets and costs less per request than Bun's `fetch`.
 *
 * What it keeps of `fetch`'s contract, so the driver stays safe on it:
 * - the answer is shaped like a web `Response` (status, `Headers`, a `ReadableStream` body,
 *   `text`/`json`/`bytes`/`arrayBuffer`/`blob`/`formData`/`clone`), though it is not an
 *   `instanceof Response`; gzip, deflate and br bodies are decoded;
 * - the request's `AbortSignal` destroys the socket, before the answer and while its body
 *   streams, and the promise or the stream fails with the signal's reason;
 * - the body arrives with backpressure (at most 64 KiB queued before the socket is paused), so
 *   the driver's `maxResponseBytes` counts a body of unknown length while it arrives and cuts an
 *   endless one off; a body never runs past its declared `content-length`, so the function
 *   carries the mark `Symbol.for("searchvisitor.networkFetch")` and the driver reads a declared
 *   body in one go, as it does with the runtime's own `fetch`;
 * - a failure before the connection stood (refused, DNS, TLS handshake) rejects with a
 *   "tcp connect error" carrying Node's `code` (e.g. `ECONNREFUSED`), which the driver tells
 *   apart from a failure after the request was sent (`ECONNRESET`, `socket hang up`);
 * - malformed answers (a bad status line, conflicting `content-length`, a broken chunk) reject
 *   with code `ERR_INVALID_HTTP_RESPONSE`, and their socket is never reused.
 * - a redirect is never followed, whatever `init.redirect` says: a `3xx` comes back as it is (as
 *   `redirect: "manual"` does), and the driver raises `RedirectError` on it.
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

import { Buffer } from "node:buffer";
import { Conn, type NodePayload } from "./_http1_conn_node.ts";
import { http1Fetch } from "./_http1_fetch.ts";
import { requestHead, type RequestParts } from "./_http1_request.ts";
import { bunSockets } from "./_http1_socket_bun.ts";

/** Options of {@linkcode nodeFetch}. */
export interface NodeFetchOptions {
  /** Sockets per host (default 256, as the official client). */
  maxSockets?: number;
  /** Idle sockets kept per host (default 256). */
  maxFreeSockets?: number;
  /**
   * How long an idle socket stays open, in ms (default 30 000; a server's `Keep-Alive:
   * timeout=N` shortens it to a second under what the server keeps).
   */
  keepAliveMs?: number;
  /** TLS options for `https:` nodes (a CA, client certificate, `rejectUnauthorized`). */
  tls?: { ca?: string | string[]; cert?: string; key?: string; rejectUnauthorized?: boolean };
  /**
   * On Bun, `http:` sockets are Bun's own (`Bun.connect`) rather than its `node:net`, which
   * costs more per request (default true; `https:` always goes through `node:tls`). Elsewhere
   * it has no effect.
   */
  bunSockets?: boolean;
}

/** A `fetch` over `node:net`; `close()` ends its idle sockets. */
export interface NodeFetch {
  /** Sends one request, like `fetch(url, init)` with a string URL. */
  (url: string, init?: RequestInit): Promise<Response>;
  /** Closes the idle sockets (busy ones close when their exchange ends); call it when done. */
  close(): void;
}

/**
 * Creates a `fetch` on `node:net` / `node:tls` with keep-alive connections.
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
  const conn = {
    keepAliveMs: options.keepAliveMs ?? 30_000,
    tls: options.tls,
    open: options.bunSockets === false ? undefined : bunSockets(),
  };
  return http1Fetch<NodePayload, Conn>({
    who: "nodeFetch",
    pool: {
      maxSockets: options.maxSockets ?? 256,
      maxFreeSockets: options.maxFreeSockets ?? 256,
      connect: (owner, origin) => new Conn(owner, origin, conn),
      // deno-lint-ignore no-explicit-any
      unrefTimer: (timer) => (timer as any).unref?.(),
    },
    payload: nodePayload,
  });
}

/**
 * The request as the socket writes it: one string when the head is ASCII and the body text (or
 * absent), which Node writes without a copy into bytes; else Buffers.
 */
function nodePayload(parts: RequestParts): NodePayload {
  const { head, ascii, body } = requestHead(parts);
  if (body === undefined) return ascii ? head : [Buffer.from(head, "latin1")];
  if (typeof body === "string") {
    const full = `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    return ascii ? full + body : [Buffer.from(full, "latin1"), Buffer.from(body)];
  }
  return [Buffer.from(`${head}content-length: ${body.byteLength}\r\n\r\n`, "latin1"), body];
}
