/**
 * What the transport tells an observer: each attempt's start and end, retries, and nodes that
 * stop or start answering. Events carry the method, the redacted URL, the status, the duration,
 * the bytes and the attempt, and never a header, a body or a credential.
 *
 * @module
 */

import { redact } from "../error_base.ts";
import { utf8Length } from "../_utf8.ts";

/** Fields every request event has. */
export interface RequestEventBase {
  /** Numbers the logical request; its attempts share it. */
  readonly requestId: number;
  /** The HTTP method sent. */
  readonly method: string;
  /** The node and path, redacted (no user info, no secret query parameters). */
  readonly url: string;
  /** The node's base URL (without credentials). */
  readonly node: string;
  /** The attempt, from 1. */
  readonly attempt: number;
  /** The endpoint, named as Elasticsearch's clients name it: `search`, `index`, `get`, `bulk`,
   * `indices.create`, `cat.indices`, … */
  readonly operation: string;
}

/**
 * An event of the transport.
 *
 * @example Collect events from a data source
 * ```ts
 * import { DataSource, type TransportEvent } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const events: TransportEvent[] = [];
 * const ds = new DataSource("http://elastic:s3cret@es:9200", {
 *   fetch: () => Promise.resolve(Response.json({ count: 2 })),
 *   onEvent: (event) => events.push(event),
 * });
 * await using conn = await ds.getConnection();
 * await conn.createStatement().executeQuery("GET /people/_count");
 * assert.deepEqual(events.map((e) => e.type), ["request-start", "request-end"]);
 * const end = events[1]!;
 * assert.ok(end.type === "request-end");
 * assert.equal(end.status, 200);
 * assert.equal(end.url, "http://es:9200/people/_count");
 * assert.equal(end.operation, "count");
 * assert.doesNotMatch(JSON.stringify(events), /s3cret/);
 * ```
 */
export type TransportEvent =
  | (RequestEventBase & {
    /** An attempt is about to be sent. */
    readonly type: "request-start";
    /** Bytes of the request body (after compression). */
    readonly requestBytes: number;
  })
  | (RequestEventBase & {
    /** An attempt ended: with a status, or with an error before any status. */
    readonly type: "request-end";
    /** The HTTP status; absent when no response came. */
    readonly status?: number;
    /** Milliseconds from start to the whole body read (or to the failure). */
    readonly durationMs: number;
    /** Bytes of the request body. */
    readonly requestBytes: number;
    /** Bytes of the response body. */
    readonly responseBytes: number;
    /** The error's name and redacted message, when the attempt failed without a response. */
    readonly error?: string;
  })
  | (RequestEventBase & {
    /** The attempt failed and the request will be sent again (`attempt` is the failed one). */
    readonly type: "retry";
    /** Why: `status 503`, or the error's name. */
    readonly reason: string;
  })
  | {
    /** A node failed to answer (connection refused, reset, DNS); the transport may avoid it. */
    readonly type: "node-dead";
    /** The node's base URL. */
    readonly node: string;
    /** The error's name and redacted message. */
    readonly reason: string;
  }
  | {
    /** A node that was dead answered again. */
    readonly type: "node-alive";
    /** The node's base URL. */
    readonly node: string;
  };

/**
 * Receives transport events. It is called synchronously; an exception it throws is ignored.
 *
 * @example
 * ```ts
 * import type { TransportEventListener } from "@searchvisitor/searchvisitor/driver";
 *
 * const log: TransportEventListener = (e) => {
 *   if (e.type === "request-end") console.debug(e.method, e.url, e.status, `${e.durationMs} ms`);
 * };
 * log({ type: "node-alive", node: "http://es:9200" });
 * ```
 */
export type TransportEventListener = (event: TransportEvent) => void;

const BY_ENDPOINT: Readonly<Record<string, string>> = {
  _search: "search",
  _msearch: "msearch",
  _count: "count",
  _bulk: "bulk",
  _mget: "mget",
  _update: "update",
  _create: "create",
  _source: "get_source",
  _delete_by_query: "delete_by_query",
  _update_by_query: "update_by_query",
  _reindex: "reindex",
  _refresh: "indices.refresh",
  _settings: "indices.settings",
  _aliases: "indices.update_aliases",
  _pit: "open_point_in_time",
  _field_caps: "field_caps",
};

/**
 * Names a request the way Elasticsearch's clients name their endpoints (`search`, `index`,
 * `get`, `bulk`, `indices.create`, `cat.indices`, …): the `operation` of an event.
 *
 * @param method The HTTP method sent.
 * @param path The path (a query string is ignored).
 * @returns The endpoint name.
 */
export function operationOf(method: string, path: string): string {
  const segments = path.split("?")[0]!.split("/").filter((s) => s !== "");
  if (segments.length === 0) return method === "HEAD" ? "ping" : "info";
  const first = segments[0]!;
  if (first === "_cat" || first === "_cluster" || first === "_nodes" || first === "_tasks") {
    return `${first.slice(1)}${segments[1] ? `.${segments[1].replace(/^_/, "")}` : ""}`;
  }
  const endpoint = [...segments].reverse().find((s) => s.startsWith("_") && s in BY_ENDPOINT) ??
    segments.find((s) => s.startsWith("_"));
  if (endpoint === "_doc") {
    return { GET: "get", HEAD: "exists", DELETE: "delete" }[method] ?? "index";
  }
  if (endpoint === "_mapping") {
    return method === "GET" ? "indices.get_mapping" : "indices.put_mapping";
  }
  if (endpoint === "_alias") return method === "GET" ? "indices.get_alias" : "indices.put_alias";
  if (endpoint !== undefined) return BY_ENDPOINT[endpoint] ?? endpoint.slice(1);
  if (segments.length === 1) {
    return { PUT: "indices.create", DELETE: "indices.delete", HEAD: "indices.exists" }[method] ??
      "indices.get";
  }
  return method.toLowerCase();
}

/**
 * The error's name and redacted message, short, with every known secret replaced by `***`.
 *
 * @param error What was thrown.
 * @param secrets Header values and credentials that must never show.
 * @returns The text.
 */
export function errorText(error: unknown, secrets: readonly string[] = []): string {
  let text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  for (const secret of secrets) text = text.split(secret).join("***");
  return redact(text).slice(0, 300);
}

/** Calls a listener, ignoring what it throws: an observer never breaks a request. */
export function emitTo(listener: TransportEventListener | undefined, event: TransportEvent): void {
  if (listener === undefined) return;
  try {
    listener(event);
  } catch {
    // an observer's failure is its own
  }
}

/** UTF-8 bytes of a body, counted without copying it. */
export function byteLength(body: string | Uint8Array | undefined): number {
  if (body === undefined) return 0;
  return typeof body === "string" ? utf8Length(body) : body.byteLength;
}

/** The request an {@linkcode AttemptEvents} observes. */
export interface ObservedRequest {
  /** The request's number (per transport). */
  requestId: number;
  /** The method sent. */
  method: string;
  /** The path and query. */
  path: string;
  /** The body sent (after compression). */
  body: BodyInit | undefined;
}

/**
 * The events of one logical request's attempts, for the transport: it calls `start`, `end` and
 * `retry` at those points and this class fills in the rest (timing, bytes, node dead/alive).
 */
export class AttemptEvents {
  readonly #listener: TransportEventListener;
  readonly #requestId: number;
  readonly #method: string;
  readonly #path: string;
  readonly #requestBytes: number;
  readonly #secrets: readonly string[];
  #base: RequestEventBase | undefined;
  #started = 0;
  #lastReason = "";

  /**
   * Starts observing one request.
   *
   * @param listener The listener.
   * @param request The request's number, method, path and body.
   * @param secrets Strings to scrub from error texts (the credentials the transport sends).
   */
  constructor(
    listener: TransportEventListener,
    request: ObservedRequest,
    secrets: readonly string[],
  ) {
    this.#listener = listener;
    this.#requestId = request.requestId;
    this.#method = request.method;
    this.#path = request.path;
    this.#requestBytes = byteLength(request.body as string | Uint8Array | undefined);
    this.#secrets = secrets;
  }

  /** An attempt is sent to `node`. */
  start(node: string, attempt: number): void {
    this.#base = {
      requestId: this.#requestId,
      method: this.#method,
      url: redact(node + this.#path),
      node,
      attempt,
      operation: operationOf(this.#method, this.#path),
    };
    this.#started = performance.now();
    emitTo(this.#listener, {
      type: "request-start",
      ...this.#base,
      requestBytes: this.#requestBytes,
    });
  }

  /** The attempt ended: with a status (and its body text), or with an error (then maybe no status). */
  end(status: number | undefined, text: string, error: unknown): void {
    const base = this.#base;
    if (base === undefined) return;
    const failure = error === undefined ? undefined : errorText(error, this.#secrets);
    emitTo(this.#listener, {
      type: "request-end",
      ...base,
      ...(status !== undefined ? { status } : {}),
      durationMs: performance.now() - this.#started,
      requestBytes: this.#requestBytes,
      responseBytes: byteLength(text),
      ...(failure !== undefined ? { error: failure } : {}),
    });
    this.#lastReason = failure ?? `status ${status}`;
  }

  /** The transport marked `node` dead after `error`. */
  nodeDead(node: string, error: unknown): void {
    emitTo(this.#listener, { type: "node-dead", node, reason: errorText(error, this.#secrets) });
  }

  /** The transport marked `node` alive again. */
  nodeAlive(node: string): void {
    emitTo(this.#listener, { type: "node-alive", node });
  }

  /** The last attempt will be followed by another. */
  retry(): void {
    if (this.#base) {
      emitTo(this.#listener, { type: "retry", ...this.#base, reason: this.#lastReason });
    }
  }
}
