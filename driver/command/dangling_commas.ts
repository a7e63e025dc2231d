// The commas that optional members leave behind when they do not render: the template's
// `@{and}`/`@{if}` rules and the mapper files' `<where>`, `<set>` and `<trim>` clean their text
// with this one pass. JSON-aware: strings (also Kibana's """…"""), comments and `#{…}`/`${…}`/
// `@{…}` placeholders are the lexer's tokens, jumped over whole, so a comma inside them is never
// touched.

import { ConsoleLexer, type TokenKind } from "./console_lexer.ts";

const START = 0;
const OPEN = 1;
const COMMA = 2;
const VALUE = 3;

/**
 * Removes the commas left behind by members that did not render: a comma at the start, after
 * `[`, `{` or another comma, at the end, or before `]`/`}`. White space is kept. One pass; strings,
 * comments and placeholders are jumped over. A text without a dangling comma comes back as is.
 *
 * @param text Command text (or a fragment of it) after optional members vanished.
 * @returns The text without dangling commas.
 *
 * @example
 * ```ts
 * import { dropDanglingCommas } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(dropDanglingCommas('{"a": 1, , "b": ",", }'), '{"a": 1,  "b": "," }');
 * assert.equal(dropDanglingCommas("[, 1, ]"), "[ 1 ]");
 * ```
 */
export function dropDanglingCommas(text: string): string {
  if (!text.includes(",")) return text;
  let drop: number[] | undefined;
  let last = START;
  let lastComma = -1;
  const lexer = new ConsoleLexer(text);
  while (lexer.next()) {
    const kind: TokenKind = lexer.kind;
    if (kind === "space" || kind === "comment" || kind === "hint") continue;
    if (kind === "comma") {
      if (last === VALUE) {
        last = COMMA;
        lastComma = lexer.start;
      } else (drop ??= []).push(lexer.start);
    } else if (kind === "close") {
      if (last === COMMA) (drop ??= []).push(lastComma);
      last = VALUE;
    } else if (kind === "open") last = OPEN;
    else last = VALUE;
  }
  if (last === COMMA) (drop ??= []).push(lastComma);
  if (drop === undefined) return text;
  drop.sort((a, b) => a - b);
  let out = "";
  let from = 0;
  for (const at of drop) {
    out += text.slice(from, at);
    from = at + 1;
  }
  return out + text.slice(from);
}
