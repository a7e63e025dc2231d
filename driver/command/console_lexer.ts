/**
 * The tokens of console text that every room reads the same way: strings (JSON and Kibana's
 * `"""…"""`), comments, method words and the top-level members of a parsed body. The driver's
 * tokenizer builds on the same character classes (`_lexer.ts`); the template's scanner, the
 * mapper files' placeholders, the mappers' paging and the checker use these instead of scanning
 * strings and comments their own way.
 *
 * @module
 */

import {
  BACKSLASH,
  CR,
  HASH,
  isMethodAt as methodAt,
  LF,
  METHODS,
  QUOTE,
  SLASH,
  STAR,
} from "./_lexer.ts";
import type { ParsedCommand } from "./command_tokenizer.ts";
import { isNdjsonPath } from "./_ndjson_endpoints.ts";

export { METHODS };

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
  return methodAt(text, i);
}

/**
 * The offset just after the string that starts at `i` (a `"`): a `"""…"""` string ends at the
 * next `"""`, a JSON string at the next `"` not escaped by a backslash. -1 when it is not closed
 * before `end`.
 *
 * @param text The text.
 * @param i The offset of the opening quote.
 * @param end Where to stop looking (the text's length by default).
 * @returns The offset after the closing quote(s), or -1.
 *
 * @example
 * ```ts
 * import { stringEnd } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(stringEnd('{"a\\"b": 1}', 1), 7);
 * assert.equal(stringEnd('x """a "quoted" b""" y', 2), 20);
 * assert.equal(stringEnd('"open', 0), -1);
 * ```
 */
export function stringEnd(text: string, i: number, end: number = text.length): number {
  if (text.charCodeAt(i + 1) === QUOTE && text.charCodeAt(i + 2) === QUOTE) {
    const close = text.indexOf('"""', i + 3);
    return close < 0 || close + 3 > end ? -1 : close + 3;
  }
  for (let j = i + 1; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) j++;
  }
  return -1;
}

/**
 * The offset just after the comment that starts at `i` (`#` or `//` to the end of the line,
 * `/* … *\/`), `i` when no comment starts there, or -1 for a block comment not closed before
 * `end`. A `#{` is a template placeholder, not a comment.
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
  if ((c === HASH && d !== 123) || (c === SLASH && d === SLASH)) {
    let j = i + 1;
    while (j < end) {
      const e = text.charCodeAt(j);
      if (e === LF || e === CR) break;
      j++;
    }
    return j;
  }
  if (c === SLASH && d === STAR) {
    const close = text.indexOf("*/", i + 2);
    return close < 0 || close + 2 > end ? -1 : close + 2;
  }
  return i;
}

/** One top-level member of a parsed body: its key (undefined for a `?` key) and value text. */
export interface BodyMember {
  /** The member's name, or undefined when the key is a `?` placeholder. */
  readonly key: string | undefined;
  /** The value as compact JSON text (`?` for a placeholder). */
  readonly value: string;
}

/**
 * The top-level members of a parsed command's body, read from its compact chunks (no second
 * parse of the text): undefined when the body is not an object (an array, a whole-body `?`,
 * NDJSON), an empty list without a body.
 *
 * @param command A command of {@linkcode parseScript}.
 * @returns The members in order, or undefined.
 *
 * @example
 * ```ts
 * import { bodyMembers, parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const [command] = parseScript('GET /i/_search {"query": {"term": {"a": ?}}, ?: 1}').commands;
 * assert.deepEqual(bodyMembers(command!), [
 *   { key: "query", value: '{"term":{"a":?}}' },
 *   { key: undefined, value: "1" },
 * ]);
 * assert.equal(bodyMembers(parseScript("GET /i/_search ?").commands[0]!), undefined);
 * assert.deepEqual(bodyMembers(parseScript("GET /i/_search").commands[0]!), []);
 * ```
 */
export function bodyMembers(command: ParsedCommand): BodyMember[] | undefined {
  if (command.body === undefined) return [];
  if (command.ndjson) return undefined;
  const body = command.body.join("?");
  if (body.charCodeAt(0) !== 123) return undefined;
  const members: BodyMember[] = [];
  let depth = 0;
  let key: string | undefined;
  let keySeen = false;
  let valueStart = -1;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === QUOTE) {
      // Compact bodies hold JSON strings only (`"""` became one), always closed.
      const close = stringEnd(body, i);
      if (depth === 1 && !keySeen) {
        key = JSON.parse(body.slice(i, close)) as string;
        keySeen = true;
      }
      i = close - 1;
    } else if (c === 63 && depth === 1 && !keySeen) {
      key = undefined;
      keySeen = true;
    } else if (c === 58 && depth === 1 && valueStart < 0) valueStart = i + 1;
    else if (c === 123 || c === 91) depth++;
    else if ((c === 44 && depth === 1) || ((c === 125 || c === 93) && --depth === 0)) {
      if (keySeen) members.push({ key, value: body.slice(valueStart, i) });
      key = undefined;
      keySeen = false;
      valueStart = -1;
    }
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
