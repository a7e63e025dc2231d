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

import { DataAccessError, type ErrorOptions } from "./_error_base.ts";

export { DataAccessError, type ErrorCode, type ErrorOptions, redact } from "./_error_base.ts";
export { BindError, CommandSyntaxError, makeExcerpt, type SourcePosition } from "./input_errors.ts";
export {
  BulkError,
  type BulkItem,
  ResponseError,
  type ServerErrorCause,
} from "./response_errors.ts";

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
