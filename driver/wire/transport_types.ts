// The types of the transport's surface: the fetch it calls, its options, a request and a response.

import type { Method } from "../command/command.ts";
import type { TransportEventListener } from "./transport_events.ts";

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

/**
 * How the transport times, retries and limits requests: the knobs a {@linkcode Transport} and a
 * `DataSource` share (the data source hands them to its transport).
 *
 * @example
 * ```ts
 * import { DataSource, type TransportTuning } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const tuning: TransportTuning = { timeoutMs: 2_000, maxRetries: 1 };
 * const ds = new DataSource({ nodes: ["http://es:9200"], ...tuning });
 * assert.equal(ds.toJSON().timeoutMs, 2_000);
 * ```
 */
export interface TransportTuning {
  /** Timeout of one attempt in milliseconds, from sending to the last byte (default 30 000). */
  timeoutMs?: number;
  /** Timeout of a whole request, retries and waits included (default 3 × `timeoutMs`). */
  requestTimeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Base delay of the exponential backoff in milliseconds (default 100). */
  retryBaseDelayMs?: number;
  /** Largest wait between attempts in milliseconds (default 10 000). */
  maxRetryDelayMs?: number;
  /** Largest response body read, in bytes (default 64 MiB); past it `ResponseTooLargeError`. */
  maxResponseBytes?: number;
  /** First wait before a dead node is asked again, doubling per failure (default 1 000 ms). */
  deadNodeBaseMs?: number;
  /** Longest wait before a dead node is asked again (default 60 000 ms). */
  deadNodeMaxMs?: number;
}

/** The names of {@linkcode TransportTuning}'s fields, in order. */
const TUNING_KEYS = [
  "timeoutMs",
  "requestTimeoutMs",
  "maxRetries",
  "retryBaseDelayMs",
  "maxRetryDelayMs",
  "maxResponseBytes",
  "deadNodeBaseMs",
  "deadNodeMaxMs",
] as const satisfies readonly (keyof TransportTuning)[];

/**
 * Copies the tuning fields that are set out of a larger options object.
 *
 * @param options Any options holding tuning fields.
 * @returns Only the tuning fields that are not undefined.
 */
export function tuningOf(options: TransportTuning): TransportTuning {
  const out: TransportTuning = {};
  for (const key of TUNING_KEYS) {
    if (options[key] !== undefined) out[key] = options[key];
  }
  return out;
}

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
export interface TransportOptions extends TransportTuning {
  /** Base URLs of the nodes, without credentials, e.g. `http://h1:9200`. */
  nodes: readonly string[];
  /**
   * The `fetch` to call; `globalThis.fetch` when absent. An injected fetch is not trusted: its
   * promise is raced against the signal and its body is counted while it streams. Three marks
   * (own properties of the function, set to `true`) say more: `Symbol.for(
   * "searchvisitor.networkFetch")` — it honours its signal and never delivers more than a
   * declared `content-length` (as `contrib/fetch_node` does), so it is read like the runtime's
   * own; `Symbol.for("searchvisitor.inProcessFetch")` — its bodies are finite and already in
   * memory (as the embedded engine's `engine.fetch`), so they are read whole and then held to
   * `maxResponseBytes`, and it is handed the transport's own frozen header objects (it reads
   * them, it cannot change them) rather than a copy per request;
   * `Symbol.for("searchvisitor.lightSignal")` — it reads only `aborted`, `reason` and the
   * `abort` listeners of `init.signal` (as `contrib/fetch_node` does), so each attempt hands it
   * a light signal of those members instead of an `AbortController`'s.
   */
  fetch?: FetchFunction;
  /** Value of the `authorization` header, when there is one. */
  authorization?: string;
  /** Extra headers sent with every request. */
  headers?: Readonly<Record<string, string>>;
  /** Gzip request bodies (`content-encoding: gzip`). */
  compression?: boolean;
  /** Receives request, retry and node events (never headers, bodies or credentials). */
  onEvent?: TransportEventListener;
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
  /**
   * The path as the command wrote it, with `{?}` where values were bound: whether the request
   * may be re-sent is read from it (a bound id that spells `_search` never makes an update look
   * like a read). `path` is read when absent.
   */
  pathTemplate?: string;
  /** JSON or NDJSON text. */
  body?: string;
  /** True when `body` is NDJSON (`_bulk`, `_msearch`). */
  ndjson?: boolean;
  /** The caller's signal. */
  signal?: AbortSignal;
  /** Overrides the transport's attempt timeout for this request. */
  timeoutMs?: number;
  /** The caller vouches that sending this request twice does no harm. */
  idempotent?: boolean;
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
