// Shared low-level helpers of the command tokenizer: character classes, comment skipping,
// positions and positioned errors. Internal: reached only through command_tokenizer.ts.

import { CommandSyntaxError, type SourcePosition } from "../errors.ts";
import { positionOf } from "../input_errors.ts";

/** Character codes used by the scanners. */
export const TAB = 9,
  LF = 10,
  CR = 13,
  SPACE = 32,
  QUOTE = 34,
  HASH = 35,
  STAR = 42,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  SLASH = 47,
  COLON = 58,
  SEMI = 59,
  EQUALS = 61,
  QUESTION = 63,
  LBRACKET = 91,
  BACKSLASH = 92,
  RBRACKET = 93,
  LBRACE = 123,
  RBRACE = 125;

/** Space, tab, CR or LF (and the form feed / BOM, which editors sometimes leave behind). */
export function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB || c === 12 || c === 0xfeff;
}

/** ASCII letter. */
export function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** Characters of an identifier-like word (hint names, literals). */
export function isWordChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === MINUS;
}

/**
 * The accepted methods, upper-case.
 *
 * @example
 * ```ts
 * import { METHODS } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.ok(METHODS.has("POST"));
 * ```
 */
export const METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PUT", "DELETE", "HEAD"]);

/** Reads the run of ASCII letters at `i`. */
export function wordAt(text: string, i: number): string {
  let j = i;
  while (j < text.length && isLetter(text.charCodeAt(j))) j++;
  return text.slice(i, j);
}

/** True when `i` starts a method word followed by a space, tab, line break or the end. */
export function isMethodAt(text: string, i: number): boolean {
  const word = wordAt(text, i);
  if (word.length < 3 || word.length > 6 || !METHODS.has(word.toUpperCase())) return false;
  const next = text.charCodeAt(i + word.length);
  return Number.isNaN(next) || next === SPACE || next === TAB || next === LF || next === CR;
}

/** True when a `//` or `/*` comment starts at `i`. */
export function isCommentAt(text: string, i: number): boolean {
  const d = text.charCodeAt(i + 1);
  return text.charCodeAt(i) === SLASH && (d === SLASH || d === STAR);
}

/** True when only spaces or tabs precede `i` on its line. */
export function isLineStart(text: string, i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const c = text.charCodeAt(j);
    if (c === LF || c === CR) return true;
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/**
 * Positions of increasing offsets in one pass: each call continues counting lines where the
 * previous one stopped, so positions for every command and slot cost O(text) in total.
 */
export class PositionCursor {
  #text: string;
  #offset = 0;
  #line = 1;
  #lineStart = 0;

  constructor(text: string) {
    this.#text = text;
  }

  /** Line and column of `offset`; offsets must not decrease between calls. */
  at(offset: number): SourcePosition {
    if (offset < this.#offset) return positionOf(this.#text, offset);
    let j = this.#text.indexOf("\n", this.#offset);
    while (j !== -1 && j < offset) {
      this.#line++;
      this.#lineStart = j + 1;
      j = this.#text.indexOf("\n", j + 1);
    }
    this.#offset = offset;
    return { line: this.#line, column: offset - this.#lineStart + 1 };
  }
}

/** Throws a {@linkcode CommandSyntaxError} at `offset`. */
export function fail(text: string, offset: number, problem: string): never {
  throw new CommandSyntaxError(problem, text, positionOf(text, offset));
}

/**
 * Skips whitespace and comments (`#` and `//` to the end of the line, `/* … *\/`) from `i`.
 * With `stopAtHint`, a `/*+` is not skipped (it starts a hint). Returns the next offset;
 * `newlineSeen` tells whether a line break was crossed.
 */
export class Trivia {
  /** Whether the last {@linkcode Trivia.skip} crossed a line break. */
  newlineSeen = false;

  skip(text: string, i: number, stopAtHint: boolean): number {
    const n = text.length;
    this.newlineSeen = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === TAB) i++;
      else if (c === LF || c === CR) {
        this.newlineSeen = true;
        i++;
      } else if (c === HASH) i = lineEnd(text, i);
      else if (c === SLASH) {
        const d = text.charCodeAt(i + 1);
        if (d === SLASH) i = lineEnd(text, i);
        else if (d === STAR) {
          if (stopAtHint && text.charCodeAt(i + 2) === PLUS) return i;
          i = blockCommentEnd(text, i);
        } else return i;
      } else if (c === 12 || c === 0xfeff) i++;
      else return i;
    }
    return i;
  }
}

/** Offset of the line break ending the line of `i` (or the text length). */
export function lineEnd(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return i;
    i++;
  }
  return i;
}

/** Offset just after the `*\/` closing the block comment that starts at `i`. */
export function blockCommentEnd(text: string, i: number): number {
  const end = text.indexOf("*/", i + 2);
  if (end === -1) {
    fail(text, i, "unterminated comment: close /* with */");
  }
  return end + 2;
}
