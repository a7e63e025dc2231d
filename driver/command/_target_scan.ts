// Scans the request target `path[?query]` after the method: normalises the leading `/`, finds
// `{?}` placeholders, percent-encodes literal non-ASCII text and reports the last path segment.
// It reads through the tokenizer's cursor, from where it stands to the end of the target.
// Internal.

import {
  AMP,
  BOM,
  type ConsoleLexer,
  CR,
  EQUALS,
  fail,
  FF,
  HASH,
  LBRACE,
  LF,
  QUESTION,
  RBRACE,
  SEMI,
  SLASH,
  SPACE,
  TAB,
  type TokenKind,
} from "./console_lexer.ts";

/** A `{?}` in the target: in a path segment or a query-string value. */
export interface TargetSlot {
  kind: "path" | "query";
  offset: number;
  /** A path slot where an index (or alias) name goes: the first segment, `_cat/<api>/{?}`,
   * the segment after `_alias`/`_aliases`. */
  indexName: boolean;
}

function isIndexSegment(segNo: number, done: readonly (string | undefined)[]): boolean {
  if (segNo === 0) return true;
  if (segNo === 2 && done[0] === "_cat") return true;
  const before = done[segNo - 1];
  return before === "_alias" || before === "_aliases";
}

/** The scanned target: `chunks.length === slots.length + 1`. */
export interface ScannedTarget {
  chunks: string[];
  slots: TargetSlot[];
  /** The last path segment when it is fixed text, else `""`. */
  endpoint: string;
  /** The path segments, `undefined` for one holding a slot (a trailing empty one dropped). */
  segments: (string | undefined)[];
}

/** True when a `{?}` starts at `i`. */
function isPathSlotAt(text: string, i: number): boolean {
  return text.charCodeAt(i) === LBRACE && text.charCodeAt(i + 1) === QUESTION &&
    text.charCodeAt(i + 2) === RBRACE;
}

function endsTarget(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR || c === SEMI || Number.isNaN(c);
}

/**
 * Scans the target where `lexer` stands and leaves the lexer just after it. The target's pieces
 * are the lexer's `target` tokens: runs of text, `{?}` slots, and what ends it (whitespace, `;`,
 * a `{` or `[` body). A `/*` inside the path is path text (`POST /*\/_refresh`): a comment only
 * starts after whitespace. The driver knows no template placeholders: in a `#{…}` the `#` is
 * refused like any `#`, and a `${`, `@{`, `\${` or `\@{` is text up to its `{`.
 */
export function scanTarget(lexer: ConsoleLexer): ScannedTarget {
  const text = lexer.text;
  const start = lexer.pos;
  const chunks: string[] = [];
  const slots: TargetSlot[] = [];
  let out = text.charCodeAt(start) === SLASH ? "" : "/";
  let seg = start;
  let inQuery = false;
  let inValue = false;
  let segStart = start;
  let segHasSlot = false;
  let endpoint = "";
  let segNo = text.charCodeAt(start) === SLASH ? -1 : 0;
  const done: (string | undefined)[] = [];
  let i = start;
  for (;;) {
    let at = lexer.pos;
    let to: number;
    let kind: TokenKind;
    // What ends a target (a space, tab or line break, `;`, the end) and a `{?}` are the cursor's
    // tokens tested in place: a token call for each measured 10% of a target with three slots.
    if (endsTarget(text.charCodeAt(at))) break;
    if (isPathSlotAt(text, at)) {
      kind = "pathSlot";
      to = at + 3;
      lexer.pos = to;
    } else if (!lexer.next("target")) break;
    else {
      kind = lexer.kind;
      at = lexer.start;
      to = lexer.pos;
    }
    if (kind === "pathSlot") {
      if (inQuery && !inValue) {
        fail(text, at, "a {?} in a query string binds a value: write name={?}");
      }
      if (at > seg) out += text.slice(seg, at);
      chunks.push(out);
      out = "";
      slots.push({
        kind: inQuery ? "query" : "path",
        offset: at,
        indexName: !inQuery && isIndexSegment(segNo, done),
      });
      segHasSlot = true;
      i = to;
      seg = to;
      continue;
    }
    if (kind === "space") {
      // Only a space, tab or line break ends the driver's target: a form feed or BOM is text.
      const c = lexer.code();
      if (c !== FF && c !== BOM) {
        lexer.pos = at;
        break;
      }
      to = at + 1;
    } else if (kind === "named" || kind === "splice" || kind === "rule" || kind === "escape") {
      to = text.indexOf("{", at); // its text up to the `{`, which the next token reads
    } else if (kind !== "other") { // `;`, or a `{` / `[` that starts the body
      lexer.pos = at;
      break;
    }
    lexer.pos = to;
    // The run's characters: segments, the query string, a refused `#`, non-ASCII encoded.
    i = at;
    while (i < to) {
      const c = text.charCodeAt(i);
      if (c === HASH) {
        fail(
          text,
          i,
          "# in the request target; put a space before a comment, or bind the value with {?}",
        );
      }
      if (c >= 0x80) {
        if (i > seg) out += text.slice(seg, i);
        let j = i + 1;
        while (j < to && text.charCodeAt(j) >= 0x80) j++;
        try {
          out += encodeURIComponent(text.slice(i, j));
        } catch {
          fail(text, i, "the path contains a broken character (a lone surrogate)");
        }
        i = j;
        seg = j;
        continue;
      }
      if (!inQuery) {
        if (c === SLASH) {
          if (segNo >= 0) done.push(segHasSlot ? undefined : text.slice(segStart, i));
          segNo++;
          segStart = i + 1;
          segHasSlot = false;
        } else if (c === QUESTION) {
          if (endsTarget(text.charCodeAt(i + 1))) {
            fail(
              text,
              i,
              "a ? after the path starts a query string; use {?} for a value in a path " +
                "(for example /idx/_doc/{?})",
            );
          }
          endpoint = segHasSlot ? "" : text.slice(segStart, i);
          if (segNo >= 0) done.push(segHasSlot ? undefined : endpoint);
          inQuery = true;
        }
      } else if (c === EQUALS) inValue = true;
      else if (c === AMP) inValue = false;
      i++;
    }
  }
  i = lexer.pos;
  if (!inQuery) {
    endpoint = segHasSlot ? "" : text.slice(segStart, i);
    if (segNo >= 0) done.push(segHasSlot ? undefined : endpoint);
  }
  if (done.length > 1 && done.at(-1) === "") done.pop();
  if (i > seg) out += text.slice(seg, i);
  chunks.push(out);
  return { chunks, slots, endpoint, segments: done };
}
