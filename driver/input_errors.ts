/**
 * Errors about what the caller wrote: a command text that does not parse
 * ({@linkcode CommandSyntaxError}, a `SyntaxError`) and arguments that cannot be bound
 * ({@linkcode BindError}, a `TypeError`).
 *
 * @module
 */

import { type ErrorCode, type ErrorOptions, hide, redact } from "./error_base.ts";

/** Where a problem sits in a command text. */
export interface SourcePosition {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/**
 * The line starts of a text (lines end at `\n`), for many positions in one text: the one reading
 * of a position for every syntax error of the command language, the template, the mappers and
 * the checker's diagnostics.
 *
 * @example
 * ```ts
 * import { LineIndex } from "./internal.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = new LineIndex("GET /\nPUT x {\n}");
 * assert.deepEqual(lines.positionOf(10), { line: 2, column: 5 });
 * assert.deepEqual(lines.positionOf(0), { line: 1, column: 1 });
 * assert.equal(lines.offsetOf(3, 1), 14);
 * ```
 */
export class LineIndex {
  readonly #starts: number[] = [0];

  /**
   * Reads the line starts of `text`, up to `end` (the text's length by default): positions at
   * or before `end` are then right.
   */
  constructor(text: string, end: number = text.length) {
    for (let j = text.indexOf("\n"); j !== -1 && j < end; j = text.indexOf("\n", j + 1)) {
      this.#starts.push(j + 1);
    }
  }

  /** The 1-based line and column of a UTF-16 offset (0-based). */
  positionOf(offset: number): SourcePosition {
    const starts = this.#starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }

  /** The UTF-16 offset (0-based) of a 1-based line and column. */
  offsetOf(line: number, column: number): number {
    return (this.#starts[line - 1] ?? 0) + column - 1;
  }
}

/**
 * The 1-based line and column of a UTF-16 offset in a text (lines end at `\n`): one position
 * through {@linkcode LineIndex}, reading the text only up to the offset.
 *
 * @param text The whole text.
 * @param offset The UTF-16 offset (0-based).
 * @returns Its line and column.
 *
 * @example
 * ```ts
 * import { positionOf } from "./internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(positionOf("GET /\nPUT x {", 10), { line: 2, column: 5 });
 * assert.deepEqual(positionOf("GET /", 0), { line: 1, column: 1 });
 * ```
 */
export function positionOf(text: string, offset: number): SourcePosition {
  return new LineIndex(text, offset).positionOf(offset);
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
 * import { makeExcerpt } from "./internal.ts";
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

/**
 * A bound value would address another resource than the command names: a path value that is
 * `.`, `..`, empty or their percent-encoded forms (URL normalisation would climb out of its
 * segment), or a value bound as an index name that widens the target (`*`, `?`, `,`, `:`, `<`,
 * `_all` or another leading `_`, a leading `-` or `+`) without the caller opting in. It names the
 * argument (1-based index or name) and says why.
 *
 * @example
 * ```ts
 * import { BindError, InvalidArgumentError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new InvalidArgumentError("Cannot bind argument 1: .. would climb out of its path segment", { index: 1 });
 * assert.ok(error instanceof BindError);
 * assert.equal(error.code, "INVALID_ARGUMENT");
 * assert.equal(error.index, 1);
 * ```
 */
export class InvalidArgumentError extends BindError {
  /** Always `"INVALID_ARGUMENT"`. */
  override readonly code: ErrorCode = "INVALID_ARGUMENT";

  /**
   * Creates the error.
   *
   * @param message Which argument, what is wrong with it and what to do.
   * @param options The argument's index or name, the command, the cause.
   */
  constructor(
    message: string,
    options: ErrorOptions & { index?: number; name?: string } = {},
  ) {
    super(message, options);
    this.name = "InvalidArgumentError";
  }
}
