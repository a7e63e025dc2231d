// Scans a hint block `/*+ name[=value] (,|;) … */` placed before a command, through the
// tokenizer's cursor: it starts where the cursor stands and leaves the cursor after the block's
// `*/`. Inside, whitespace is the lexer's `isSpace` and a quoted value ends at the lexer's
// `stringEnd`, tested in place: reading them as cursor tokens measured 10–15% of a hint block.
// Internal.

import type { HintValue } from "./command.ts";
import {
  APOSTROPHE,
  COMMA,
  type ConsoleLexer,
  EQUALS,
  fail,
  isDigit,
  isLetter,
  isSpace,
  isWordChar,
  MINUS,
  PLUS,
  QUESTION,
  QUOTE,
  SEMI,
  SLASH,
  STAR,
  stringEnd,
  UNDERSCORE,
} from "./console_lexer.ts";

/** One hint as written: a literal value, or a placeholder bound later. */
export interface ScannedHint {
  readonly name: string;
  readonly value: HintValue;
  /** True when the value is `?` (it consumes the next argument). */
  readonly placeholder: boolean;
  /** Offset of the hint name in the whole text. */
  readonly offset: number;
}

/** The hint names whose literal values must be non-negative integers. */
export const INTEGER_HINTS: ReadonlySet<string> = new Set([
  "overwrite_find_limit",
  "overwrite_find_skip",
]);

/**
 * Scans the hint block where `lexer` stands (at its `/*+`) into `into`, and leaves the lexer just
 * after the block's `*\/`.
 */
export function scanHintBlock(lexer: ConsoleLexer, into: ScannedHint[]): void {
  const text = lexer.text;
  const n = lexer.end;
  const start = lexer.pos;
  let i = start + 3;
  for (;;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) fail(text, start, "unterminated hint: close /*+ with */");
    if (text.charCodeAt(i) === STAR && text.charCodeAt(i + 1) === SLASH) {
      lexer.pos = i + 2;
      return;
    }
    const nameStart = i;
    if (!isLetter(text.charCodeAt(i)) && text.charCodeAt(i) !== UNDERSCORE) {
      fail(text, i, `expected a hint name such as overwrite_find_limit, found ${show(text, i)}`);
    }
    while (i < n && isWordChar(text.charCodeAt(i))) i++;
    const name = text.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    let value: HintValue = true;
    let placeholder = false;
    if (text.charCodeAt(i) === EQUALS) {
      i++;
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      const valueStart = i;
      const c = text.charCodeAt(i);
      if (c === QUESTION) {
        placeholder = true;
        value = null;
        i++;
      } else if (c === QUOTE || c === APOSTROPHE) {
        // A `"""` is no hint value: read it as an empty string that something follows.
        const close = c === QUOTE && text.charCodeAt(i + 1) === QUOTE
          ? i + 2
          : stringEnd(text, i, n);
        const end = close - 1;
        if (close < 0 || text.slice(i, end).includes("\n")) {
          fail(text, i, `hint ${name}: unterminated quoted value`);
        }
        value = text.slice(i + 1, end);
        if (c === QUOTE && value.includes("\\")) {
          try {
            value = JSON.parse(text.slice(i, end + 1)) as string;
          } catch {
            fail(text, i, `hint ${name}: bad escape in the quoted value`);
          }
        }
        i = end + 1;
      } else if (c === MINUS || isDigit(c)) {
        while (i < n && (isWordChar(text.charCodeAt(i)) || text.charCodeAt(i) === PLUS)) i++;
        value = Number(text.slice(valueStart, i));
        if (!Number.isFinite(value)) {
          fail(text, valueStart, `hint ${name}: bad number ${text.slice(valueStart, i)}`);
        }
      } else if (isLetter(c) || c === UNDERSCORE || c === STAR) {
        while (i < n && (isWordChar(text.charCodeAt(i)) || text.charCodeAt(i) === STAR)) i++;
        const word = text.slice(valueStart, i);
        const lower = word.toLowerCase();
        value = lower === "true"
          ? true
          : lower === "false"
          ? false
          : lower === "null"
          ? null
          : word;
      } else {
        fail(
          text,
          i,
          `hint ${name}: a value must be a number, an identifier, a quoted string, true, false, ` +
            `null or ?; found ${show(text, i)}`,
        );
      }
      if (
        !placeholder && INTEGER_HINTS.has(name) &&
        !(typeof value === "number" && Number.isSafeInteger(value) && value >= 0)
      ) {
        fail(text, valueStart, `hint ${name} needs a non-negative integer or ?`);
      }
    }
    into.push({ name, value, placeholder, offset: nameStart });
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    const sep = text.charCodeAt(i);
    if (sep === COMMA || sep === SEMI) i++;
    else if (!(sep === STAR && text.charCodeAt(i + 1) === SLASH)) {
      if (i >= n) fail(text, start, "unterminated hint: close /*+ with */");
      fail(text, i, `expected , or */ after hint ${name}, found ${show(text, i)}`);
    }
  }
}

function show(text: string, i: number): string {
  return i >= text.length ? "the end of the text" : JSON.stringify(text[i]);
}
