// The base of the error classes: codes, options, redaction and DataAccessError.
// Public names reach users through errors.ts and mod.ts.

/** The stable codes of every searchvisitor error. */
export type ErrorCode =
  | "COMMAND_SYNTAX"
  | "BIND"
  | "INVALID_ARGUMENT"
  | "RESPONSE"
  | "CONNECTION"
  | "TIMEOUT"
  | "OUTCOME_UNKNOWN"
  | "INVALID_RESPONSE"
  | "REDIRECT"
  | "RESPONSE_TOO_LARGE"
  | "UNSUPPORTED_FEATURE"
  | "BULK"
  | "INCORRECT_RESULT_SIZE"
  | "ILLEGAL_STATE"
  | "MAPPING"
  | "OPTIMISTIC_LOCK"
  | "PARTIAL_RESULTS";

/** Options shared by every error constructor. */
export interface ErrorOptions {
  /** The error that caused this one. */
  cause?: unknown;
  /** The command text that failed (it is redacted before it is kept). */
  command?: string;
}

// User info runs to the last `@` of the token: a password may hold `#`, `?`, `/` or `@`.
// A secret runs to the next `&` (properties split on `&` only, so `;` may be part of a password).
const SECRET_PARAMS = /([?&;](?:password|pass|pwd|apikey|api_key|token|bearer)=)[^&\s]*/gi;

/**
 * Removes credentials from a URL or a piece of text: user info in URLs (`http://u:p@h`) and
 * secret query parameters (`password=`, `apiKey=`, `token=`) are replaced with `***`.
 *
 * @param text Any text that may contain a URL.
 * @returns The same text with credentials replaced.
 *
 * @example Redact a connection URL
 * ```ts
 * import { redact } from "./internal.ts";
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
  return redactUserInfo(text).replace(SECRET_PARAMS, "$1***");
}

const SCHEME_CHAR = /[a-z0-9+.-]/i;
const SPACE = /\s/;

/**
 * Replaces the user info of every `scheme://user:pass@` in a text with `***`: from `://` to the
 * last `@` of the run of non-space characters. One pass (a regular expression with a leading
 * scheme run backtracks quadratically over a long `a.a.a…` text): after each `://`, the search
 * goes on past the end of its run.
 */
function redactUserInfo(text: string): string {
  let out = "";
  let from = 0;
  for (let at = text.indexOf("://"); at >= 0; at = text.indexOf("://", at)) {
    const scheme = at > 0 && SCHEME_CHAR.test(text[at - 1]!);
    let end = at + 3;
    while (end < text.length && !SPACE.test(text[end]!)) end++;
    const sign = text.lastIndexOf("@", end - 1);
    if (scheme && sign >= at + 3) {
      out += text.slice(from, at + 3) + "***";
      from = sign;
    }
    at = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Defines a non-enumerable property, so it stays out of `JSON.stringify` and logs. */
export function hide(target: object, key: string, value: unknown): void {
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
