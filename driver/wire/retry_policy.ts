/**
 * The retry policy of the transport, in one place:
 *
 * - A request that **cannot have reached the server** is retried whatever it is: a connect-phase
 *   failure (refused, DNS, TLS, connect timeout — nothing was sent) and a `429` (the server
 *   rejected it before applying it; `Retry-After` is honoured).
 * - A request that **may have reached the server** (a reset or dropped connection after sending,
 *   a timeout of the attempt, `502`/`503`/`504`) is re-sent only when it is idempotent:
 *   `GET`, `HEAD`, `DELETE` (not a conditional one), read-only `POST`s (`_search`, `_count`,
 *   `_mget`, `_msearch`, `_field_caps`, `_validate`, `_analyze`, `_explain`, `_termvectors`,
 *   `_refresh`), `PUT` of a document with an explicit id (not `_create`, `op_type=create` or a
 *   conditional `if_seq_no`/`version` write, whose second attempt would fail after the first
 *   succeeded), `PUT` of settings, mappings, aliases and templates, and any request the caller
 *   marks `idempotent`. Anything else (`POST /idx/_doc` without id, `_update`, `_bulk`, by-query
 *   writes, `_reindex`, index creation) fails with `OutcomeUnknownError`.
 * - A **scroll page** (`GET`/`POST /_search/scroll`, the id in the body, the path or the query)
 *   is never re-sent: the server may have moved the cursor past the page the lost answer held,
 *   so a second attempt would silently skip it. Clearing a scroll (`DELETE`) is re-sent.
 * - A **conditional `DELETE`** (`if_seq_no`, `if_primary_term`, `version`) is not re-sent: after a
 *   first attempt that deleted, the second answers 409 for a delete that succeeded.
 * - The classification reads the command **as written**, before binding (the transport is handed
 *   the path with `{?}` where values go): a bound id that spells an endpoint
 *   (`POST /cnt/_update/{?}` with `_search`) never makes a write look like a read.
 * - Waits are exponential with full jitter within a budget: at most `maxRetries` retries and
 *   never past the request's deadline.
 *
 * @module
 */

/**
 * Whether sending a request twice does no more than sending it once.
 *
 * @param method The method as written.
 * @param path The path with its query string; preferably as the command wrote it, with `{?}`
 * where bound values go, so that no bound value decides (a `{?}` segment is never an endpoint).
 * @returns True when a re-send cannot duplicate, skip or falsify anything.
 *
 * @example
 * ```ts
 * import { isIdempotent } from "./retry_policy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isIdempotent("PUT", "/users/_doc/1"), true);
 * assert.equal(isIdempotent("POST", "/users/_doc"), false);
 * assert.equal(isIdempotent("POST", "/users/_update/1"), false);
 * assert.equal(isIdempotent("POST", "/_bulk"), false);
 * assert.equal(isIdempotent("POST", "/users/_search"), true);
 * assert.equal(isIdempotent("PUT", "/users/_create/1"), false);
 * // A scroll page is never re-sent: a lost answer would be a skipped page.
 * assert.equal(isIdempotent("GET", "/_search/scroll"), false);
 * assert.equal(isIdempotent("GET", "/_search/scroll/c2Nyb2xs"), false);
 * assert.equal(isIdempotent("DELETE", "/_search/scroll"), true);
 * // A conditional delete is not re-sent; a plain one is.
 * assert.equal(isIdempotent("DELETE", "/users/_doc/1?if_seq_no=4&if_primary_term=1"), false);
 * assert.equal(isIdempotent("DELETE", "/users/_doc/1?version=3&version_type=external"), false);
 * assert.equal(isIdempotent("DELETE", "/users/_doc/1"), true);
 * // Classified as written: the bound id `_search` does not make the update a read.
 * assert.equal(isIdempotent("POST", "/cnt/_update/{?}"), false);
 * assert.equal(isIdempotent("PUT", "/cnt/_doc/{?}?refresh={?}"), true);
 * ```
 */
export function isIdempotent(method: string, path: string): boolean {
  const q = queryStart(path);
  const pathname = q < 0 ? path : path.slice(0, q);
  const query = q < 0 ? "" : path.slice(q + 1);
  const s = pathname.split("/").filter((x) => x !== "");
  if (s[0] === "_search" && s[1] === "scroll") return method === "DELETE";
  if (method === "GET" || method === "HEAD") return true;
  if (method === "DELETE") return !CONDITIONAL.test(query);
  const last = s.at(-1) ?? "";
  if (method === "POST") {
    return READ_POSTS.has(last) || (s.includes("_validate") && last === "query") ||
      (s.includes("_search") && last === "template");
  }
  if (method !== "PUT") return false;
  if (s.length === 3 && s[1] === "_doc") {
    return !/(?:^|&)op_type=/.test(query) && !CONDITIONAL.test(query);
  }
  return s.some((segment) => IDEMPOTENT_PUTS.has(segment)) ||
    (s[0] === "_ingest" && s.length === 3);
}

/** The query parameters that make a write conditional: a second attempt would answer 409. */
const CONDITIONAL = /(?:^|&)(?:if_seq_no|if_primary_term|version)=/;

/** Where the query string starts: the first `?` that is not a `{?}` placeholder, or -1. */
function queryStart(path: string): number {
  for (let i = path.indexOf("?"); i >= 0; i = path.indexOf("?", i + 1)) {
    if (path.charCodeAt(i - 1) !== 123 || path.charCodeAt(i + 1) !== 125) return i; // { }
  }
  return -1;
}

const READ_POSTS = new Set([
  "_search",
  "_count",
  "_mget",
  "_msearch",
  "_field_caps",
  "_analyze",
  "_explain",
  "_termvectors",
  "_mtermvectors",
  "_refresh",
  "_search_shards",
  "_rank_eval",
]);

const IDEMPOTENT_PUTS = new Set([
  "_mapping",
  "_settings",
  "_alias",
  "_aliases",
  "_template",
  "_index_template",
  "_component_template",
]);

const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "ConnectionRefused",
  "FailedToOpenSocket",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "CERT_HAS_EXPIRED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "TLS",
]);

const OS_ERRORS: Record<string, string> = {
  "111": "ECONNREFUSED",
  "104": "ECONNRESET",
  "110": "ETIMEDOUT",
  "113": "EHOSTUNREACH",
  "101": "ENETUNREACH",
  "32": "EPIPE",
};

/**
 * The code of a network failure, read down its cause chain: Node's `ECONNREFUSED`, Bun's
 * `ConnectionRefused`, or what Deno's message says (`os error 111` → `ECONNREFUSED`, a DNS
 * failure → `ENOTFOUND`, a certificate problem → `TLS`).
 *
 * @param error The error `fetch` threw.
 * @returns The code, or undefined when none can be read.
 *
 * @example
 * ```ts
 * import { networkErrorCode } from "./retry_policy.ts";
 * import assert from "node:assert/strict";
 *
 * const nodeStyle = new TypeError("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) });
 * assert.equal(networkErrorCode(nodeStyle), "ECONNREFUSED");
 * assert.equal(networkErrorCode(new TypeError("client error (Connect): tcp connect error: Connection refused (os error 111)")), "ECONNREFUSED");
 * ```
 */
export function networkErrorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 6 && e !== null && typeof e === "object"; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    const message = String((e as { message?: unknown }).message ?? "");
    const os = /os error (\d+)/.exec(message);
    if (os?.[1] !== undefined && OS_ERRORS[os[1]]) return OS_ERRORS[os[1]];
    if (/dns error|failed to lookup|name resolution|getaddrinfo/i.test(message)) return "ENOTFOUND";
    if (/certificate|tls handshake|invalid peer/i.test(message)) return "TLS";
    if (/connection refused/i.test(message)) return "ECONNREFUSED";
    if (/connection reset/i.test(message)) return "ECONNRESET";
    if (/closed before message completed|other side closed|socket hang up/i.test(message)) {
      return "ECONNRESET";
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * True when a `fetch` failure happened before any byte of the request was sent (refused, DNS,
 * TLS, connect timeout), so retrying cannot duplicate anything.
 *
 * @param error The error `fetch` threw.
 * @returns Whether it is a connect-phase failure.
 *
 * @example
 * ```ts
 * import { isConnectPhase } from "./retry_policy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isConnectPhase(new TypeError("tcp connect error: Connection refused (os error 111)")), true);
 * assert.equal(isConnectPhase(new TypeError("connection closed before message completed")), false);
 * ```
 */
export function isConnectPhase(error: unknown): boolean {
  const code = networkErrorCode(error);
  if (code !== undefined && CONNECT_CODES.has(code)) return true;
  let e: unknown = error;
  for (let depth = 0; depth < 6 && e !== null && typeof e === "object"; depth++) {
    if (/client error \(Connect\)|tcp connect error/i.test(String((e as Error).message))) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds (seconds or an HTTP date).
 *
 * @param value The header value.
 * @param now The current time in milliseconds.
 * @returns The wait, or undefined when the header is absent or unreadable.
 *
 * @example
 * ```ts
 * import { retryAfterMs } from "./retry_policy.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(retryAfterMs("2", 0), 2000);
 * assert.equal(retryAfterMs(new Date(5000).toUTCString(), 0), 5000);
 * assert.equal(retryAfterMs(null, 0), undefined);
 * ```
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The backoff before retry `retry` (from 1): a random time up to `base × 2^(retry-1)`, at most
 * `max` (full jitter).
 *
 * @param retry The retry number, from 1.
 * @param base The base delay in milliseconds.
 * @param max The largest delay in milliseconds.
 * @returns The delay in milliseconds.
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./retry_policy.ts";
 * import assert from "node:assert/strict";
 *
 * const d = backoffDelay(3, 100, 10_000);
 * assert.ok(d >= 0 && d <= 400);
 * ```
 */
export function backoffDelay(retry: number, base: number, max: number): number {
  return Math.random() * Math.min(max, base * 2 ** (retry - 1));
}
