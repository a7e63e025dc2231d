/**
 * A bulk writer: documents or operations in (from an array, an iterable, an async iterable or a
 * web `ReadableStream`), `_bulk` requests out, batched by count, size and time, with at most
 * `concurrency` requests in flight (the producer waits beyond that), per-item 429s and 503s
 * retried with backoff, items of a request whose outcome is unknown re-sent where that is
 * idempotent, and every other failed item reported with its document and reason: each item ends
 * exactly once, written or reported.
 *
 * @module
 */

import { ConnectionError, DataAccessError, OutcomeUnknownError, TimeoutError } from "../errors.ts";
import { InvalidResponseError, ResponseError } from "../response_errors.ts";
import { executorOf } from "../wire/_executor.ts";
import { parseJsonBody } from "../wire/_json_body.ts";
import { isIdempotentBulkItem, isRetriedItemStatus } from "../wire/retry_policy.ts";
import {
  type BulkOperation,
  encodeOperation,
  type Entry,
  type OperationDefaults,
} from "./_bulk_lines.ts";
import { DocumentIds } from "./_doc_ids.ts";
import { bulkItemsOf } from "../wire/_bulk_items.ts";

export type { BulkOperation } from "./_bulk_lines.ts";

/**
 * How a {@linkcode BulkWriter} batches, sends and retries.
 *
 * @example
 * ```ts
 * import type { BulkWriterOptions } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const options: BulkWriterOptions = { index: "cities", flushDocs: 5_000, concurrency: 2 };
 * assert.equal(options.concurrency, 2);
 * ```
 */
export interface BulkWriterOptions<T = unknown> {
  /** The `_index` of operations that name none. */
  index?: string;
  /** Turns an item into an operation (default: the item is the document of an `index`). */
  operation?: (item: T) => BulkOperation;
  /** Send a request once this many operations are waiting (default 1000). */
  flushDocs?: number;
  /** … or once they take this many bytes of NDJSON (default 5 MB). */
  flushBytes?: number;
  /** … or this many milliseconds after the first one arrived (default 1000; 0: never by time). */
  flushIntervalMs?: number;
  /** Requests in flight at most; `add` waits beyond (default 2). */
  concurrency?: number;
  /**
   * How many times an item is sent again (default 3): after a 429 or 503 of its own, after its
   * request's outcome was unknown (when the item is idempotent), or after no node could be
   * reached.
   */
  retries?: number;
  /**
   * Give `index` and `create` operations that name no id an id made by the writer (default
   * true): 20 URL-safe characters, like the engines' own. With it such items can be sent again
   * when a request's outcome is unknown; the ids come back in {@linkcode BulkResult.generatedIds}.
   * With `false` the server makes the ids, and such items are reported as outcome unknown
   * instead of being re-sent.
   */
  generateIds?: boolean;
  /** The first backoff before a retry in milliseconds, doubled each time, with jitter (default 200). */
  retryDelayMs?: number;
  /** `refresh` of each request (`"true"`, `"wait_for"`), or none. */
  refresh?: "true" | "false" | "wait_for";
  /** Called after each request with the counts so far. */
  onProgress?: (stats: BulkStats) => void;
  /** Called with each failed item (beyond the first `maxFailures` kept in the result). */
  onFailure?: (failure: BulkFailure<T>) => void;
  /** How many failures the result keeps (default 1000); all are counted. */
  maxFailures?: number;
  /** Stops the writer: the pending request fails and `add`/`close` reject. */
  signal?: AbortSignal;
}

/**
 * Counts of a bulk writer so far.
 *
 * @example
 * ```ts
 * import type { BulkStats } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const stats: BulkStats = {
 *   total: 3, successful: 2, failed: 1, outcomeUnknown: 0, retried: 0, resent: 0, requests: 1, bytes: 120,
 * };
 * assert.equal(stats.successful + stats.failed, stats.total);
 * ```
 */
export interface BulkStats {
  /** Items accepted by `add`. */
  total: number;
  /** Items written (once each, re-sends included). */
  successful: number;
  /** Items that failed for good and were reported (`outcomeUnknown` among them). */
  failed: number;
  /** Failed items whose outcome is unknown: they may or may not have been written. */
  outcomeUnknown: number;
  /** Items sent again after a 429 or 503 of their own, or after no node could be reached. */
  retried: number;
  /** Items sent again because their request's outcome was unknown (idempotent items only). */
  resent: number;
  /** `_bulk` requests sent. */
  requests: number;
  /** NDJSON bytes sent. */
  bytes: number;
}

/**
 * An item that was not written, or whose outcome is unknown (`outcomeUnknown`: its request may
 * have been applied, and sending it again could have written it twice): the item as given, the
 * operation (with the id the writer generated, if any), the status and the reason.
 *
 * @example
 * ```ts
 * import type { BulkFailure } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const failure: BulkFailure = {
 *   item: { age: "x" }, operation: { doc: { age: "x" } }, status: 400,
 *   error: { type: "document_parsing_exception", reason: "failed to parse field [age]" },
 * };
 * assert.equal(failure.status, 400);
 * ```
 */
export interface BulkFailure<T = unknown> {
  /** The item as it was added. */
  item: T;
  /** The operation it became. */
  operation: BulkOperation;
  /** The item's status (429 or 503 after the retries ran out; 0 when the item had no answer). */
  status: number;
  /** The server's error type and reason (`outcome_unknown`, `connection_error`, … without one). */
  error: { type: string; reason: string };
  /**
   * True when the item's request may have been applied and the item was not sent again (it is
   * not idempotent, or its retries ran out): read the data to learn whether it was written.
   */
  outcomeUnknown?: boolean;
}

/**
 * The final counts and the failures kept.
 *
 * @example
 * ```ts
 * import type { BulkResult } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const result: BulkResult = {
 *   total: 1, successful: 1, failed: 0, outcomeUnknown: 0, retried: 0, resent: 0, requests: 1,
 *   bytes: 40, failures: [], generatedIds: ["AZrV1mZ0ha5GcCqT3DxR"], ms: 3,
 * };
 * assert.equal(result.failures.length, 0);
 * ```
 */
export interface BulkResult<T = unknown> extends BulkStats {
  /** The failures (the first `maxFailures`). */
  failures: BulkFailure<T>[];
  /**
   * The ids the writer generated, by the item's position in the input (`generatedIds[i]` is the
   * id of the i-th item added); `undefined` where the item had its own id, was an update or a
   * delete, or `generateIds` is off — like a statement's generated keys.
   */
  generatedIds: (string | undefined)[];
  /** Milliseconds from the first `add` to `close`. */
  ms: number;
}

/** Items a bulk writer reads: an array, any iterable, an async iterable or a ReadableStream. */
export type BulkSource<T> = Iterable<T> | AsyncIterable<T> | ReadableStream<T>;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Writes many documents with `_bulk` requests. Add items one by one with `await add(item)` (it
 * waits while `concurrency` requests are in flight) and finish with `await close()`, or hand
 * over a whole source with `await write(source)`.
 *
 * Every item ends exactly once: written (counted in `successful`) or reported (in `failures`,
 * `onFailure`, counted in `failed`). Items answered 429 or 503 are sent again with backoff. When a
 * request fails as a whole the load goes on (the transport sends later requests to the nodes
 * still alive):
 * - its outcome is unknown (the connection broke after sending, a gateway's 502/503/504, a
 *   timeout, an unreadable answer): the items that are idempotent are sent again — an `index`
 *   with an id, a `create` with an id the writer generated (a 409 then means the first one
 *   landed: it counts once, as written) — and the others are reported with
 *   `outcomeUnknown: true` (a `create` with the caller's id, `if_seq_no` writes, updates,
 *   deletes, and documents without id when `generateIds` is off);
 * - no node could be reached (nothing was sent): every item is sent again, within `retries`;
 * - the server refused it (a 400, a 413): every item is reported with that status.
 * Only the `signal` and errors of the writer's own input stop it.
 *
 * @example Load documents and read the counts
 * ```ts
 * import { BulkWriter, DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * await using conn = await new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }).getConnection();
 * await conn.createStatement().executeUpdate('PUT /nums {"mappings": {"properties": {"n": {"type": "integer"}}}}');
 * const docs = Array.from({ length: 250 }, (_, i) => ({ n: i === 7 ? "seven" : i }));
 * const writer = new BulkWriter(conn, { index: "nums", flushDocs: 100 });
 * const result = await writer.write(docs);
 * assert.deepEqual([result.total, result.successful, result.failed, result.requests], [250, 249, 1, 3]);
 * assert.deepEqual(result.failures[0]!.item, { n: "seven" });
 * assert.equal(result.failures[0]!.error.type, "document_parsing_exception");
 * assert.match(result.generatedIds[0]!, /^[A-Za-z0-9_-]{20}$/);
 * engine.close();
 * ```
 *
 * @example A request whose outcome is unknown: idempotent items are sent again, others reported
 * ```ts
 * import { BulkWriter, DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * let bulks = 0;
 * // The first _bulk is applied, then its answer is lost (as when a node dies after applying it).
 * const fetch = async (url: string, init: RequestInit) => {
 *   const res = await engine.fetch(url, init);
 *   if (url.includes("_bulk") && bulks++ === 0) throw new TypeError("connection reset (os error 104)");
 *   return res;
 * };
 * await using conn = await new DataSource({ nodes: ["http://engine"], fetch }).getConnection();
 * const writer = new BulkWriter<{ id?: string; n: number }>(conn, {
 *   index: "nums", refresh: "true", retryDelayMs: 1,
 *   operation: (d) => d.id ? { action: "create", id: d.id, doc: { n: d.n } } : { doc: { n: d.n } },
 * });
 * const result = await writer.write([{ n: 1 }, { id: "mine", n: 2 }, { n: 3 }]);
 * assert.deepEqual([result.successful, result.failed, result.outcomeUnknown, result.resent], [2, 1, 1, 2]);
 * assert.equal(result.failures[0]!.outcomeUnknown, true);
 * assert.deepEqual(result.failures[0]!.item, { id: "mine", n: 2 });
 * const count = await conn.createStatement().executeQuery("POST /nums/_count");
 * count.next();
 * assert.equal(count.getInt("COUNT"), 3); // written once each: no duplicates
 * engine.close();
 * ```
 */
export class BulkWriter<T = unknown> {
  readonly #connection: () => Promise<object>;
  readonly #o:
    & Required<
      Omit<
        BulkWriterOptions<T>,
        "index" | "refresh" | "onProgress" | "onFailure" | "signal" | "generateIds"
      >
    >
    & BulkWriterOptions<T>;
  #buffer: Entry[] = [];
  #bufferBytes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #slots: number;
  readonly #waiting: (() => void)[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  #error: unknown;
  #closed = false;
  #started = 0;
  #position = 0;
  readonly #failures: BulkFailure<T>[] = [];
  /** The index and id source of every operation (one object, not a closure per item). */
  readonly #defaults: OperationDefaults;
  readonly #generatedIds: (string | undefined)[] = [];
  readonly #stats: BulkStats = {
    total: 0,
    successful: 0,
    failed: 0,
    outcomeUnknown: 0,
    retried: 0,
    resent: 0,
    requests: 0,
    bytes: 0,
  };

  /**
   * Creates a writer; nothing is sent before the first batch fills.
   *
   * @param connection The connection to write through, or a function that gives one.
   * @param options Batching, concurrency, retries and callbacks.
   */
  constructor(connection: object | (() => Promise<object>), options: BulkWriterOptions<T> = {}) {
    this.#connection = typeof connection === "function"
      ? connection as () => Promise<object>
      : () => Promise.resolve(connection);
    const positive = (name: string, v: number | undefined, fallback: number, min = 1) => {
      const value = v ?? fallback;
      if (!Number.isFinite(value) || value < min) {
        throw new RangeError(`BulkWriter: ${name} must be a number ≥ ${min}, got ${v}`);
      }
      return value;
    };
    this.#o = {
      ...options,
      operation: options.operation ?? ((item: T) => ({ doc: item })),
      flushDocs: positive("flushDocs", options.flushDocs, 1000),
      flushBytes: positive("flushBytes", options.flushBytes, 5_000_000),
      flushIntervalMs: positive("flushIntervalMs", options.flushIntervalMs, 1000, 0),
      concurrency: positive("concurrency", options.concurrency, 2),
      retries: positive("retries", options.retries, 3, 0),
      retryDelayMs: positive("retryDelayMs", options.retryDelayMs, 200, 0),
      maxFailures: positive("maxFailures", options.maxFailures, 1000, 0),
    };
    this.#slots = this.#o.concurrency;
    const ids = options.generateIds === false ? undefined : new DocumentIds();
    this.#defaults = { index: options.index, newId: ids && (() => ids.next()) };
  }

  /** The counts so far. */
  get stats(): BulkStats {
    return { ...this.#stats };
  }

  /**
   * Adds one item; resolves once it is buffered (waiting while `concurrency` requests are in
   * flight and the buffer is full).
   *
   * @param item A document, or whatever the `operation` option turns into an operation.
   */
  async add(item: T): Promise<void> {
    this.#check();
    if (this.#started === 0) this.#started = performance.now();
    const position = this.#position++;
    const entry = encodeOperation(this.#o.operation(item), item, position, this.#defaults);
    this.#generatedIds.push(entry.generated ? entry.op.id : undefined);
    this.#stats.total++;
    this.#buffer.push(entry);
    this.#bufferBytes += entry.bytes;
    if (this.#buffer.length >= this.#o.flushDocs || this.#bufferBytes >= this.#o.flushBytes) {
      await this.flush();
    } else if (this.#timer === undefined && this.#o.flushIntervalMs > 0) {
      this.#timer = setTimeout(() => void this.flush().catch(() => {}), this.#o.flushIntervalMs);
    }
  }

  /** Sends what is buffered now (waiting for a free request slot). */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#buffer.length === 0 || this.#error !== undefined) return;
    const batch = this.#buffer;
    this.#buffer = [];
    this.#bufferBytes = 0;
    // The job is tracked from now, while it still waits for a slot, so close() waits for it.
    let started!: () => void;
    const slot = new Promise<void>((resolve) => started = resolve);
    const job: Promise<void> = (async () => {
      await this.#acquire();
      started();
      try {
        if (this.#error === undefined) await this.#send(batch);
      } catch (error) {
        this.#error ??= error;
      } finally {
        this.#release();
      }
    })().finally(() => this.#inFlight.delete(job));
    this.#inFlight.add(job);
    await slot;
    if (this.#error !== undefined) throw this.#error;
  }

  /**
   * Sends the rest, waits for every request and returns the counts and failures.
   *
   * @returns The result.
   */
  async close(): Promise<BulkResult<T>> {
    if (!this.#closed) {
      this.#closed = true;
      if (this.#error === undefined) await this.flush();
    }
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
    if (this.#error !== undefined) throw this.#error;
    const ms = this.#started === 0 ? 0 : performance.now() - this.#started;
    return {
      ...this.#stats,
      failures: [...this.#failures],
      generatedIds: [...this.#generatedIds],
      ms,
    };
  }

  /**
   * Adds every item of a source, then closes the writer.
   *
   * @param source An array, an iterable, an async iterable or a ReadableStream.
   * @returns The result.
   */
  async write(source: BulkSource<T>): Promise<BulkResult<T>> {
    try {
      if (source instanceof ReadableStream) {
        const reader = source.getReader();
        try {
          for (let r = await reader.read(); !r.done; r = await reader.read()) {
            await this.add(r.value);
          }
        } finally {
          reader.releaseLock();
        }
      } else {
        for await (const item of source as AsyncIterable<T>) await this.add(item);
      }
    } catch (error) {
      this.#error ??= error;
    }
    return await this.close();
  }

  #check(): void {
    if (this.#error !== undefined) throw this.#error;
    if (this.#closed) throw new DataAccessError("ILLEGAL_STATE", "The bulk writer is closed");
    this.#o.signal?.throwIfAborted();
  }

  async #acquire(): Promise<void> {
    while (this.#slots === 0) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#slots--;
  }

  #release(): void {
    this.#slots++;
    this.#waiting.shift()?.();
  }

  async #send(batch: Entry[]): Promise<void> {
    const exec = executorOf(await this.#connection());
    for (let attempt = 0; batch.length > 0; attempt++) {
      if (attempt > 0) {
        const base = this.#o.retryDelayMs * 2 ** (attempt - 1);
        await delay(base / 2 + Math.random() * base / 2);
        this.#o.signal?.throwIfAborted();
      }
      const body = batch.map((e) => e.text).join("");
      this.#stats.requests++;
      this.#stats.bytes += batch.reduce((n, e) => n + e.bytes, 0);
      let items;
      try {
        const response = await exec.bulk(body, this.#o.refresh, { signal: this.#o.signal });
        const contentType = response.headers.get("content-type") ?? "";
        items = bulkItemsOf(
          parseJsonBody({ status: response.status, text: response.body, contentType }),
        );
      } catch (error) {
        if (this.#o.signal?.aborted) throw error;
        batch = this.#afterFailedRequest(batch, error);
        this.#o.onProgress?.(this.stats);
        continue;
      }
      const again: Entry[] = [];
      batch.forEach((entry, i) => {
        const result = items[i];
        if (result === undefined) {
          this.#fail(entry, 0, {
            type: "missing_item",
            reason: "the response has no item for this operation",
          });
        } else if (result.status >= 200 && result.status < 300) this.#stats.successful++;
        else if (result.status === 409 && entry.generated && entry.op.action === "create") {
          // Nobody else knows an id the writer made: this create landed on an earlier send.
          this.#stats.successful++;
        } else if (isRetriedItemStatus(result.status) && entry.attempts < this.#o.retries) {
          entry.attempts++;
          this.#stats.retried++;
          again.push(entry);
        } else {
          const e = result.error;
          this.#fail(
            entry,
            result.status,
            e && { type: String(e.type ?? "error"), reason: String(e.reason ?? "") },
          );
        }
      });
      batch = again;
      this.#o.onProgress?.(this.stats);
    }
  }

  /** Settles the items of a request that failed as a whole; returns those to send again. */
  #afterFailedRequest(batch: Entry[], error: unknown): Entry[] {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ConnectionError) {
      // Nothing reached a server: every item may go again.
      return batch.filter((entry) => {
        if (entry.attempts < this.#o.retries) {
          entry.attempts++;
          this.#stats.retried++;
          return true;
        }
        this.#fail(entry, 0, { type: "connection_error", reason: message });
        return false;
      });
    }
    const status = error instanceof ResponseError ? error.status : 0;
    const unknown = error instanceof OutcomeUnknownError || error instanceof TimeoutError ||
      error instanceof InvalidResponseError || status === 502 || status === 503 || status === 504;
    if (!unknown) {
      // The server refused the request as a whole (400, 413, …): nothing of it was applied.
      if (!(error instanceof ResponseError)) throw error;
      const reported = { type: error.type ?? error.code.toLowerCase(), reason: message };
      for (const entry of batch) this.#fail(entry, status, reported);
      return [];
    }
    return batch.filter((entry) => {
      const op = entry.op;
      const idempotent = isIdempotentBulkItem(op.action ?? "index", {
        id: op.id,
        generated: entry.generated,
        conditional: op.ifSeqNo !== undefined || op.ifPrimaryTerm !== undefined,
      });
      if (idempotent && entry.attempts < this.#o.retries) {
        entry.attempts++;
        this.#stats.resent++;
        return true;
      }
      this.#stats.outcomeUnknown++;
      this.#fail(entry, status, {
        type: "outcome_unknown",
        reason: `${
          idempotent ? "sent again " + entry.attempts + " time(s), still" : "not idempotent, so not"
        } re-sent after its request's outcome was unknown: ${message}`,
      }, true);
      return false;
    });
  }

  #fail(
    entry: Entry,
    status: number,
    error: { type: string; reason: string } | undefined,
    outcomeUnknown = false,
  ): void {
    this.#stats.failed++;
    const failure: BulkFailure<T> = {
      item: entry.item as T,
      operation: entry.op,
      status,
      error: error ?? { type: "error", reason: `status ${status}` },
    };
    if (outcomeUnknown) failure.outcomeUnknown = true;
    if (this.#failures.length < this.#o.maxFailures) this.#failures.push(failure);
    this.#o.onFailure?.(failure);
  }
}
