// Scans the request target `path[?query]` after the method: normalises the leading `/`, finds
// `{?}` placeholders, percent-encodes literal non-ASCII text and reports the last path segment.
// It reads through the tokenizer's cursor, from where it stands to the end of the target.
// Internal.

import {
  AMP,
  type ConsoleLexer,
  CR,
  EQUALS,
  fail,
  HASH,
  LBRACE,
  LBRACKET,
  LF,
  QUESTION,
  SEMI,
  SLASH,
  SPACE,
  TAB,
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

function endsTarget(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR || c === SEMI || Number.isNaN(c);
}

/**
 * Scans the target where `lexer` stands and leaves the lexer just after it. A `/*` inside the
 * path is path text (`POST /*\/_refresh`): a comment only starts after whitespace.
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
    const c = text.charCodeAt(i);
    if (endsTarget(c) || ((c === LBRACE || c === LBRACKET) && !text.startsWith("{?}", i))) {
      break;
    }
    if (c === LBRACE) {
      if (inQuery && !inValue) {
        fail(text, i, "a {?} in a query string binds a value: write name={?}");
      }
      if (i > seg) out += text.slice(seg, i);
      chunks.push(out);
      out = "";
      slots.push({
        kind: inQuery ? "query" : "path",
        offset: i,
        indexName: !inQuery && isIndexSegment(segNo, done),
      });
      segHasSlot = true;
      i += 3;
      seg = i;
      continue;
    }
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
      while (j < text.length && text.charCodeAt(j) >= 0x80) j++;
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
  if (!inQuery) {
    endpoint = segHasSlot ? "" : text.slice(segStart, i);
    if (segNo >= 0) done.push(segHasSlot ? undefined : endpoint);
  }
  if (done.length > 1 && done.at(-1) === "") done.pop();
  if (i > seg) out += text.slice(seg, i);
  chunks.push(out);
  lexer.pos = i;
  return { chunks, slots, endpoint, segments: done };
}
