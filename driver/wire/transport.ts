/**
 * The HTTP transport: the only place that calls `fetch`. It picks nodes round-robin, retries
 * connection failures and 429/502/503/504 with exponential backoff and full jitter, applies the
 * per-request timeout and the caller's `AbortSignal`, and turns error statuses into
 * {@linkcode ResponseError}.
 *
 * @module
 */

import { ConnectionError, redact, ResponseError, TimeoutError } from "../errors.ts";
import type { Method } from "../command/_command.ts";

/** The signature of `fetch` the transport calls: `fetchFn(url, init)`.
 *
 * @example
 * ```ts
 * import { type FetchFunction, Transport, type TransportResponse } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch: FetchFunction = () => Promise.resolve(new Response(null, { status: 404 }));
 * const transport = new Transport({ nodes: ["http://es:9200"], fetch, maxRetries: 0 });
 * const res: TransportResponse = await transport.request({ method: "HEAD", path: "/idx", allowNotFound: true });
 * assert.equal(res.status, 404);
 * assert.equal(res.node, "http://es:9200");
 * ```
 */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** How a {@linkcode Transport} talks to the cluster.
 *
 * @example
 * ```ts
 * import { type FetchFunction, Transport, type TransportResponse } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch: FetchFunction = () => Promise.resolve(new Response(null, { status: 404 }));
 * const transport = new Transport({ nodes: ["http://es:9200"], fetch, maxRetries: 0 });
 * const res: TransportResponse = await transport.request({ method: "HEAD", path: "/idx", allowNotFound: true });
 * assert.equal(res.status, 404);
 * assert.equal(res.node, "http://es:9200");
 * ```
 */
export interface TransportOptions {
  /** Base URLs of the nodes, without credentials, e.g. `http://h1:9200`. */
  nodes: readonly string[];
  /** The `fetch` to call; `globalThis.fetch` when absent. */
  fetch?: FetchFunction;
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Base delay of the exponential backoff in milliseconds (default 100). */
  retryBaseDelayMs?: number;
  /** Value of the `authorization` header, when there is one. */
  authorization?: string;
  /** Extra headers sent with every request. */
  headers?: Readonly<Record<string, string>>;
  /** Gzip request bodies (`content-encoding: gzip`). */
  compression?: boolean;
}

/** One request for the transport.
 *
 * @example
 * ```ts
 * import { type FetchFunction, Transport, type TransportResponse } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch: FetchFunction = () => Promise.resolve(new Response(null, { status: 404 }));
 * const transport = new Transport({ nodes: ["http://es:9200"], fetch, maxRetries: 0 });
 * const res: TransportResponse = await transport.request({ method: "HEAD", path: "/idx", allowNotFound: true });
 * assert.equal(res.status, 404);
 * assert.equal(res.node, "http://es:9200");
 * ```
 */
export interface TransportRequest {
  /** The method as written; GET/HEAD with a body are sent as POST. */
  method: Method;
  /** The path with its query string, starting with `/`. */
  path: string;
  /** JSON or NDJSON text. */
  body?: string;
  /** True when `body` is NDJSON (`_bulk`, `_msearch`). */
  ndjson?: boolean;
  /** The caller's signal. */
  signal?: AbortSignal;
  /** Overrides the transport's timeout for this request. */
  timeoutMs?: number;
  /** Return a 404 response instead of throwing (HEAD, document get/delete). */
  allowNotFound?: boolean;
  /** The command text, kept (redacted) on errors. */
  command?: string;
}

/** What came back: the status, the body as text, the headers and the node that answered.
 *
 * @example
 * ```ts
 * import { type FetchFunction, Transport, type TransportResponse } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch: FetchFunction = () => Promise.resolve(new Response(null, { status: 404 }));
 * const transport = new Transport({ nodes: ["http://es:9200"], fetch, maxRetries: 0 });
 * const res: TransportResponse = await transport.request({ method: "HEAD", path: "/idx", allowNotFound: true });
 * assert.equal(res.status, 404);
 * assert.equal(res.node, "http://es:9200");
 * ```
 */
export interface TransportResponse {
  /** The HTTP status. */
  status: number;
  /** The body as text. */
  body: string;
  /** The response headers. */
  headers: Headers;
  /** The node that answered. */
  node: string;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_DELAY_MS = 10_000;

/**
 * Sends requests to Elasticsearch or OpenSearch nodes over `fetch`.
 *
 * @example Send a request through an injected fetch
 * ```ts
 * import { Transport } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const seen: string[] = [];
 * const transport = new Transport({
 *   nodes: ["http://a:9200", "http://b:9200"],
 *   fetch: (url, init) => {
 *     seen.push(`${init.method} ${url}`);
 *     return Promise.resolve(Response.json({ count: 3 }));
 *   },
 * });
 * const res = await transport.request({ method: "GET", path: "/idx/_count", body: "{}" });
 * assert.equal(res.status, 200);
 * assert.deepEqual(JSON.parse(res.body), { count: 3 });
 * assert.deepEqual(seen, ["POST http://a:9200/idx/_count"]);
 * ```
 */
export class Transport {
  readonly #nodes: readonly string[];
  readonly #fetch: FetchFunction;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #baseDelay: number;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #compression: boolean;
  #next = 0;

  /**
   * Creates a transport.
   *
   * @param options The nodes, fetch, timeouts, retries, auth and headers.
   */
  constructor(options: TransportOptions) {
    if (options.nodes.length === 0) {
      throw new TypeError("Transport needs at least one node URL, e.g. http://localhost:9200");
    }
    this.#nodes = options.nodes.map((n) => n.replace(/\/+$/, ""));
    const f = options.fetch;
    this.#fetch = f ?? ((url, init) => globalThis.fetch(url, init));
    this.#timeoutMs = check("timeoutMs", options.timeoutMs, 30_000, 1);
    this.#maxRetries = check("maxRetries", options.maxRetries, 3, 0);
    this.#baseDelay = check("retryBaseDelayMs", options.retryBaseDelayMs, 100, 0);
    this.#compression = options.compression ?? false;
    const headers: Record<string, string> = { accept: "application/json" };
    for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    this.#headers = headers;
  }

  /** How many times a failed request is retried. */
  get maxRetries(): number {
    return this.#maxRetries;
  }

  /** The node URLs (never with credentials). */
  get nodes(): readonly string[] {
    return this.#nodes;
  }

  /**
   * Sends one request, retrying where it is safe.
   *
   * @param req The request.
   * @returns The response of the node that answered.
   */
  async request(req: TransportRequest): Promise<TransportResponse> {
    const hasBody = req.body !== undefined && req.body !== "";
    const method = hasBody && (req.method === "GET" || req.method === "HEAD") ? "POST" : req.method;
    const headers: Record<string, string> = { ...this.#headers };
    let body: BodyInit | undefined;
    if (hasBody) {
      headers["content-type"] = req.ndjson ? "application/x-ndjson" : "application/json";
      body = req.body;
      if (this.#compression) {
        body = await gzip(req.body as string);
        headers["content-encoding"] = "gzip";
      }
    }
    const retryable = !(method === "POST" && createsId(req.path));
    const attempts = retryable ? this.#maxRetries + 1 : 1;
    const tried: string[] = [];
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await this.backoff(attempt - 1, req);
      const node = this.#nodes[this.#next++ % this.#nodes.length]!;
      tried.push(node);
      const outcome = await this.#once(node, method, headers, body, req);
      if (outcome instanceof Response) {
        const text = await readText(outcome, req, this.#timeoutMs);
        const status = outcome.status;
        if (status >= 200 && status < 300) {
          return { status, body: text, headers: outcome.headers, node };
        }
        if (status === 404 && req.allowNotFound) {
          return { status, body: text, headers: outcome.headers, node };
        }
        if (RETRY_STATUSES.has(status) && attempt < attempts) continue;
        throw ResponseError.fromBody(status, text, { command: req.command });
      }
      lastError = outcome.error;
    }
    const where = [...new Set(tried)].map(redact).join(", ");
    throw new ConnectionError(
      `No node answered ${req.method} ${
        redact(req.path)
      } after ${attempts} attempt(s) (${where}): ${
        describe(lastError)
      }; check that the cluster is running and the URL is right`,
      { cause: lastError, command: req.command },
    );
  }

  async #once(
    node: string,
    method: string,
    headers: Record<string, string>,
    body: BodyInit | undefined,
    req: TransportRequest,
  ): Promise<Response | { error: unknown }> {
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    const signal = combine(req.signal, timeoutMs);
    try {
      // Called without `this`: a browser's fetch throws "Illegal invocation" on a foreign `this`.
      const fetchFn = this.#fetch;
      return await fetchFn(node + req.path, { method, headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw timeoutError(req, timeoutMs, signal.reason ?? error);
      return { error };
    }
  }

  /**
   * Waits the backoff before a retry: a random time up to `retryBaseDelayMs × 2^(retry-1)`
   * (full jitter, at most 10 s). Used by the transport and by `executeBatch` for items the
   * server rejected with 429.
   *
   * @param retry The retry number, from 1.
   * @param req The request being retried (its signal ends the wait with `TimeoutError`).
   * @returns A promise that resolves after the wait.
   *
   * @example
   * ```ts
   * import { Transport } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const transport = new Transport({ nodes: ["http://es:9200"], retryBaseDelayMs: 1 });
   * await transport.backoff(1, { method: "POST", path: "/_bulk" });
   * assert.equal(transport.maxRetries, 3);
   * ```
   */
  backoff(retry: number, req: TransportRequest): Promise<void> {
    const ceiling = Math.min(MAX_DELAY_MS, this.#baseDelay * 2 ** (retry - 1));
    const ms = Math.random() * ceiling;
    return new Promise((resolve, reject) => {
      const signal = req.signal;
      if (signal?.aborted) return reject(timeoutError(req, 0, signal.reason));
      const onAbort = () => {
        clearTimeout(timer);
        reject(timeoutError(req, 0, signal?.reason));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}

function check(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new TypeError(`${name} must be a whole number of at least ${min}, got ${value}`);
  }
  return value;
}

function combine(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

async function readText(res: Response, req: TransportRequest, timeoutMs: number): Promise<string> {
  try {
    return await res.text();
  } catch (error) {
    if (req.signal?.aborted || isAbort(error)) throw timeoutError(req, timeoutMs, error);
    throw new ConnectionError(`The response to ${req.method} ${redact(req.path)} broke off`, {
      cause: error,
      command: req.command,
    });
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

function timeoutError(req: TransportRequest, timeoutMs: number, cause: unknown): TimeoutError {
  const what = `${req.method} ${redact(req.path)}`;
  const message = req.signal?.aborted
    ? `${what} was aborted by the caller's signal`
    : `${what} timed out after ${timeoutMs} ms; raise timeoutMs or narrow the request`;
  return new TimeoutError(message, { cause, command: req.command });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** `POST /idx/_doc` without an id: the server makes up an id, so a retry could write twice. */
function createsId(path: string): boolean {
  const q = path.indexOf("?");
  const segments = (q < 0 ? path : path.slice(0, q)).split("/").filter((s) => s !== "");
  return segments.length === 2 && segments[1] === "_doc";
}

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
