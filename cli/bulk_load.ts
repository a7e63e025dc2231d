/**
 * Streams a large NDJSON file into `_bulk` requests of bounded size, never holding the whole
 * file: either a `_bulk` file (action lines, each followed by its source unless it deletes) or
 * one document per line into a named index.
 *
 * @module
 */

import type { Progress } from "./progress.ts";

/** What one `_bulk` request did. */
export interface BulkReply {
  /** Items the server applied. */
  ok: number;
  /** The reasons of the items it refused (all of them; the loader keeps the first few). */
  failures: string[];
}

/** How {@linkcode bulkLoad} sends and reports. */
export interface BulkLoadOptions {
  /** The index for documents (and for action lines without `_index`). */
  index?: string;
  /** The file's size in bytes, for the bar. */
  totalBytes?: number;
  /** Sends one NDJSON body (ending with `\n`) to `/_bulk` or `/<index>/_bulk`. */
  send(path: string, body: string, signal?: AbortSignal): Promise<BulkReply>;
  /** Called after each request and at the end. */
  onProgress?(progress: Progress): void;
  /** Documents per request (default 2 000). */
  batchDocs?: number;
  /** Body bytes per request (default 4 MiB). */
  batchBytes?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?(): number;
  /** Stops the load between requests. */
  signal?: AbortSignal;
}

/** The outcome of a whole load. */
export interface BulkLoadResult extends Progress {
  /** Up to five refusal reasons, as the server gave them. */
  firstFailures: string[];
}

/** A line of the file that is not what the format needs. */
export class BulkFileError extends Error {
  /** The 1-based line in the file. */
  readonly line: number;

  /**
   * Creates the error.
   *
   * @param line The 1-based line.
   * @param message What is wrong and what to do.
   */
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = "BulkFileError";
    this.line = line;
  }
}

const ACTIONS = new Set(["index", "create", "update", "delete"]);

/**
 * Splits a byte stream into lines (`\n` or `\r\n`), decoding UTF-8 across chunk boundaries.
 *
 * @param chunks The bytes.
 * @yields Each line, with the bytes of the stream read so far.
 */
export async function* lines(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<{ text: string; read: number }> {
  const decoder = new TextDecoder();
  let rest = "";
  let read = 0;
  for await (const chunk of chunks) {
    rest += decoder.decode(chunk, { stream: true });
    read += chunk.byteLength;
    let start = 0;
    let at: number;
    while ((at = rest.indexOf("\n", start)) >= 0) {
      yield { text: rest.slice(start, at).replace(/\r$/, ""), read };
      start = at + 1;
    }
    rest = rest.slice(start);
  }
  rest += decoder.decode();
  if (rest.trim() !== "") yield { text: rest.replace(/\r$/, ""), read };
}

function actionOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const inner = (value as Record<string, unknown>)[keys[0] ?? ""];
  return keys.length === 1 && ACTIONS.has(keys[0]!) && typeof inner === "object" && inner !== null
    ? keys[0]
    : undefined;
}

/**
 * Loads an NDJSON file with `_bulk` requests, one at a time, reporting progress.
 *
 * @param chunks The file's bytes, as they are read.
 * @param options The index, the sender and the progress callback.
 * @returns The totals and the first refusal reasons.
 *
 * @example One document per line into an index
 * ```ts
 * import { bulkLoad } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * const file = new TextEncoder().encode('{"n":1}\n{"n":2}\n{"n":3}\n');
 * const bodies: string[] = [];
 * const result = await bulkLoad([file], {
 *   index: "numbers",
 *   batchDocs: 2,
 *   send: (path, body) => {
 *     bodies.push(`${path} ${body.split("\n").length - 1} lines`);
 *     return Promise.resolve({ ok: body.split("\n").length / 2 | 0, failures: [] });
 *   },
 * });
 * assert.deepEqual(bodies, ["/_bulk 4 lines", "/_bulk 2 lines"]);
 * assert.equal(result.docs, 3);
 * ```
 */
export async function bulkLoad(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: BulkLoadOptions,
): Promise<BulkLoadResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const maxDocs = options.batchDocs ?? 2000;
  const maxBytes = options.batchBytes ?? 4 * 1024 * 1024;
  const progress: BulkLoadResult = {
    docs: 0,
    failed: 0,
    bytes: 0,
    elapsedMs: 0,
    firstFailures: [],
    ...(options.totalBytes !== undefined ? { totalBytes: options.totalBytes } : {}),
  };
  let body: string[] = [];
  let bodyBytes = 0;
  let docs = 0;
  const flush = async () => {
    if (docs === 0) return;
    options.signal?.throwIfAborted();
    const reply = await options.send("/_bulk", body.join(""), options.signal);
    progress.docs += reply.ok;
    progress.failed += reply.failures.length;
    for (const reason of reply.failures) {
      if (progress.firstFailures.length < 5) progress.firstFailures.push(reason);
    }
    body = [];
    bodyBytes = 0;
    docs = 0;
    progress.elapsedMs = now() - started;
    options.onProgress?.({ ...progress });
  };
  const add = (text: string) => {
    body.push(text + "\n");
    bodyBytes += text.length + 1;
  };
  let format: "bulk" | "docs" | undefined;
  let expectSource = false;
  let lineNo = 0;
  const iterable = Symbol.asyncIterator in chunks ? chunks : (async function* () {
    yield* chunks as Iterable<Uint8Array>;
  })();
  for await (let { text, read } of lines(iterable)) {
    lineNo++;
    progress.bytes = read;
    if (text.trim() === "") continue;
    if (expectSource) {
      add(text);
      expectSource = false;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new BulkFileError(
        lineNo,
        `not JSON (${(error as Error).message}); each line must be one JSON object`,
      );
    }
    const action = actionOf(value);
    format ??= action !== undefined ? "bulk" : "docs";
    if (format === "bulk") {
      if (action === undefined) {
        throw new BulkFileError(
          lineNo,
          'expected an action line ({"index": {…}}, create, update or delete)',
        );
      }
      const meta = (value as Record<string, Record<string, unknown>>)[action]!;
      if (meta._index === undefined) {
        if (options.index === undefined) {
          throw new BulkFileError(lineNo, "the action names no _index; give one with --index NAME");
        }
        meta._index = options.index;
        text = JSON.stringify(value);
      }
      add(text);
      expectSource = action !== "delete";
    } else {
      if (options.index === undefined) {
        throw new BulkFileError(
          lineNo,
          "a file of plain documents needs an index: give one with --index NAME",
        );
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new BulkFileError(lineNo, "each line must be a JSON object (a document)");
      }
      add(JSON.stringify({ index: { _index: options.index } }));
      add(text);
    }
    docs++;
    if (!expectSource && (docs >= maxDocs || bodyBytes >= maxBytes)) await flush();
  }
  if (expectSource) {
    throw new BulkFileError(
      lineNo,
      "the file ends after an action line; its source line is missing",
    );
  }
  await flush();
  progress.elapsedMs = now() - started;
  return progress;
}

/**
 * Reads a `_bulk` response body into counts and refusal reasons.
 *
 * @param text The response body.
 * @returns What the request did.
 *
 * @example
 * ```ts
 * import { readBulkReply } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * const reply = readBulkReply(JSON.stringify({ errors: true, items: [
 *   { index: { status: 201 } },
 *   { index: { status: 400, error: { type: "mapper_parsing_exception", reason: "bad n" } } },
 * ] }));
 * assert.deepEqual(reply, { ok: 1, failures: ["mapper_parsing_exception: bad n"] });
 * ```
 */
export function readBulkReply(text: string): BulkReply {
  const parsed = JSON.parse(text) as {
    items?: Record<string, { status?: number; error?: { type?: string; reason?: string } }>[];
  };
  const reply: BulkReply = { ok: 0, failures: [] };
  for (const item of parsed.items ?? []) {
    const result = Object.values(item)[0];
    if (result && (result.status ?? 500) < 300) reply.ok++;
    else {reply.failures.push(
        `${result?.error?.type ?? "error"}: ${result?.error?.reason ?? "no reason given"}`,
      );}
  }
  return reply;
}
