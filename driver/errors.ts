/**
 * The error classes of searchvisitor.
 *
 * Failures a caller handles extend {@linkcode DataAccessError} and carry a stable `code`.
 * Problems in the command text extend the built-in `SyntaxError` ({@linkcode CommandSyntaxError});
 * bad arguments extend `TypeError` ({@linkcode BindError}). Every class keeps the redacted command
 * as a non-enumerable `command` property, so it never shows up in `JSON.stringify` or logs of the
 * error object, and never contains credentials.
 *
 * @module
 */

/** The stable codes of every searchvisitor error. */
export type ErrorCode =
  | "COMMAND_SYNTAX"
  | "BIND"
  | "RESPONSE"
  | "CONNECTION"
  | "TIMEOUT"
  | "UNSUPPORTED_FEATURE"
  | "BULK"
  | "INCORRECT_RESULT_SIZE"
  | "ILLEGAL_STATE"
  | "MAPPING";

/** Options shared by every error constructor. */
export interface ErrorOptions {
  /** The error that caused this one. */
  cause?: unknown;
  /** The command text that failed (it is redacted before it is kept). */
  command?: string;
}

const CREDENTIALS_IN_URL = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s;?#]*@/gi;
const SECRET_PARAMS = /([?&;](?:password|pass|pwd|apikey|api_key|token|bearer)=)[^&;\s#]*/gi;

/**
 * Removes credentials from a URL or a piece of text: user info in URLs (`http://u:p@h`) and
 * secret query parameters (`password=`, `apiKey=`, `token=`) are replaced with `***`.
 *
 * @param text Any text that may contain a URL.
 * @returns The same text with credentials replaced.
 *
 * @example Redact a connection URL
 * ```ts
 * import { redact } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   redact("jdbc:dbvisitor:elastic://h:9200?user=u&password=s3cret"),
 *   "jdbc:dbvisitor:elastic://h:9200?user=u&password=***",
 * );
 * assert.equal(redact("http://u:p@localhost:9200/"), "http://***@localhost:9200/");
 * ```
 */
export function redact(text: string): string {
  return text.replace(CREDENTIALS_IN_URL, "$1***@").replace(SECRET_PARAMS, "$1***");
}

function hide(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: false,
    writable: true,
    configurable: true,
  });
}

/**
 * The base of every failure a caller may want to handle: it has a stable `code`, keeps the
 * `cause`, and keeps the redacted command as a hidden property.
 *
 * @example Catch any searchvisitor failure
 * ```ts
 * import { DataAccessError, TimeoutError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error: unknown = new TimeoutError("request timed out after 10 ms", { command: "GET /" });
 * assert.ok(error instanceof DataAccessError);
 * assert.equal(error.code, "TIMEOUT");
 * assert.equal(error.command, "GET /");
 * ```
 */
export class DataAccessError extends Error {
  /** A stable, machine-readable code. */
  readonly code: ErrorCode;
  /** The redacted command that failed, when there was one (not enumerable). */
  declare readonly command?: string;

  /**
   * Creates the error.
   *
   * @param code The stable code.
   * @param message What happened and what to do.
   * @param options The cause and the command.
   */
  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(redact(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    hide(this, "command", options.command === undefined ? undefined : redact(options.command));
  }
}

/** Where a problem sits in a command text. */
export interface SourcePosition {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/**
 * The command text is not valid: it says where (1-based line and column), shows the line with a
 * caret, and says what to do.
 *
 * @example
 * ```ts
 * import { CommandSyntaxError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const text = "GET /idx/_doc/?";
 * const error = new CommandSyntaxError("use {?} for a value in a path", text, { line: 1, column: 15 });
 * assert.equal(error.code, "COMMAND_SYNTAX");
 * assert.equal(error.line, 1);
 * assert.match(error.message, /line 1, column 15/);
 * assert.match(error.excerpt, /\^/);
 * ```
 */
export class CommandSyntaxError extends SyntaxError {
  /** Always `"COMMAND_SYNTAX"`. */
  readonly code: ErrorCode = "COMMAND_SYNTAX";
  /** 1-based line of the problem. */
  readonly line: number;
  /** 1-based column of the problem. */
  readonly column: number;
  /** The offending line and a caret under the column. */
  readonly excerpt: string;
  /** The redacted command text (not enumerable). */
  declare readonly command?: string;

  /**
   * Creates the error.
   *
   * @param problem What is wrong and what to do, without the position.
   * @param text The whole command text.
   * @param at Where the problem is.
   * @param options The cause.
   */
  constructor(problem: string, text: string, at: SourcePosition, options: ErrorOptions = {}) {
    const excerpt = makeExcerpt(text, at);
    super(
      `${problem} (line ${at.line}, column ${at.column})\n${excerpt}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "CommandSyntaxError";
    this.line = at.line;
    this.column = at.column;
    this.excerpt = excerpt;
    hide(this, "command", redact(text));
  }
}

/**
 * Shows one line of `text` with a caret under `at.column`; long lines are cut around the column.
 *
 * @param text The whole text.
 * @param at The 1-based position.
 * @returns Two lines: the source line and the caret line.
 *
 * @example
 * ```ts
 * import { makeExcerpt } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * assert.equal(makeExcerpt("GET /\nPUT x {", { line: 2, column: 7 }), "PUT x {\n      ^");
 * ```
 */
export function makeExcerpt(text: string, at: SourcePosition): string {
  const line = text.split(/\r?\n|\r/)[at.line - 1] ?? "";
  const width = 80;
  let start = 0;
  if (at.column > width - 10) start = at.column - (width - 10);
  const shown = redact(line.slice(start, start + width));
  const caret = " ".repeat(Math.max(0, at.column - 1 - start)) + "^";
  return `${start > 0 ? "…" : ""}${shown}\n${start > 0 ? " " : ""}${caret}`;
}

/**
 * An argument cannot be bound: wrong count, `undefined`, `NaN`, a function, a circular object,
 * a missing named argument, an unsafe identifier. It names the argument (1-based index or name).
 *
 * @example
 * ```ts
 * import { BindError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new BindError('Cannot bind argument 3: value is undefined; pass null for a JSON null', { index: 3 });
 * assert.ok(error instanceof TypeError);
 * assert.equal(error.index, 3);
 * assert.equal(error.code, "BIND");
 * ```
 */
export class BindError extends TypeError {
  /** Always `"BIND"`. */
  readonly code: ErrorCode = "BIND";
  /** The 1-based index of the argument, when the argument is positional. */
  readonly index?: number;
  /** The name of the argument, when it is named. */
  readonly argumentName?: string;
  /** The redacted command text (not enumerable). */
  declare readonly command?: string;

  /**
   * Creates the error.
   *
   * @param message What is wrong with which argument, and what to do.
   * @param options The argument's index or name, the command, the cause.
   */
  constructor(
    message: string,
    options: ErrorOptions & { index?: number; name?: string } = {},
  ) {
    super(redact(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "BindError";
    if (options.index !== undefined) this.index = options.index;
    if (options.name !== undefined) this.argumentName = options.name;
    hide(this, "command", options.command === undefined ? undefined : redact(options.command));
  }
}

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
   * Creates the error.
   *
   * @param status The HTTP status.
   * @param body The parsed JSON body, or the raw text.
   * @param options The command and the cause.
   */
  constructor(status: number, body: unknown, options: ErrorOptions = {}) {
    const parts = describeErrorBody(status, body);
    super("RESPONSE", parts.message, options);
    this.status = status;
    this.body = body;
    this.rootCause = parts.rootCause;
    if (parts.type !== undefined) this.type = parts.type;
    if (parts.reason !== undefined) this.reason = parts.reason;
    if (parts.causedBy !== undefined) this.causedBy = parts.causedBy;
  }

  /**
   * Builds the error from the raw response text: JSON when it parses, else kept as text.
   *
   * @param status The HTTP status.
   * @param text The raw response body.
   * @param options The command and the cause.
   * @returns The error.
   */
  static fromBody(status: number, text: string, options: ErrorOptions = {}): ResponseError {
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
 * No node could be reached (after the configured retries). `cause` holds the last network error.
 *
 * @example
 * ```ts
 * import { ConnectionError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new ConnectionError("no node answered after 3 attempts: http://127.0.0.1:9");
 * assert.equal(error.code, "CONNECTION");
 * ```
 */
export class ConnectionError extends DataAccessError {
  /**
   * Creates the error.
   *
   * @param message What failed, where, after how many attempts.
   * @param options The command and the cause.
   */
  constructor(message: string, options: ErrorOptions = {}) {
    super("CONNECTION", message, options);
  }
}

/**
 * The request took longer than `timeoutMs`, or the caller's `AbortSignal` fired.
 *
 * @example
 * ```ts
 * import { TimeoutError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new TimeoutError("timed out after 30000 ms").code, "TIMEOUT");
 * ```
 */
export class TimeoutError extends DataAccessError {
  /**
   * Creates the error.
   *
   * @param message What timed out, after how long.
   * @param options The command and the cause.
   */
  constructor(message: string, options: ErrorOptions = {}) {
    super("TIMEOUT", message, options);
  }
}

/**
 * The feature exists in JDBC but not on a search engine (stored procedures, transactions).
 *
 * @example
 * ```ts
 * import { UnsupportedFeatureError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new UnsupportedFeatureError("prepareCall").code, "UNSUPPORTED_FEATURE");
 * ```
 */
export class UnsupportedFeatureError extends DataAccessError {
  /**
   * Creates the error.
   *
   * @param feature The feature that is not supported, and what to use instead.
   * @param options The command and the cause.
   */
  constructor(feature: string, options: ErrorOptions = {}) {
    super("UNSUPPORTED_FEATURE", `Not supported: ${feature}`, options);
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

/**
 * A query expected a number of rows and got another (e.g. `queryForObject` got 2 rows).
 *
 * @example
 * ```ts
 * import { IncorrectResultSizeError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new IncorrectResultSizeError(1, 2);
 * assert.equal(error.expected, 1);
 * assert.equal(error.actual, 2);
 * ```
 */
export class IncorrectResultSizeError extends DataAccessError {
  /** How many rows were expected (at most). */
  readonly expected: number;
  /** How many rows came. */
  readonly actual: number;

  /**
   * Creates the error.
   *
   * @param expected The expected row count.
   * @param actual The row count that came.
   * @param options The command and the cause.
   */
  constructor(expected: number, actual: number, options: ErrorOptions = {}) {
    super(
      "INCORRECT_RESULT_SIZE",
      `Incorrect result size: expected at most ${expected} row(s), got ${actual}`,
      options,
    );
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * An object is used in a state that does not allow the call (closed connection, `executeQuery` on
 * a command that returns an update count, reading a result set before `next()`).
 *
 * @example
 * ```ts
 * import { IllegalStateError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new IllegalStateError("connection is closed").code, "ILLEGAL_STATE");
 * ```
 */
export class IllegalStateError extends DataAccessError {
  /**
   * Creates the error.
   *
   * @param message What state forbids the call, and what to do.
   * @param options The command and the cause.
   */
  constructor(message: string, options: ErrorOptions = {}) {
    super("ILLEGAL_STATE", message, options);
  }
}
