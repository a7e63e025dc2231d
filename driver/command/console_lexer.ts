/**
 * The one reading of console text. Every room that reads command text — the driver's tokenizer,
 * the template's scanner and rule parser, the mapper files' placeholders, the dangling-comma
 * clean-up, the hints' body rewrite and the checker — reads it through this module: its character
 * classes (one style: `charCodeAt` against the named codes below), the ends of strings (JSON,
 * Kibana's `"""…"""`, a rule's `'…'`), comments and placeholders, and a token cursor
 * ({@linkcode ConsoleLexer}) whose tokens are those pieces plus the JSON structure (`{ } [ ] , :`),
 * slots (`?`, `{?}`), hints (`/*+ … *\/`), named placeholders (`#{…}`), splices (`${…}`), rule
 * calls (`@{…}`) and their escapes (`\#{`). Rooms consume and edit tokens instead of scanning.
 *
 * What the driver refuses on purpose is decided by its tokenizer, not here: the lexer reads a
 * trailing comma or a `#` in a request target like any other token.
 *
 * @module
 */

import { CommandSyntaxError, type SourcePosition } from "../errors.ts";
import { positionOf } from "../input_errors.ts";
import { isNdjsonPath } from "./_ndjson_endpoints.ts";

/** Character codes of console text, the one way the readers test characters. */
export const TAB = 9,
  LF = 10,
  FF = 12,
  CR = 13,
  SPACE = 32,
  QUOTE = 34,
  HASH = 35,
  DOLLAR = 36,
  AMP = 38,
  APOSTROPHE = 39,
  LPAREN = 40,
  RPAREN = 41,
  STAR = 42,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  DOT = 46,
  SLASH = 47,
  DIGIT_0 = 48,
  DIGIT_9 = 57,
  COLON = 58,
  SEMI = 59,
  EQUALS = 61,
  QUESTION = 63,
  AT = 64,
  UPPER_E = 69,
  LBRACKET = 91,
  BACKSLASH = 92,
  RBRACKET = 93,
  UNDERSCORE = 95,
  LOWER_E = 101,
  LBRACE = 123,
  RBRACE = 125,
  BOM = 0xfeff;

/**
 * Space, tab, CR or LF (and the form feed / BOM, which editors sometimes leave behind).
 *
 * @example
 * ```ts
 * import { isSpace } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isSpace(" ".charCodeAt(0)), true);
 * assert.equal(isSpace("x".charCodeAt(0)), false);
 * ```
 */
export function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB || c === FF || c === BOM;
}

/** A line break (LF or CR). */
export function isLineBreak(c: number): boolean {
  return c === LF || c === CR;
}

/** An ASCII digit. */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57; // literal codes, as in isLetter: the number loop inlines this
}

/**
 * An ASCII letter.
 *
 * @example
 * ```ts
 * import { isLetter } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isLetter("q".charCodeAt(0)), true);
 * assert.equal(isLetter("_".charCodeAt(0)), false);
 * ```
 */
export function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** Characters of an identifier-like word (hint names, literals, numbers): letters, digits, `_.-`. */
export function isWordChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === UNDERSCORE || c === DOT || c === MINUS;
}

/** The first character of a placeholder's name (`#{name}`): a letter, `_` or `$`. */
export function isNameStart(c: number): boolean {
  return isLetter(c) || c === UNDERSCORE || c === DOLLAR;
}

/** A character of a placeholder's name after the first: a name start or a digit. */
export function isNameChar(c: number): boolean {
  return isNameStart(c) || isDigit(c);
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
  while (isLetter(text.charCodeAt(j))) j++;
  return text.slice(i, j);
}

/**
 * True when a method word (`GET`, `post`, …) starts at `i` and a space, tab, line break or the end
 * of the text follows it.
 *
 * @param text The text.
 * @param i The offset to look at.
 * @returns Whether a command's method starts there.
 *
 * @example
 * ```ts
 * import { isMethodAt } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isMethodAt("x post /i/_doc", 2), true);
 * assert.equal(isMethodAt("GETTER /i", 0), false);
 * assert.equal(isMethodAt("GET\n/i", 0), true);
 * ```
 */
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
 * Where the request target after a method word starts, as Kibana's console reads it: on the
 * method's line after spaces or tabs, or on the next line unless that line starts a body, another
 * command or a comment. -1 when no target follows (the end, `;`, a `{` or `[` body).
 *
 * @param text The text.
 * @param after The offset just after the method word.
 * @param end Where to stop looking (the text's length by default).
 * @returns The target's first offset, or -1.
 *
 * @example
 * ```ts
 * import { targetStart } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(targetStart("GET  /i", 3), 5);
 * assert.equal(targetStart("POST\n  _refresh", 4), 7);
 * assert.equal(targetStart("GET\n{}", 3), -1);
 * assert.equal(targetStart("GET\nGET /i", 3), -1);
 * ```
 */
export function targetStart(text: string, after: number, end: number = text.length): number {
  let i = after;
  while (i < end && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  const eol = i;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  if (i >= end) return -1;
  const t = text.charCodeAt(i);
  if (t === SEMI || t === LBRACE || t === LBRACKET) return -1;
  if (i !== eol && (t === HASH || isMethodAt(text, i) || isCommentAt(text, i))) return -1;
  return i;
}

/**
 * The marker character (`#`, `$` or `@`) when a template placeholder `#{`, `${` or `@{` starts at
 * `i`, else 0.
 */
export function markerAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return (c === HASH || c === DOLLAR || c === AT) && text.charCodeAt(i + 1) === LBRACE ? c : 0;
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

/** Offset of the line break ending the line of `i` (or `end`). */
export function lineEnd(text: string, i: number, end: number = text.length): number {
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return i;
    i++;
  }
  return i;
}

/**
 * The offset just after the string that starts at `i`: a `"""…"""` string ends at the next `"""`,
 * a JSON string at the next `"` not escaped by a backslash, a rule argument's `'…'` at the next
 * `'` not escaped. -1 when it is not closed before `end`. With `strict` the JSON string is
 * checked as JSON (no control character or line break, valid escapes) and a string that is not
 * closed is a {@linkcode CommandSyntaxError} instead of -1.
 *
 * @param text The text.
 * @param i The offset of the opening quote.
 * @param end Where to stop looking (the text's length by default).
 * @param strict Check the string as the driver's JSON and throw instead of returning -1.
 * @returns The offset after the closing quote(s), or -1.
 * @throws {CommandSyntaxError} With `strict`, when the string is not valid or not closed.
 *
 * @example
 * ```ts
 * import { stringEnd } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(stringEnd('{"a\\"b": 1}', 1), 7);
 * assert.equal(stringEnd('x """a "quoted" b""" y', 2), 20);
 * assert.equal(stringEnd("'it\\'s' x", 0), 7);
 * assert.equal(stringEnd('"open', 0), -1);
 * assert.throws(() => stringEnd('"a\\qb"', 0, 6, true), /bad escape/);
 * ```
 */
export function stringEnd(
  text: string,
  i: number,
  end: number = text.length,
  strict = false,
): number {
  const quote = text.charCodeAt(i);
  if (quote === QUOTE && text.charCodeAt(i + 1) === QUOTE && text.charCodeAt(i + 2) === QUOTE) {
    const close = text.indexOf('"""', i + 3);
    if (close >= 0 && close + 3 <= end) return close + 3;
    if (strict) fail(text, i, 'unterminated """ string; close it with """');
    return -1;
  }
  if (strict) return jsonStringEnd(text, i);
  for (let j = i + 1; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c === quote) return j + 1;
    if (c === BACKSLASH) j++;
  }
  return -1;
}

/**
 * The strict half of {@linkcode stringEnd}, for the driver's body scanner: the offset after the
 * JSON string (not `"""`) at `i`, checked as JSON. Its plain-character loop is kept small so that
 * the scanner inlines it (a measured 5–10% of a bulk body's parse); escapes, control characters
 * and the end go on in `jsonStringRest`.
 */
export function jsonStringEnd(text: string, i: number): number {
  // Tight loop over plain characters; NaN (the end of the text) also stops it.
  let j = i + 1;
  let c = text.charCodeAt(j);
  while (c >= SPACE && c !== QUOTE && c !== BACKSLASH) c = text.charCodeAt(++j);
  return c === QUOTE ? j + 1 : jsonStringRest(text, i, j);
}

/** The rest of a JSON string from `j` (an escape, a control character, the end): checked. */
function jsonStringRest(text: string, i: number, j: number): number {
  for (;;) {
    let c = text.charCodeAt(j);
    while (c >= SPACE && c !== QUOTE && c !== BACKSLASH) c = text.charCodeAt(++j);
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) j = escapeEnd(text, j + 1);
    else if (c === LF || c === CR || Number.isNaN(c)) break;
    else fail(text, j, "control character in a string; write it as an escape such as \\t");
  }
  return fail(
    text,
    i,
    'unterminated string: close it with " on the same line (use """ for text over several lines)',
  );
}

/** The characters after a backslash that make a JSON escape on their own. */
const SIMPLE_ESCAPES: ReadonlySet<number> = new Set(
  Array.from('"\\/bfnrt', (c) => c.charCodeAt(0)),
);
const LOWER_U = 117;

/** Checks the JSON escape whose backslash is at `i - 1`; returns the offset after it. */
function escapeEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (SIMPLE_ESCAPES.has(c)) return i + 1;
  if (c === LOWER_U && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) return i + 5;
  return fail(
    text,
    i - 1,
    'bad escape in a string; use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX',
  );
}

/**
 * The offset just after the comment that starts at `i` (`#` or `//` to the end of the line,
 * `/* … *\/`, a hint `/*+ … *\/` too), `i` when no comment starts there, or -1 for a block
 * comment not closed before `end`. A `#{` is a template placeholder, not a comment.
 *
 * @param text The text.
 * @param i The offset to look at.
 * @param end Where to stop looking (the text's length by default).
 * @returns The offset after the comment (a line comment stops before its line break), `i` or -1.
 *
 * @example
 * ```ts
 * import { commentEnd } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(commentEnd("1 // two\n3", 2), 8);
 * assert.equal(commentEnd("a /* b *\/ c", 2), 9);
 * assert.equal(commentEnd("#{name}", 0), 0);
 * assert.equal(commentEnd("/* open", 0), -1);
 * ```
 */
export function commentEnd(text: string, i: number, end: number = text.length): number {
  const c = text.charCodeAt(i);
  const d = text.charCodeAt(i + 1);
  if ((c === HASH && d !== LBRACE) || (c === SLASH && d === SLASH)) return lineEnd(text, i, end);
  if (c === SLASH && d === STAR) {
    const close = text.indexOf("*/", i + 2);
    return close < 0 || close + 2 > end ? -1 : close + 2;
  }
  return i;
}

/**
 * The offset just after the template placeholder that starts at `i` (`#{…}` and `${…}` end at
 * their first `}`; a rule call `@{…}` at the `}` that balances it, strings and nested brackets
 * jumped over), or -1 when it is not closed before `end` (or a `]` closes it).
 *
 * @param text The text.
 * @param i The offset of the marker (`#`, `$` or `@`).
 * @param end Where to stop looking (the text's length by default).
 * @returns The offset after the closing `}`, or -1.
 *
 * @example
 * ```ts
 * import { markerEnd } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(markerEnd("#{a.b} x", 0), 6);
 * assert.equal(markerEnd('@{if, a, {"b": "}"}} x', 0), 20);
 * assert.equal(markerEnd("@{and, [1}", 0), -1);
 * ```
 */
export function markerEnd(text: string, i: number, end: number = text.length): number {
  if (text.charCodeAt(i) !== AT) {
    const close = text.indexOf("}", i + 2);
    return close < 0 || close >= end ? -1 : close + 1;
  }
  let depth = 0;
  for (let j = i + 1; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE || c === APOSTROPHE) {
      const after = stringEnd(text, j, end);
      if (after < 0) return -1;
      j = after - 1;
    } else if (c === LBRACE || c === LBRACKET) depth++;
    else if (c === RBRACE || c === RBRACKET) {
      if (--depth === 0) return c === RBRACE ? j + 1 : -1;
    }
  }
  return -1;
}

/**
 * The kinds of {@linkcode ConsoleLexer} tokens:
 * - `space`: a run of whitespace ({@linkcode ConsoleLexer.newline} tells whether it crossed a line);
 * - `comment`: `#…` or `//…` to the end of the line, `/* … *\/`; `hint`: `/*+ … *\/`;
 * - `string`: a JSON string; `triple`: a `"""…"""` string; `quoted`: a rule argument's `'…'`;
 * - `slot`: `?`; `pathSlot`: `{?}` in a request target;
 * - `named`: `#{…}`; `splice`: `${…}`; `rule`: `@{…}`; `escape`: `\#{`, `\${` or `\@{`;
 * - `open`: `{` or `[`; `close`: `}` or `]`; `comma`, `colon`, `semi`;
 * - `word`: a run of word characters (letters, digits, `_ . - +`: methods, numbers, literals);
 * - `other`: any other character (in a target or a string's inside, a run of plain text).
 *
 * A string, comment, hint or placeholder that is not closed runs to the end of the range with
 * {@linkcode ConsoleLexer.closed} false; each reader says what that means for it.
 */
export type TokenKind =
  | "space"
  | "comment"
  | "hint"
  | "string"
  | "triple"
  | "quoted"
  | "slot"
  | "pathSlot"
  | "named"
  | "splice"
  | "rule"
  | "escape"
  | "open"
  | "close"
  | "comma"
  | "colon"
  | "semi"
  | "word"
  | "other";

/**
 * Where the lexer reads:
 * - `body`: JSON and everything between commands (comments, hints, placeholders);
 * - `target`: a request target (`#`, `/*` are path text; `{?}` is a slot; whitespace and `;` end it);
 * - `rule`: the inside of a rule call (a body that also has `'…'` strings);
 * - `string`, `triple`: the inside of a JSON or `"""` string (only `${…}`, `#{…}` and their
 *   escapes are tokens; a JSON string's `\x` escapes are text).
 */
export type LexMode = "body" | "target" | "rule" | "string" | "triple";

/** What a character starts in `body` mode: other text, whitespace, a word, or a token of its own. */
const C_OTHER = 0, C_SPACE = 1, C_WORD = 2, C_PUNCT = 3;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  CLASS[c] = isSpace(c) ? C_SPACE : isWordChar(c) || c === PLUS ? C_WORD : C_OTHER;
}
for (const c of [HASH, DOLLAR, AT, BACKSLASH, SEMI, QUOTE, APOSTROPHE, SLASH, QUESTION]) {
  CLASS[c] = C_PUNCT;
}
for (const c of [LBRACE, LBRACKET, RBRACE, RBRACKET, COMMA, COLON]) CLASS[c] = C_PUNCT;

/** The characters that may end a run of target text (a marker only when `{` follows). */
const TARGET_STOP = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (isSpace(c)) TARGET_STOP[c] = 1;
for (const c of [SEMI, LBRACE, LBRACKET, HASH, DOLLAR, AT, BACKSLASH]) TARGET_STOP[c] = 1;

/**
 * A cursor over the tokens of console text in `[start, end)`: {@linkcode ConsoleLexer.next}
 * reads one token in the mode the reader asks for and leaves its kind and offsets on the cursor
 * (no allocation per token). Readers switch modes as they go (a method word → `target`, a string
 * → its inside), and may move `pos` to re-read or skip.
 *
 * @example Tokens of a template command
 * ```ts
 * import { ConsoleLexer } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const text = 'GET /i/_doc/#{id} {"a": ?} # note';
 * const lexer = new ConsoleLexer(text);
 * const seen: string[] = [];
 * let mode: "body" | "target" = "body";
 * let method = false;
 * while (lexer.next(mode)) {
 *   if (lexer.kind === "space") {
 *     mode = method ? "target" : "body"; // the target follows the method, a space ends it
 *     method = false;
 *     continue;
 *   }
 *   seen.push(`${lexer.kind} ${lexer.token()}`);
 *   method = lexer.isMethod();
 * }
 * assert.deepEqual(seen, [
 *   "word GET", "other /i/_doc/", "named #{id}",
 *   "open {", "string \"a\"", "colon :", "slot ?", "close }", "comment # note",
 * ]);
 * ```
 */
export class ConsoleLexer {
  /** The text read. */
  readonly text: string;
  /** Where reading stops (exclusive). */
  end: number;
  /** Where the next token starts. */
  pos: number;
  /** The kind of the last token read. */
  kind: TokenKind = "space";
  /** Where the last token starts. */
  start = 0;
  /** False when the last token (a string, comment, hint or placeholder) is not closed. */
  closed = true;
  /** For a `space` token: whether it holds a line break. */
  newline = false;

  constructor(text: string, start = 0, end: number = text.length) {
    this.text = text;
    this.pos = start;
    this.end = end;
  }

  /** Reads `[start, end)` of the same text from now on (a reader reuses one cursor for insides). */
  reset(start: number, end: number): this {
    this.pos = start;
    this.end = end;
    return this;
  }

  /** The last token's text. */
  token(): string {
    return this.text.slice(this.start, this.pos);
  }

  /** The last token's first character code. */
  code(): number {
    return this.text.charCodeAt(this.start);
  }

  /** True when the last token is a method word followed by whitespace or the end. */
  isMethod(): boolean {
    return this.kind === "word" && isMethodAt(this.text, this.start) &&
      wordAt(this.text, this.start).length === this.pos - this.start;
  }

  /** The code of the character at `pos` (NaN at the end of the range). */
  peek(): number {
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : NaN;
  }

  /**
   * Reads the next token in `mode`; false at the end of the range.
   *
   * @param mode Where the text is (see {@linkcode LexMode}).
   * @returns Whether a token was read.
   */
  next(mode: LexMode = "body"): boolean {
    const text = this.text;
    const end = this.end;
    const i = this.pos;
    if (i >= end) return false;
    this.start = i;
    this.closed = true;
    const c = text.charCodeAt(i);
    if (mode === "string" || mode === "triple") return this.#inString(c, mode);
    const k = c < 128 ? CLASS[c]! : c === BOM ? C_SPACE : C_OTHER;
    if (k === C_SPACE) {
      let j = i;
      let newline = false;
      for (; j < end; j++) {
        const d = text.charCodeAt(j);
        if (d === LF || d === CR) newline = true;
        else if (!isSpace(d)) break;
      }
      this.newline = newline;
      return this.#to("space", j);
    }
    if (mode === "target") return this.#target(c);
    if (k === C_WORD) {
      let j = i + 1;
      for (; j < end; j++) {
        const d = text.charCodeAt(j);
        if (d >= 128 || CLASS[d] !== C_WORD) break;
      }
      return this.#to("word", j);
    }
    if (k === C_OTHER) return this.#to("other", i + 1);
    switch (c) {
      case HASH:
      case DOLLAR:
      case AT:
        if (text.charCodeAt(i + 1) === LBRACE) return this.#marker(c);
        return c === HASH ? this.#to("comment", lineEnd(text, i, end)) : this.#to("other", i + 1);
      case BACKSLASH:
        return this.#to(
          markerAt(text, i + 1) !== 0 ? "escape" : "other",
          i + (markerAt(text, i + 1) !== 0 ? 3 : 1),
        );
      case SEMI:
        return this.#to("semi", i + 1);
      case QUOTE: {
        const after = stringEnd(text, i, end);
        const triple = text.charCodeAt(i + 1) === QUOTE && text.charCodeAt(i + 2) === QUOTE;
        return this.#to(triple ? "triple" : "string", after < 0 ? this.#unclosed() : after);
      }
      case APOSTROPHE: {
        if (mode !== "rule") return this.#to("other", i + 1);
        const after = stringEnd(text, i, end);
        return this.#to("quoted", after < 0 ? this.#unclosed() : after);
      }
      case SLASH: {
        const after = commentEnd(text, i, end);
        if (after === i) return this.#to("other", i + 1);
        const hint = text.charCodeAt(i + 1) === STAR && text.charCodeAt(i + 2) === PLUS;
        return this.#to(hint ? "hint" : "comment", after < 0 ? this.#unclosed() : after);
      }
      case QUESTION:
        return this.#to("slot", i + 1);
      case LBRACE:
      case LBRACKET:
        return this.#to("open", i + 1);
      case RBRACE:
      case RBRACKET:
        return this.#to("close", i + 1);
      case COMMA:
        return this.#to("comma", i + 1);
      default: // COLON
        return this.#to("colon", i + 1);
    }
  }

  /** A placeholder `#{…}`, `${…}` or `@{…}` at `start` (`marker` is its first character). */
  #marker(marker: number): true {
    const after = markerEnd(this.text, this.start, this.end);
    return this.#to(
      marker === HASH ? "named" : marker === DOLLAR ? "splice" : "rule",
      after < 0 ? this.#unclosed() : after,
    );
  }

  /** Reads the next token of a request target (whitespace is read by {@linkcode next}). */
  #target(c: number): true {
    const text = this.text;
    const end = this.end;
    const i = this.start;
    const marker = markerAt(text, i);
    if (marker !== 0) return this.#marker(marker);
    if (c === BACKSLASH && markerAt(text, i + 1) !== 0) return this.#to("escape", i + 3);
    if (c === SEMI) return this.#to("semi", i + 1);
    if (c === LBRACE && text.charCodeAt(i + 1) === QUESTION && text.charCodeAt(i + 2) === RBRACE) {
      return this.#to("pathSlot", i + 3);
    }
    if (c === LBRACE || c === LBRACKET) return this.#to("open", i + 1);
    let j = i + 1;
    for (; j < end; j++) {
      const d = text.charCodeAt(j);
      if (d >= 128 ? d === BOM : TARGET_STOP[d] === 1) {
        if (d === HASH || d === DOLLAR || d === AT) {
          if (text.charCodeAt(j + 1) === LBRACE) break;
        } else if (d === BACKSLASH) {
          if (markerAt(text, j + 1) !== 0) break;
        } else break;
      }
    }
    return this.#to("other", j);
  }

  /** Reads the next token of a string's inside (a JSON string's or a `"""` string's). */
  #inString(c: number, mode: "string" | "triple"): boolean {
    const text = this.text;
    const end = this.end;
    const i = this.pos;
    // A backslash escapes the next character in a JSON string, nothing in a `"""` string.
    const step = mode === "triple" ? 1 : 2;
    if (c === BACKSLASH) {
      const m = markerAt(text, i + 1);
      if (m === HASH || m === DOLLAR) return this.#to("escape", i + 3);
    }
    const m = markerAt(text, i);
    if (m === HASH || m === DOLLAR) {
      const after = markerEnd(text, i, end);
      return this.#to(m === HASH ? "named" : "splice", after < 0 ? this.#unclosed() : after);
    }
    let j = i;
    while (j < end) {
      const d = text.charCodeAt(j);
      if (d === BACKSLASH) {
        const n = markerAt(text, j + 1);
        if (n === HASH || n === DOLLAR) break;
        j += step;
        continue;
      }
      const n = markerAt(text, j);
      if (n === HASH || n === DOLLAR) break;
      j++;
    }
    return this.#to("other", Math.min(j, end));
  }

  #unclosed(): number {
    this.closed = false;
    return this.end;
  }

  #to(kind: TokenKind, after: number): true {
    this.kind = kind;
    this.pos = after;
    return true;
  }

  /**
   * Skips whitespace from `pos` (spaces, tabs, line breaks, form feeds, a BOM) and returns the
   * next offset; {@linkcode ConsoleLexer.newline} tells whether a line break was crossed.
   */
  skipSpace(): number {
    const text = this.text;
    const end = this.end;
    let i = this.pos;
    let newline = false;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === LF || c === CR) newline = true;
      else if (!isSpace(c)) break;
    }
    this.newline = newline;
    this.pos = i;
    return i;
  }

  /**
   * Skips whitespace and comments (`#` and `//` to the end of the line, `/* … *\/`) from `pos`,
   * the driver's strict way, and returns the next offset: a block comment that is not closed is a
   * {@linkcode CommandSyntaxError}, and a `#` always starts a comment (the driver knows no `#{`).
   * `hints` says what a `/*+` is: `"stop"` before a command (it starts a hint block, so the skip
   * stops there), `"skip"` inside a body (an ordinary comment).
   * {@linkcode ConsoleLexer.newline} tells whether a line break was crossed.
   *
   * @param hints Whether to stop at a `/*+` or skip it.
   * @returns The offset of the next token, which is also the new `pos`.
   * @throws {CommandSyntaxError} When a block comment is not closed.
   *
   * @example
   * ```ts
   * import { ConsoleLexer } from "../internal.ts";
   * import assert from "node:assert/strict";
   *
   * const text = " # note\n /*+ limit=1 *\/ GET /i";
   * const lexer = new ConsoleLexer(text);
   * assert.equal(lexer.skipTriviaStrict("stop"), 9);
   * assert.equal(lexer.newline, true);
   * assert.equal(new ConsoleLexer(text).skipTriviaStrict("skip"), 24);
   * assert.throws(() => new ConsoleLexer("/* open").skipTriviaStrict("skip"), /unterminated comment/);
   * ```
   */
  skipTriviaStrict(hints: "stop" | "skip"): number {
    const text = this.text;
    const n = this.end;
    let i = this.pos;
    let newline = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === TAB) i++;
      else if (c === LF || c === CR) {
        newline = true;
        i++;
      } else if (c === HASH) i = lineEnd(text, i, n);
      else if (c === SLASH) {
        if (
          hints === "stop" && text.charCodeAt(i + 1) === STAR && text.charCodeAt(i + 2) === PLUS
        ) break;
        const after = commentEnd(text, i, n);
        if (after === i) break;
        if (after < 0) fail(text, i, "unterminated comment: close /* with */");
        i = after;
      } else if (c === FF || c === BOM) i++;
      else break;
    }
    this.newline = newline;
    this.pos = i;
    return i;
  }

  /**
   * Skips `space`, `comment` and `hint` tokens (in `body` mode) and stops before the next other
   * token; returns whether a line break was crossed. An unclosed block comment runs to the end.
   */
  skipTrivia(): boolean {
    let newline = false;
    for (;;) {
      const at = this.pos;
      if (!this.next("body")) return newline;
      if (this.kind === "space") newline ||= this.newline;
      else if (this.kind !== "comment" && this.kind !== "hint") {
        this.pos = at;
        return newline;
      }
    }
  }
}

/**
 * Splits `text[from, to)` at its top-level commas (strings, `'…'`, brackets and placeholders
 * jumped over): the parts of a rule call `@{name, a, b}`. At most `max` parts when given (the last
 * part then keeps its commas).
 *
 * @param text The text.
 * @param from Where the first part starts.
 * @param to Where the last part ends.
 * @param max The most parts to cut.
 * @returns The parts as `[start, end)` offsets.
 *
 * @example
 * ```ts
 * import { splitTopLevel } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "if, a == 'x,y', {\"b\": [1, 2]}";
 * assert.deepEqual(
 *   splitTopLevel(text, 0, text.length).map(([s, e]) => text.slice(s, e).trim()),
 *   ["if", "a == 'x,y'", '{"b": [1, 2]}'],
 * );
 * assert.equal(splitTopLevel(text, 0, text.length, 2).length, 2);
 * ```
 */
export function splitTopLevel(
  text: string,
  from: number,
  to: number,
  max: number = Infinity,
): [number, number][] {
  const parts: [number, number][] = [];
  const lexer = new ConsoleLexer(text, from, to);
  let start = from;
  let depth = 0;
  while (parts.length < max - 1 && lexer.next("rule")) {
    const kind = lexer.kind;
    if (kind === "open") depth++;
    else if (kind === "close") depth--;
    else if (kind === "comma" && depth === 0) {
      parts.push([start, lexer.start]);
      start = lexer.pos;
    }
  }
  parts.push([start, to]);
  return parts;
}

/** One top-level member of a JSON object text: its key (undefined for a `?` key) and offsets. */
export interface TopMember {
  /** The member's name, or undefined when the key is a `?` placeholder. */
  readonly key: string | undefined;
  /** Where the key starts. */
  readonly start: number;
  /** Where the value starts (after the colon and any whitespace). */
  readonly valueStart: number;
  /** Where the value ends (before whitespace, the comma or the closing brace). */
  readonly end: number;
}

/**
 * The top-level members of a JSON object text (compact or not; `?` keys and values allowed, as in
 * a parsed body's chunks joined by `?`), or undefined when the text is not an object. Read with
 * the lexer's tokens; no value is parsed.
 *
 * @param json The object text.
 * @returns The members in order, or undefined.
 *
 * @example
 * ```ts
 * import { topLevelMembers } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const json = '{"size": 5, ?: [1, {"a": "}"}], "q": ?}';
 * assert.deepEqual(
 *   topLevelMembers(json)!.map((m) => [m.key, json.slice(m.valueStart, m.end)]),
 *   [["size", "5"], [undefined, '[1, {"a": "}"}]'], ["q", "?"]],
 * );
 * assert.equal(topLevelMembers("[1]"), undefined);
 * ```
 */
export function topLevelMembers(json: string): TopMember[] | undefined {
  const lexer = new ConsoleLexer(json);
  lexer.skipTrivia();
  if (!lexer.next() || lexer.kind !== "open" || lexer.code() !== LBRACE) return undefined;
  const members: TopMember[] = [];
  let depth = 1;
  let key: string | undefined;
  let start = -1;
  let valueStart = -1;
  let valueEnd = -1;
  while (depth > 0 && lexer.next()) {
    const kind = lexer.kind as TokenKind; // not the narrowed "open" of the first token
    if (kind === "space" || kind === "comment") continue;
    if (depth === 1) {
      if (start < 0 && (kind === "string" || kind === "slot")) {
        start = lexer.start;
        key = kind === "slot" ? undefined : JSON.parse(lexer.token()) as string;
        continue;
      }
      if (kind === "colon" && valueStart < 0) continue;
      if (kind === "comma" || kind === "close") {
        if (start >= 0) members.push({ key, start, valueStart, end: valueEnd });
        start = valueStart = valueEnd = -1;
        if (kind === "close") depth--;
        continue;
      }
    }
    if (start >= 0 && valueStart < 0) valueStart = lexer.start;
    if (kind === "open") depth++;
    else if (kind === "close") depth--;
    valueEnd = lexer.pos;
  }
  return members;
}

/**
 * True when a request target (`/i/_bulk?refresh=true`, the leading `/` optional) is an endpoint
 * whose body is NDJSON: the specification's `application/x-ndjson` requests (`_bulk`,
 * `_msearch`, `_msearch/template`, `_text_structure/find_structure`, …), as the tokenizer decides.
 *
 * @param target The path and query string as written; `{?}` stands for one bound segment.
 * @returns Whether the body takes NDJSON lines.
 *
 * @example
 * ```ts
 * import { isNdjsonTarget } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isNdjsonTarget("my-index/_msearch/template"), true);
 * assert.equal(isNdjsonTarget("/{?}/_bulk?refresh=true"), true);
 * assert.equal(isNdjsonTarget("/i/_search"), false);
 * ```
 */
export function isNdjsonTarget(target: string): boolean {
  const path = target.replaceAll("{?}", "\u0000").split("?")[0]!;
  const segments: (string | undefined)[] = (path.startsWith("/") ? path.slice(1) : path)
    .split("/").map((s) => s.includes("\u0000") ? undefined : s);
  if (segments.length > 1 && segments.at(-1) === "") segments.pop();
  return isNdjsonPath(segments);
}
