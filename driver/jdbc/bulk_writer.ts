/**
 * A bulk writer: documents or operations in (from an array, an iterable, an async iterable or a
 * web `ReadableStream`), `_bulk` requests out, batched by count, size and time, with at most
 * `concurrency` requests in flight (the producer waits beyond that), per-item 429s retried with
 * backoff, and every other failed item reported with its document and reason.
 *
 * @module
 */

import { DataAccessError } from "../errors.ts";
import { executorOf } from "../wire/_executor.ts";
import { parseJsonBody } from "../wire/_json_body.ts";
import { type BulkOperation, encodeOperation, type Entry } from "./_bulk_lines.ts";
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
  /** How many times an item rejected with 429 is sent again (default 3). */
  retries?: number;
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
 * const stats: BulkStats = { total: 3, successful: 2, failed: 1, retried: 0, requests: 1, bytes: 120 };
 * assert.equal(stats.successful + stats.failed, stats.total);
 * ```
 */
export interface BulkStats {
  /** Items accepted by `add`. */
  total: number;
  /** Items written. */
  successful: number;
  /** Items that failed for good. */
  failed: number;
  /** Retries of 429-rejected items. */
  retried: number;
  /** `_bulk` requests sent. */
  requests: number;
  /** NDJSON bytes sent. */
  bytes: number;
}

/**
 * An item that was not written: the item as given, the operation, the status and the reason.
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
  /** The item's status (429 after the retries ran out). */
  status: number;
  /** The server's error type and reason. */
  error: { type: string; reason: string };
}

/**
 * The final counts and the failures kept.
 *
 * @example
 * ```ts
 * import type { BulkResult } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const result: BulkResult = { total: 1, successful: 1, failed: 0, retried: 0, requests: 1, bytes: 40, failures: [], ms: 3 };
 * assert.equal(result.failures.length, 0);
 * ```
 */
export interface BulkResult<T = unknown> extends BulkStats {
  /** The failures (the first `maxFailures`). */
  failures: BulkFailure<T>[];
  /** Milliseconds from the first `add` to `close`. */
  ms: number;
}

/** Items a bulk writer reads: an array, any iterable, an async iterable or a ReadableStream. */
export type BulkSource<T> = Iterable<T> | AsyncIterable<T> | ReadableStream<T>;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Writes many documents with `_bulk` requests. Add items one by one with `await add(item)` (it
 * waits while `concurrency` requests are in flight) and finish with `await close()`, or hand
 * over a whole source with `await write(source)`. A request that fails as a whole (connection
 * lost, 400) stops the writer: `add` and `close` reject with that error, `stats` keeps the
 * counts; its items are not sent again.
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
 * engine.close();
 * ```
 */
export class BulkWriter<T = unknown> {
  readonly #connection: () => Promise<object>;
  readonly #o:
    & Required<
      Omit<BulkWriterOptions<T>, "index" | "refresh" | "onProgress" | "onFailure" | "signal">
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
  readonly #stats: BulkStats = {
    total: 0,
    successful: 0,
    failed: 0,
    retried: 0,
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
    const entry = encodeOperation(this.#o.operation(item), item, position, this.#o.index);
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
    return { ...this.#stats, failures: [...this.#failures], ms };
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
      }
      const body = batch.map((e) => e.text).join("");
      this.#stats.requests++;
      this.#stats.bytes += batch.reduce((n, e) => n + e.bytes, 0);
      const response = await exec.bulk(body, this.#o.refresh, { signal: this.#o.signal });
      const contentType = response.headers.get("content-type") ?? "";
      const items = bulkItemsOf(parseJsonBody(response.status, response.body, contentType));
      const again: Entry[] = [];
      batch.forEach((entry, i) => {
        const result = items[i];
        if (result === undefined) {
          this.#fail(entry, 0, {
            type: "missing_item",
            reason: "the response has no item for this operation",
          });
        } else if (result.status >= 200 && result.status < 300) this.#stats.successful++;
        else if (result.status === 429 && entry.attempts < this.#o.retries) {
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

  #fail(entry: Entry, status: number, error: { type: string; reason: string } | undefined): void {
    this.#stats.failed++;
    const failure: BulkFailure<T> = {
      item: entry.item as T,
      operation: entry.op,
      status,
      error: error ?? { type: "error", reason: `status ${status}` },
    };
    if (this.#failures.length < this.#o.maxFailures) this.#failures.push(failure);
    this.#o.onFailure?.(failure);
  }
}
