// Placeholders in statement text: `#{name…}` and `${name…}` are found once per text node, so a
// loop can rename their head (`item` → `__frch_item_0`) without scanning the text again. Strings
// are the driver's tokens (`stringEnd`: JSON and `"""` strings): inside one, `#{` is text and
// `${…}` is still a splice.

import { stringEnd } from "../driver/internal.ts";
import { type Placeholder, TextNode } from "./_nodes.ts";

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

/** A text node with its `#{…}`/`${…}` placeholders split out (`#{` inside JSON strings is text). */
export function textNode(text: string): TextNode {
  const parts: (string | Placeholder)[] = [];
  let from = 0;
  // A `#{`/`${` at `at` (the marker) up to `end`: adds it and returns the offset after it, or
  // returns `at + 1` when no name follows the brace (then it is text).
  const placeholder = (at: number, end: number): number => {
    let j = at + 2;
    while (j < end && isSpace(text.charCodeAt(j))) j++;
    const headStart = j;
    if (j >= end || !isNameStart(text.charCodeAt(j))) return at + 1;
    while (j < end && isNameChar(text.charCodeAt(j))) j++;
    const headEnd = j;
    while (j < end && text.charCodeAt(j) !== 125) j++;
    if (j < end) j++; // the closing }
    if (at > from) parts.push(text.slice(from, at));
    parts.push({
      before: text.slice(at, headStart),
      head: text.slice(headStart, headEnd),
      after: text.slice(headEnd, j),
    });
    from = j;
    return j;
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c === 34) {
      let end = stringEnd(text, i);
      if (end < 0) end = n;
      for (let j = i + 1; j < end;) {
        j = text.charCodeAt(j) === 36 && text.charCodeAt(j + 1) === 123
          ? placeholder(j, end)
          : j + 1;
      }
      i = end;
    } else if (
      c === 92 && text.charCodeAt(i + 2) === 123 && (next === 35 || next === 36 || next === 64)
    ) i += 3; // `\#{`, `\${`, `\@{` are text
    else if ((c === 35 || c === 36) && next === 123) i = placeholder(i, n);
    else i++;
  }
  if (from < n) parts.push(text.slice(from));
  return new TextNode(text, parts);
}
