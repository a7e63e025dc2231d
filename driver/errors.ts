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

import { DataAccessError, type ErrorOptions, redact } from "./error_base.ts";

export { DataAccessError, type ErrorCode, type ErrorOptions } from "./error_base.ts";
export {
  BindError,
  CommandSyntaxError,
  InvalidArgumentError,
  type SourcePosition,
} from "./input_errors.ts";
export {
  BulkError,
  type BulkItem,
  type InvalidAnswer,
  InvalidResponseError,
  PartialResultsError,
  RedirectError,
  ResponseError,
  type ServerErrorCause,
  type ShardFailure,
  type ShardFailures,
} from "./response_errors.ts";

/**
 * No node could be reached (after the configured retries). `cause` holds the last network error;
 * `node` is the node that failed last (never with credentials) and `causeCode` the network code
 * read from the cause chain (`ECONNREFUSED`, `ENOTFOUND`, `TLS`, …), both also in the message.
 *
 * @example
 * ```ts
 * import { ConnectionError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new ConnectionError("Could not reach http://127.0.0.1:9 (ECONNREFUSED)", {
 *   node: "http://127.0.0.1:9",
 *   causeCode: "ECONNREFUSED",
 * });
 * assert.equal(error.code, "CONNECTION");
 * assert.equal(error.causeCode, "ECONNREFUSED");
 * ```
 */
export class ConnectionError extends DataAccessError {
  /** The node that failed last, when known. */
  readonly node?: string;
  /** The network error code of the cause, when one could be read. */
  readonly causeCode?: string;

  /**
   * Creates the error.
   *
   * @param message What failed, where, after how many attempts.
   * @param options The command, the cause, the node and the cause's code.
   */
  constructor(
    message: string,
    options: ErrorOptions & { node?: string; causeCode?: string } = {},
  ) {
    super("CONNECTION", message, options);
    if (options.node !== undefined) this.node = redact(options.node);
    if (options.causeCode !== undefined) this.causeCode = options.causeCode;
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
 * A request that is not safe to send twice failed after it may have reached the server (a reset
 * or dropped connection after sending, an attempt timeout, a 502/503/504): whether the server
 * applied it is unknown, so it was not re-sent. `sent` says whether the request left the client
 * (true: it may have been applied — read before writing again); `status` is the gateway status
 * when there was one.
 *
 * @example
 * ```ts
 * import { DataAccessError, OutcomeUnknownError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new OutcomeUnknownError("POST /users/_doc: 502 after sending", { sent: true, status: 502 });
 * assert.ok(error instanceof DataAccessError);
 * assert.equal(error.code, "OUTCOME_UNKNOWN");
 * assert.equal(error.sent, true);
 * assert.equal(error.status, 502);
 * ```
 */
export class OutcomeUnknownError extends DataAccessError {
  /** True when the request left the client (it may have been applied). */
  readonly sent: boolean;
  /** The HTTP status of the failure, when a gateway answered. */
  readonly status?: number;
  /** The node that was asked (never with credentials). */
  readonly node?: string;

  /**
   * Creates the error.
   *
   * @param message What failed, where, and what to do.
   * @param options Whether it was sent, the status, the node, the command and the cause.
   */
  constructor(
    message: string,
    options: ErrorOptions & { sent: boolean; status?: number; node?: string },
  ) {
    super("OUTCOME_UNKNOWN", message, options);
    this.sent = options.sent;
    if (options.status !== undefined) this.status = options.status;
    if (options.node !== undefined) this.node = options.node;
  }
}

/**
 * The response body grew past `maxResponseBytes`; reading stopped there (the body is never
 * buffered whole).
 *
 * @example
 * ```ts
 * import { ResponseTooLargeError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new ResponseTooLargeError(1024, { command: "GET /big/_search" });
 * assert.equal(error.code, "RESPONSE_TOO_LARGE");
 * assert.equal(error.limit, 1024);
 * ```
 */
export class ResponseTooLargeError extends DataAccessError {
  /** The limit in bytes. */
  readonly limit: number;

  /**
   * Creates the error.
   *
   * @param limit The limit in bytes.
   * @param options The command and the cause.
   */
  constructor(limit: number, options: ErrorOptions = {}) {
    super(
      "RESPONSE_TOO_LARGE",
      `The response is larger than maxResponseBytes (${limit} bytes); narrow the request ` +
        "(size, _source filtering, paging) or raise maxResponseBytes",
      options,
    );
    this.limit = limit;
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
