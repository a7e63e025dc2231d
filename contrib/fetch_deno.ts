/**
 * A `fetch` for Deno: HTTP/1.1 over `Deno.connect` / `Deno.connectTls` with keep-alive
 * connections. Deno's own `fetch` spends about twice the CPU of a plain connection on each
 * request to a node over loopback or a fast network (its client is general: HTTP/2, proxies,
 * redirects, a `Request` and a `Response` built per call); this one sends each request in one
 * write and parses the answer itself, so the driver on it runs faster than a hand-written loop
 * on the built-in `fetch`. Pass the returned function as the data source's `fetch`; everything
 * else (retries, timeouts, the response-size cap, errors) stays the driver's. Use it on Deno
 * when requests are many and small (searches, gets, small bulks); the built-in `fetch` stays
 * the default and is what to use for HTTP/2, proxies (`HTTPS_PROXY`) or a client `Deno.HttpClient`.
 *
 * What it keeps of `fetch`'s contract, so the driver stays safe on it:
 * - the answer is shaped like a web `Response` (status, `Headers`, a `ReadableStream` body,
 *   `text`/`json`/`bytes`/`arrayBuffer`/`blob`/`formData`/`clone`), though it is not an
 *   `instanceof Response`; gzip, deflate and br bodies are decoded;
 * - the request's `AbortSignal` closes the connection, before the answer and while its body
 *   streams, and the promise or the stream fails with the signal's reason;
 * - the body arrives with backpressure (at most 64 KiB queued before reading pauses), so the
 *   driver's `maxResponseBytes` counts a body of unknown length while it arrives and cuts an
 *   endless one off; a body never runs past its declared `content-length`, so the function
 *   carries the mark `Symbol.for("searchvisitor.networkFetch")` and the driver reads a declared
 *   body in one go, as it does with the runtime's own `fetch`;
 * - a failure before the connection stood (refused, DNS, TLS handshake) rejects with a
 *   "tcp connect error" carrying a `code` (e.g. `ECONNREFUSED`), which the driver tells apart
 *   from a failure after the request was sent (`ECONNRESET`, `socket hang up`);
 * - an idle connection the server closed is noticed at once (a read is pending on every open
 *   connection) and never picked for a request; idle connections do not keep the process alive
 *   and close after `keepAliveMs`;
 * - malformed answers (a bad status line, conflicting `content-length`, a broken chunk) reject
 *   with code `ERR_INVALID_HTTP_RESPONSE`, and their connection is never reused;
 * - an answer that ends before its request was written in full (OpenSearch's `413` to a body
 *   over `http.max_content_length`) closes its connection: the next request never lands in the
 *   rest of that body; so does a `400` or `431` to a request head over 8 KiB (Elasticsearch and
 *   OpenSearch refuse a head over 16 KiB that way, then ignore what follows on the connection);
 * - a redirect is never followed, whatever `init.redirect` says: a `3xx` comes back as it is (as
 *   `redirect: "manual"` does), and the driver raises `RedirectError` on it.
 *
 * Needs `--allow-net` for the nodes' hosts.
 *
 * @example
 * ```ts
 * import { denoFetch } from "@searchvisitor/searchvisitor/contrib/fetch_deno";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine, serve } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const server = await serve(engine, { port: 0 });
 * const fetch = denoFetch({ maxSockets: 16 });
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

import { DenoConn, type DenoTlsOptions } from "./_http1_conn_deno.ts";
import { http1Fetch } from "./_http1_fetch.ts";
import { requestBytes } from "./_http1_request.ts";

export type { DenoTlsOptions } from "./_http1_conn_deno.ts";

/** Options of {@linkcode denoFetch}. */
export interface DenoFetchOptions {
  /** Connections per host (default 256, as the official client's sockets). */
  maxSockets?: number;
  /** Idle connections kept per host (default 256). */
  maxFreeSockets?: number;
  /**
   * How long an idle connection stays open, in ms (default 30 000; a server's `Keep-Alive:
   * timeout=N` shortens it to a second under what the server keeps).
   */
  keepAliveMs?: number;
  /** TLS options for `https:` nodes: trusted CAs, a client certificate and its key. */
  tls?: DenoTlsOptions;
}

/** A `fetch` over `Deno.connect`; `close()` ends its idle connections. */
export interface DenoFetch {
  /** Sends one request, like `fetch(url, init)` with a string URL. */
  (url: string, init?: RequestInit): Promise<Response>;
  /** Closes the idle connections (busy ones close when their exchange ends); call it when done. */
  close(): void;
}

const WHO = "denoFetch";

/**
 * Creates a `fetch` on `Deno.connect` / `Deno.connectTls` with keep-alive connections.
 *
 * @param options Pool sizes, keep-alive and TLS options.
 * @returns The fetch function, with `close()` for its connections.
 *
 * @example
 * ```ts
 * import { denoFetch } from "@searchvisitor/searchvisitor/contrib/fetch_deno";
 * import assert from "node:assert/strict";
 *
 * const fetch = denoFetch();
 * await assert.rejects(fetch("ftp://example.com/"), TypeError);
 * fetch.close();
 * ```
 */
export function denoFetch(options: DenoFetchOptions = {}): DenoFetch {
  const keepAliveMs = options.keepAliveMs ?? 30_000;
  const tls = options.tls;
  return http1Fetch<Uint8Array, DenoConn>({
    who: WHO,
    pool: {
      maxSockets: options.maxSockets ?? 256,
      maxFreeSockets: options.maxFreeSockets ?? 256,
      connect: (owner, origin) => new DenoConn(owner, origin, { keepAliveMs, tls }),
      unrefTimer: (timer) => Deno.unrefTimer(timer as unknown as number),
    },
    payload: requestBytes,
  });
}
