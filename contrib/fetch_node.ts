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
import { Job, type Origin } from "./_http1_conn_node.ts";
import { Http1Agent } from "./_http1_pool_node.ts";
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
  const agent = new Http1Agent({
    maxSockets: options.maxSockets ?? 256,
    maxFreeSockets: options.maxFreeSockets ?? 256,
    keepAliveMs: options.keepAliveMs ?? 30_000,
    tls: options.tls,
    open: options.bunSockets === false ? undefined : bunSockets(),
  });
  const origins = new Map<string, Origin>();
  const fetchFn = (url: string, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      let target;
      let payload;
      let method;
      try {
        target = targetOf(String(url), origins);
        method = methodOf(init.method);
        payload = requestBytes(method, target.path, target.origin, init);
      } catch (error) {
        return reject(error);
      }
      agent.submit(
        target.origin,
        new Job({ url: target.url, method, payload, signal }, resolve, reject),
      );
    });
  // The mark tells the driver this fetch keeps the network contract (it honours its signal and
  // never delivers more than a declared content-length), so it reads it like the built-in one;
  // the second that it reads only `aborted`, `reason` and abort listeners of a signal, so the
  // driver may hand it its light signal instead of an AbortController per attempt.
  return Object.assign(fetchFn, {
    close: (): void => agent.close(),
    [Symbol.for("searchvisitor.networkFetch")]: true,
    [Symbol.for("searchvisitor.lightSignal")]: true,
  });
}

/** Origins are few (the cluster's nodes): past this many, the cache starts over. */
const MAX_ORIGINS = 64;

/** Splits a URL into its (cached) origin and its request target. */
function targetOf(
  url: string,
  origins: Map<string, Origin>,
): { origin: Origin; path: string; url: string } {
  const secure = url.startsWith("https://");
  if (!secure && !url.startsWith("http://")) {
    throw new TypeError(`nodeFetch: only http: and https: URLs, got ${url.slice(0, 100)}`);
  }
  const slash = url.indexOf("/", secure ? 8 : 7);
  const key = slash < 0 ? url : url.slice(0, slash);
  let path = slash < 0 ? "/" : url.slice(slash);
  // Anything but visible ASCII (a space, a fragment, non-ASCII) is normalised as fetch does.
  if (/[^\x21-\x7e]|#/.test(path)) {
    const parsed = new URL(url);
    path = parsed.pathname + parsed.search;
  }
  let origin = origins.get(key);
  if (origin === undefined) {
    const parsed = new URL(key);
    if (parsed.username !== "" || parsed.password !== "") {
      throw new TypeError(
        "nodeFetch: a URL with credentials is refused (send an authorization header)",
      );
    }
    const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname;
    origin = {
      key,
      secure,
      host,
      port: parsed.port === "" ? (secure ? 443 : 80) : Number(parsed.port),
      hostHeader: parsed.host,
    };
    if (origins.size >= MAX_ORIGINS) origins.clear();
    origins.set(key, origin);
  }
  return { origin, path, url: origin.key + path };
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Methods fetch normalises to upper case. */
const NORMALISED = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"]);
/** Request headers fetch does not let a caller set: the connection's own. */
const FORBIDDEN = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "expect",
]);

function methodOf(method: string | undefined): string {
  if (method === undefined) return "GET";
  const upper = method.toUpperCase();
  if (NORMALISED.has(upper)) return upper;
  if (!TOKEN.test(method) || upper === "CONNECT" || upper === "TRACE") {
    throw new TypeError(`nodeFetch: invalid method ${JSON.stringify(method)}`);
  }
  return method;
}

/** The request head and body, ready to write: one string when the body is text. */
function requestBytes(
  method: string,
  path: string,
  origin: Origin,
  init: RequestInit,
): string | Uint8Array[] {
  const body = requestBody(init.body);
  if (body !== undefined && (method === "GET" || method === "HEAD")) {
    throw new TypeError(`nodeFetch: a ${method} request cannot have a body`);
  }
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${origin.hostHeader}\r\n`;
  const fields = headerBlock(init.headers);
  head += fields.text;
  const ascii = fields.ascii;
  if (typeof body === "string") {
    if (!fields.hasType) head += "content-type: text/plain;charset=UTF-8\r\n";
    head += `content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    return ascii ? head + body : [Buffer.from(head, "latin1"), Buffer.from(body)];
  }
  if (body !== undefined) head += `content-length: ${body.byteLength}\r\n`;
  else if (method === "POST" || method === "PUT" || method === "PATCH") {
    head += "content-length: 0\r\n";
  }
  head += "\r\n";
  if (body === undefined) return ascii ? head : [Buffer.from(head, "latin1")];
  return [Buffer.from(head, "latin1"), body];
}

/** The request's header fields, checked and written out as head lines. */
interface HeaderBlock {
  readonly text: string;
  /** All visible ASCII (else latin1 bytes, written as such). */
  readonly ascii: boolean;
  readonly hasType: boolean;
}

/**
 * The last plain headers object written and what it held: the driver passes the same object
 * on every request, so its lines are checked and written once and then only compared.
 */
let lastHeaders:
  | { source: object; names: string[]; values: string[]; block: HeaderBlock }
  | undefined;

function headerBlock(headers: HeadersInit | undefined): HeaderBlock {
  if (headers === undefined) return NO_HEADERS;
  const plainObject = !(headers instanceof Headers) && !Array.isArray(headers);
  if (plainObject && lastHeaders?.source === headers) {
    const { names, values } = lastHeaders;
    const record = headers as Record<string, string>;
    let i = 0;
    let same = true;
    for (const name in record) {
      if (i >= names.length || names[i] !== name || values[i] !== record[name]) {
        same = false;
        break;
      }
      i++;
    }
    if (same && i === names.length) return lastHeaders.block;
  }
  let text = "";
  let ascii = true;
  let hasType = false;
  const names: string[] = [];
  const values: string[] = [];
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase();
    const v = String(value).trim();
    if (!TOKEN.test(key) || /[\0\r\n]/.test(v)) {
      throw new TypeError(`nodeFetch: invalid header ${JSON.stringify(name)}`);
    }
    if (FORBIDDEN.has(key)) return;
    if (/[^\t\x20-\x7e]/.test(v)) {
      if (/[\u0100-\uffff]/.test(v)) {
        throw new TypeError(`nodeFetch: header ${key} has a character outside latin1`);
      }
      ascii = false;
    }
    if (key === "content-type") hasType = true;
    text += `${key}: ${v}\r\n`;
  };
  if (headers instanceof Headers) headers.forEach((value, name) => add(name, value));
  else if (Array.isArray(headers)) { for (const [name, value] of headers) add(name!, value!); }
  else {
    const record = headers as Record<string, string>;
    for (const name in record) {
      const value = record[name]!;
      add(name, value);
      names.push(name);
      values.push(value);
    }
  }
  const block = { text, ascii, hasType };
  // Only values that are strings compare as the same text next time.
  if (plainObject && values.every((v) => typeof v === "string")) {
    lastHeaders = { source: headers, names, values, block };
  }
  return block;
}

const NO_HEADERS: HeaderBlock = { text: "", ascii: true, hasType: false };

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
