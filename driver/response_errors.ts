/**
 * Errors the server answered with: {@linkcode ResponseError} for an error status,
 * {@linkcode RedirectError} for a redirect and {@linkcode BulkError} for a `_bulk` request with
 * failed items.
 *
 * @module
 */

import { DataAccessError, type ErrorCode, type ErrorOptions, redact } from "./error_base.ts";

/** The parts of an Elasticsearch error body, as the server sent them. */
export interface ServerErrorCause {
  /** The exception type, e.g. `index_not_found_exception`. */
  type?: string;
  /** The human-readable reason. */
  reason?: string;
  /** Any other fields the server sent. */
  [key: string]: unknown;
}

/**
 * The server answered with an error status. The message is built from Elasticsearch's `type`,
 * `reason`, `caused_by` and `root_cause`; a body that is not JSON (an HTML page from a proxy) is
 * kept as text in `body`.
 *
 * @example
 * ```ts
 * import { ResponseError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const body = JSON.stringify({
 *   error: { root_cause: [], type: "index_not_found_exception", reason: "no such index [x]" },
 *   status: 404,
 * });
 * const error = ResponseError.fromBody(404, body, { command: "GET /x/_search" });
 * assert.equal(error.status, 404);
 * assert.equal(error.type, "index_not_found_exception");
 * assert.match(error.message, /no such index \[x\]/);
 * ```
 */
export class ResponseError extends DataAccessError {
  /** The HTTP status. */
  readonly status: number;
  /** Elasticsearch's exception type, when the body had one. */
  readonly type?: string;
  /** Elasticsearch's reason, when the body had one. */
  readonly reason?: string;
  /** `error.root_cause` of the body. */
  readonly rootCause: ServerErrorCause[];
  /** `error.caused_by` of the body. */
  readonly causedBy?: ServerErrorCause;
  /** The parsed body when it was JSON, else the raw text. */
  readonly body: unknown;
  /**
   * The answer's `X-Elastic-Product` header (`"Elasticsearch"`: Elasticsearch 7.14+ sends it on
   * every answer, errors included), when it had one.
   */
  readonly product?: string;

  /**
   * Creates the error.
   *
   * @param status The HTTP status.
   * @param body The parsed JSON body, or the raw text.
   * @param options The command, the cause and the answer's product header.
   */
  constructor(status: number, body: unknown, options: ErrorOptions & { product?: string } = {}) {
    const parts = describeErrorBody(status, body);
    super("RESPONSE", parts.message, options);
    this.status = status;
    this.body = body;
    this.rootCause = parts.rootCause;
    if (parts.type !== undefined) this.type = parts.type;
    if (parts.reason !== undefined) this.reason = parts.reason;
    if (parts.causedBy !== undefined) this.causedBy = parts.causedBy;
    if (options.product !== undefined) this.product = options.product;
  }

  /**
   * Builds the error from the raw response text: JSON when it parses, else kept as text.
   *
   * @param status The HTTP status.
   * @param text The raw response body.
   * @param options The command, the cause and the answer's product header.
   * @returns The error.
   */
  static fromBody(
    status: number,
    text: string,
    options: ErrorOptions & { product?: string } = {},
  ): ResponseError {
    let body: unknown = text;
    try {
      if (text.length > 0) body = JSON.parse(text);
    } catch {
      body = text;
    }
    return new ResponseError(status, body, options);
  }
}

function asCause(value: unknown): ServerErrorCause | undefined {
  return value !== null && typeof value === "object" ? value as ServerErrorCause : undefined;
}

function describeErrorBody(status: number, body: unknown): {
  message: string;
  type?: string;
  reason?: string;
  rootCause: ServerErrorCause[];
  causedBy?: ServerErrorCause;
} {
  if (typeof body === "string") {
    const text = body.length > 500 ? body.slice(0, 500) + "…" : body;
    return { message: `HTTP ${status}: ${text || "(empty body)"}`, rootCause: [] };
  }
  const root = asCause(body);
  const error = root?.error;
  if (typeof error === "string") {
    return { message: `HTTP ${status}: ${error}`, reason: error, rootCause: [] };
  }
  const cause = asCause(error);
  if (!cause) {
    return { message: `HTTP ${status}: ${JSON.stringify(body)?.slice(0, 500)}`, rootCause: [] };
  }
  const rootCause = Array.isArray(cause.root_cause)
    ? cause.root_cause.map(asCause).filter((c): c is ServerErrorCause => c !== undefined)
    : [];
  const causedBy = asCause(cause.caused_by);
  let message = `HTTP ${status} ${cause.type ?? "error"}`;
  if (cause.reason) message += `: ${cause.reason}`;
  if (causedBy) message += `; caused by ${causedBy.type}: ${causedBy.reason ?? ""}`;
  for (const rc of rootCause) {
    if (rc.type === cause.type && rc.reason === cause.reason) continue;
    message += `; root cause ${rc.type}: ${rc.reason ?? ""}`;
  }
  return {
    message,
    type: cause.type,
    reason: cause.reason,
    rootCause,
    causedBy,
  };
}

/**
 * The answer an {@linkcode InvalidResponseError} is about: a 2xx whose body is not what the
 * request is due.
 *
 * @example
 * ```ts
 * import { type InvalidAnswer, InvalidResponseError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const answer: InvalidAnswer = { status: 200, contentType: "", text: "" };
 * const error = new InvalidResponseError(answer, "the body is empty where a JSON body is due");
 * assert.equal(error.excerpt, "");
 * assert.match(error.message, /no content type/);
 * ```
 */
export interface InvalidAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The `content-type` the server sent ("" when none). */
  readonly contentType: string;
  /** The body text (redact secrets before; only an excerpt is kept). */
  readonly text: string;
}

/**
 * A success status came with a body that is not the JSON it should be: truncated JSON, an HTML
 * page from a proxy, an empty body where one is due. It carries the status, the content type and
 * a short excerpt of the body (credentials removed) — never rows or counts.
 *
 * @example
 * ```ts
 * import { InvalidResponseError, ResponseError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const answer = { status: 200, contentType: "text/html", text: "<html>login</html>" };
 * const error = new InvalidResponseError(answer, "the body is not JSON");
 * assert.ok(error instanceof ResponseError);
 * assert.equal(error.code, "INVALID_RESPONSE");
 * assert.equal(error.contentType, "text/html");
 * assert.match(error.message, /HTTP 200 \(text\/html\)/);
 * ```
 */
export class InvalidResponseError extends ResponseError {
  /** Always `"INVALID_RESPONSE"`. */
  override readonly code: ErrorCode = "INVALID_RESPONSE";
  /** The `content-type` the server sent ("" when none). */
  readonly contentType: string;
  /** The first characters of the body, redacted. */
  readonly excerpt: string;

  /**
   * Creates the error.
   *
   * @param answer The answer that came: status, content type and body text.
   * @param problem What is wrong with it.
   * @param options The command and the cause.
   */
  constructor(answer: InvalidAnswer, problem: string, options: ErrorOptions = {}) {
    const { status, contentType, text } = answer;
    const excerpt = redact(text.length > 120 ? text.slice(0, 120) + "…" : text)
      .replace(/\s+/g, " ");
    super(status, excerpt, options);
    this.message = redact(
      `HTTP ${status} (${contentType || "no content type"}): ${problem}; the body starts ` +
        `${JSON.stringify(excerpt)}. A proxy or a broken node answered; check the URL and the path`,
    );
    this.contentType = contentType;
    this.excerpt = excerpt;
  }
}

/**
 * The server (or something in front of it) answered with a redirect (`3xx`). Elasticsearch and
 * OpenSearch never redirect, and the driver never follows one: a `307`/`308` would send the
 * documents or the query to another host, and a `301`/`302`/`303` would turn a write into a `GET`
 * that reads as success. The error carries the status and the `Location` header, credentials
 * removed; nothing was sent to that location.
 *
 * @example
 * ```ts
 * import { RedirectError, ResponseError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new RedirectError(307, "https://user:pw@elsewhere:9200/cnt/_doc?token=t0k");
 * assert.ok(error instanceof ResponseError);
 * assert.equal(error.code, "REDIRECT");
 * assert.equal(error.status, 307);
 * assert.equal(error.location, "https://***@elsewhere:9200/cnt/_doc?token=***");
 * assert.doesNotMatch(error.message, /pw|t0k/);
 * ```
 */
export class RedirectError extends ResponseError {
  /** Always `"REDIRECT"`. */
  override readonly code: ErrorCode = "REDIRECT";
  /** Where the answer pointed, credentials removed; undefined when it named no location. */
  readonly location?: string;

  /**
   * Creates the error.
   *
   * @param status The `3xx` status (`0` for a browser's opaque redirect).
   * @param location The `Location` header (redacted here), or null when there was none.
   * @param options The command and the cause.
   */
  constructor(status: number, location: string | null, options: ErrorOptions = {}) {
    const where = location === null || location === "" ? undefined : redact(location);
    super(status, "", options);
    this.message =
      `HTTP ${status}: the server answered with a redirect${
        where === undefined ? "" : ` to ${where}`
      }; redirects are never followed (Elasticsearch never redirects, so a proxy or a wrong URL ` +
      `is in between): point the data source at the cluster's own address`;
    if (where !== undefined) this.location = where;
  }
}

/** One item of a `_bulk` response, as the server sent it, with its position. */
export interface BulkItem {
  /** 0-based position in the request. */
  index: number;
  /** The action: `index`, `create`, `update` or `delete`. */
  action: string;
  /** The item's HTTP status. */
  status: number;
  /** The document id, when known. */
  id?: string;
  /** The item's error, when it failed. */
  error?: ServerErrorCause;
}

/**
 * Some items of a `_bulk` request failed. Every item is kept (`items`), the failed ones also in
 * `failed`; `successCount` says how many were written.
 *
 * @example
 * ```ts
 * import { BulkError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new BulkError([
 *   { index: 0, action: "index", status: 201, id: "1" },
 *   { index: 1, action: "update", status: 404, id: "2", error: { type: "document_missing_exception", reason: "[2]: document missing" } },
 * ]);
 * assert.equal(error.successCount, 1);
 * assert.equal(error.failed.length, 1);
 * assert.match(error.message, /document_missing_exception/);
 * ```
 */
export class BulkError extends DataAccessError {
  /** Every item, in request order. */
  readonly items: BulkItem[];
  /** The failed items. */
  readonly failed: BulkItem[];
  /** How many items succeeded. */
  readonly successCount: number;

  /**
   * Creates the error.
   *
   * @param items Every item of the response.
   * @param options The command and the cause.
   */
  constructor(items: BulkItem[], options: ErrorOptions = {}) {
    const failed = items.filter((item) => item.error !== undefined || item.status >= 300);
    const first = failed[0];
    const firstText = first
      ? `; first: item ${first.index} (${first.action} ${first.id ?? ""}) ${first.status} ${
        first.error?.type ?? ""
      }: ${first.error?.reason ?? ""}`
      : "";
    super(
      "BULK",
      `${failed.length} of ${items.length} bulk items failed${firstText}`,
      options,
    );
    this.items = items;
    this.failed = failed;
    this.successCount = items.length - failed.length;
  }
}

/** One shard that failed to answer a search, from `_shards.failures`. */
export interface ShardFailure {
  /** The index of the shard, when the server named it. */
  index?: string;
  /** The shard number, when the server named it. */
  shard?: number;
  /** The node id the shard copy was asked on, when the server named it. */
  node?: string;
  /** The server's reason (`type`, `reason`, …). */
  reason: ServerErrorCause;
}

/**
 * The `_shards` section of a search answer that some shards failed to answer: the shard counts
 * and each failure.
 */
export interface ShardFailures {
  /** Shards the search was sent to. */
  total: number;
  /** Shards that answered. */
  successful: number;
  /** Shards skipped (they could hold no match). */
  skipped: number;
  /** Shards that failed: their hits are missing from the answer. */
  failed: number;
  /** The failures, as the server listed them (it may list fewer than `failed`). */
  failures: ShardFailure[];
}

/**
 * A search answered from some shards only (`_shards.failed > 0`): the hits, counts and
 * aggregations of the failed shards are missing, so the answer is not read as complete. Add
 * `allow_partial_search_results=true` to the search's path to read such answers anyway: the
 * result set then says what is missing in `shardFailures`. A stream that meets one stops with
 * this error and says where: `delivered` hits were handed out before it, and `after` holds the
 * sort values of the last one (to resume with `search_after`).
 *
 * @example
 * ```ts
 * import { PartialResultsError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new PartialResultsError({
 *   total: 3, successful: 2, skipped: 0, failed: 1,
 *   failures: [{ index: "logs", shard: 2, node: "n2", reason: { type: "node_disconnected_exception", reason: "[n2] disconnected" } }],
 * }, { command: "POST /logs/_search" });
 * assert.equal(error.code, "PARTIAL_RESULTS");
 * assert.match(error.message, /1 of 3 shards failed/);
 * assert.match(error.message, /\[logs\]\[2\] on n2: node_disconnected_exception/);
 * assert.match(error.message, /allow_partial_search_results=true/);
 * ```
 */
export class PartialResultsError extends DataAccessError {
  /** The shard counts and failures. */
  readonly shards: ShardFailures;
  /** In a stream: how many hits were handed out before the partial page. */
  readonly delivered?: number;
  /** In a stream: the sort values of the last hit handed out (undefined before the first). */
  readonly after?: unknown;

  /**
   * Creates the error.
   *
   * @param shards The `_shards` section.
   * @param options The command, and where a stream stopped.
   */
  constructor(
    shards: ShardFailures,
    options: ErrorOptions & { delivered?: number; after?: unknown; where?: string } = {},
  ) {
    const first = shards.failures.slice(0, 3).map((f) =>
      `[${f.index ?? "?"}][${f.shard ?? "?"}]${f.node ? " on " + f.node : ""}: ${
        f.reason.type ?? "error"
      }${f.reason.reason ? " (" + f.reason.reason + ")" : ""}`
    ).join("; ");
    super(
      "PARTIAL_RESULTS",
      `${shards.failed} of ${shards.total} shards failed to answer the search${
        first ? ": " + first : ""
      }${options.where ? "; " + options.where : ""}. The answer lacks their hits, so it is not ` +
        "read as complete; retry later (a replica may take over), or add " +
        "allow_partial_search_results=true to the search's path to read partial answers",
      options,
    );
    this.shards = shards;
    if (options.delivered !== undefined) this.delivered = options.delivered;
    if (options.after !== undefined) this.after = options.after;
  }
}

/** A number as it is, anything else as 0. */
function numberOr0(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

/**
 * The shard failures of a search answer, or undefined when every shard answered.
 *
 * @param json A search answer (or one `_msearch` response).
 * @returns The `_shards` section when `failed > 0`.
 */
export function shardFailuresOf(json: unknown): ShardFailures | undefined {
  const shards = (json as { _shards?: Record<string, unknown> } | null)?._shards;
  if (shards === null || typeof shards !== "object") return undefined;
  // Every shard answered (nearly every answer): told by one read, no closure made.
  const failed = numberOr0(shards.failed);
  if (failed <= 0) return undefined;
  const n = numberOr0;
  const list = Array.isArray(shards.failures) ? shards.failures : [];
  const failures = list.filter((f) => f !== null && typeof f === "object").map(
    (f: Record<string, unknown>) => {
      const failure: ShardFailure = {
        reason: f.reason !== null && typeof f.reason === "object"
          ? f.reason as ServerErrorCause
          : { type: "error", reason: String(f.reason ?? "") },
      };
      if (typeof f.index === "string") failure.index = f.index;
      if (typeof f.shard === "number") failure.shard = f.shard;
      if (typeof f.node === "string") failure.node = f.node;
      return failure;
    },
  );
  return {
    total: n(shards.total),
    successful: n(shards.successful),
    skipped: n(shards.skipped),
    failed,
    failures,
  };
}

/**
 * Whether a search path asks for partial answers (`allow_partial_search_results=true`).
 *
 * @param path The path with its query string.
 * @returns True when partial answers are read as results.
 */
export function allowsPartialResults(path: string): boolean {
  // The plain search for the word first: most paths lack it, and a regular expression per
  // command costs more than the scan.
  return path.includes("allow_partial_search_results") &&
    /[?&]allow_partial_search_results=true(?:&|$)/.test(path);
}
