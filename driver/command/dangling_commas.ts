// The commas that optional members leave behind when they do not render: the template's
// `@{and}`/`@{if}` rules and the mapper files' `<where>`, `<set>` and `<trim>` clean their text
// with this one pass. JSON-aware: strings (also Kibana's """…"""), comments and `#{…}`/`${…}`/
// `@{…}` placeholders are jumped over, so a comma inside them is never touched.

/** The end (exclusive) of the string, comment or placeholder starting at `i`, or -1. */
function skipOpaque(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  if (c === 0x22) {
    if (text.startsWith('"""', i)) {
      const end = text.indexOf('"""', i + 3);
      return end < 0 ? text.length : end + 3;
    }
    let j = text.indexOf('"', i + 1);
    while (j >= 0) {
      let slashes = 0;
      while (text.charCodeAt(j - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) return j + 1;
      j = text.indexOf('"', j + 1);
    }
    return text.length;
  }
  if ((c === 0x23 || c === 0x24 || c === 0x40) && next === 0x7b) return skipBraces(text, i + 2);
  if (c === 0x23 || (c === 0x2f && next === 0x2f)) {
    const end = text.indexOf("\n", i);
    return end < 0 ? text.length : end;
  }
  if (c === 0x2f && next === 0x2a) {
    const end = text.indexOf("*/", i + 2);
    return end < 0 ? text.length : end + 2;
  }
  return -1;
}

// A placeholder's body may hold braces, strings and nested rules: count them.
function skipBraces(text: string, from: number): number {
  let depth = 1;
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = skipOpaque(text, i);
      continue;
    }
    if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i + 1;
    i++;
  }
  return text.length;
}

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
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) continue;
    if (c === 0x2c) {
      if (last === VALUE) {
        last = COMMA;
        lastComma = i;
      } else (drop ??= []).push(i);
    } else if (c === 0x5d || c === 0x7d) {
      if (last === COMMA) (drop ??= []).push(lastComma);
      last = VALUE;
    } else if (c === 0x5b || c === 0x7b) last = OPEN;
    else if (c === 0x22 || c === 0x23 || c === 0x24 || c === 0x40 || c === 0x2f) {
      const end = skipOpaque(text, i);
      if (end < 0) last = VALUE;
      else {
        if (c === 0x22 || text.charCodeAt(i + 1) === 0x7b) last = VALUE; // not a comment
        i = end - 1;
      }
    } else last = VALUE;
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
