// Placeholders in statement text: `#{name…}` and `${name…}` are found once per text node, so a
// loop can rename their head (`item` → `__frch_item_0`) without scanning the text again. The text
// is read with the driver's lexer: strings (JSON and `"""`) are its tokens, and inside one `#{` is
// text while `${…}` is still a splice; `\#{`, `\${`, `\@{` are escapes (text). A mapper file's
// text node is a fragment that may stand anywhere in a command (a path, a body), so comments and
// `@{…}` rule calls are not opaque here: their insides are read on, placeholders included.

import {
  ConsoleLexer,
  isNameChar,
  isNameStart,
  isSpace,
  type LexMode,
  type TokenKind,
} from "../driver/internal.ts";
import { type Placeholder, TextNode } from "./_nodes.ts";

/** A text node with its `#{…}`/`${…}` placeholders split out (`#{` inside JSON strings is text). */
export function textNode(text: string): TextNode {
  const parts: (string | Placeholder)[] = [];
  let from = 0;
  // The `#{…}`/`${…}` token of `lexer`: adds it as a placeholder, or leaves it as text when no
  // name follows the brace.
  const placeholder = (lexer: ConsoleLexer): void => {
    const at = lexer.start;
    const end = lexer.pos;
    let j = at + 2;
    while (j < end && isSpace(text.charCodeAt(j))) j++;
    const headStart = j;
    if (j >= end || !isNameStart(text.charCodeAt(j))) return;
    while (j < end && isNameChar(text.charCodeAt(j))) j++;
    if (at > from) parts.push(text.slice(from, at));
    parts.push({
      before: text.slice(at, headStart),
      head: text.slice(headStart, j),
      after: text.slice(j, end),
    });
    from = end;
  };
  const lexer = new ConsoleLexer(text);
  while (lexer.next("body")) {
    const kind: TokenKind = lexer.kind;
    if (kind === "named" || kind === "splice") placeholder(lexer);
    else if (kind === "comment" || kind === "hint" || kind === "rule") {
      lexer.pos = lexer.start + (kind === "rule" ? 2 : 1); // read on inside
    } else if (kind === "string" || kind === "triple") {
      const quotes = kind === "triple" ? 3 : 1;
      const mode: LexMode = kind;
      const inside = new ConsoleLexer(
        text,
        lexer.start + quotes,
        lexer.closed ? lexer.pos - quotes : lexer.pos,
      );
      while (inside.next(mode)) if (inside.kind === "splice") placeholder(inside);
    }
  }
  if (from < text.length) parts.push(text.slice(from));
  return new TextNode(text, parts);
}
