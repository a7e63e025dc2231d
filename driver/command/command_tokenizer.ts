/**
 * The command language of the driver: Kibana Dev Tools console text with `?` / `{?}`
 * placeholders, `/*+ … *\/` hints, comments and several commands per text, parsed in one pass
 * into fixed text chunks and placeholder slots.
 *
 * Decisions worth knowing:
 * - A comment (`#`, `//`, `/* *\/`) starts only at a token boundary: inside the request target
 *   `/*` is path text, so `POST /*\/_refresh` targets every index. A `#` inside the target is an
 *   error (it would be a URL fragment); put a space before a comment.
 * - `/*+` before a method starts a hint block; inside a body it is an ordinary comment.
 * - A new command starts on a new line (or after `;`) with a method word once the previous body is
 *   complete. Bodies are emitted compact (no whitespace or comments outside strings).
 *
 * @module
 */

import type { HintValue, Method } from "./command.ts";
import { CommandCache } from "./command_cache.ts";
import {
  ConsoleLexer,
  CR,
  fail,
  isLetter,
  LBRACE,
  LBRACKET,
  LF,
  METHODS,
  PLUS,
  PositionCursor,
  QUESTION,
  SEMI,
  SLASH,
  SPACE,
  STAR,
  TAB,
  targetStart,
  wordAt,
} from "./console_lexer.ts";
import { type BodyShape, scanBody } from "./_json_scan.ts";
import { scanHintBlock, type ScannedHint } from "./_hint_scan.ts";
import { scanTarget } from "./_target_scan.ts";
import { isNdjsonPath } from "./_ndjson_endpoints.ts";

/**
 * Where a placeholder sits: `path` (`{?}` in a path segment), `query` (`{?}` as a query-string
 * value), `value` (`?` as a JSON value), `key` (`?` as an object key), `body` (`?` as the whole
 * body), `line` (`?` as a whole NDJSON line) or `hint` (`?` as a hint value).
 *
 * @example
 * ```ts
 * import type { SlotKind } from "@searchvisitor/searchvisitor/driver";
 * import { parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const kinds: SlotKind[] = parseScript("GET /{?}/_search?q={?} {?: ?}").commands[0]!.slots
 *   .map((slot) => slot.kind);
 * assert.deepEqual(kinds, ["path", "query", "key", "value"]);
 * ```
 */
export type SlotKind = "hint" | "path" | "query" | "value" | "key" | "body" | "line";

/**
 * One placeholder of a command, in argument order, with its position in the whole text.
 *
 * @example
 * ```ts
 * import { parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const [slot] = parseScript("POST /i/_doc\n{\"a\": ?}").commands[0]!.slots;
 * assert.deepEqual(slot, { kind: "value", line: 2, column: 7 });
 * ```
 */
export interface Slot {
  /** Where the placeholder sits. */
  readonly kind: SlotKind;
  /** 1-based line in the whole text. */
  readonly line: number;
  /** 1-based column in the whole text. */
  readonly column: number;
  /** Present (true) on a path slot where an index or alias name goes: such a value may not
   * widen the target (`*`, `,`, `_all`, a leading `-`) unless the caller opts in. */
  readonly indexName?: true;
}

/**
 * A hint given before a command. A `?` value is bound later (`placeholder: true`, `value: null`).
 *
 * @example
 * ```ts
 * import { parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const [hint] = parseScript("/*+ Overwrite_Find_Limit=5 *\/ GET /i/_search").commands[0]!.hints;
 * assert.deepEqual(hint, { name: "overwrite_find_limit", value: 5, placeholder: false });
 * ```
 */
export interface ParsedHint {
  /** The name, lower-cased. */
  readonly name: string;
  /** The literal value (`true` when the hint has no value). */
  readonly value: HintValue;
  /** True when the value is a `?` placeholder. */
  readonly placeholder: boolean;
}

/**
 * One parsed command. Binding is concatenation: `target[0] + encode(arg) + target[1] + …` for
 * the request target (path and query), and the same over `body` for the body.
 *
 * @example
 * ```ts
 * import { parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const command = parseScript('post logs-{?}/_search {"query": {"term": {"user": ?}}}').commands[0]!;
 * assert.equal(command.method, "POST");
 * assert.deepEqual(command.target, ["/logs-", "/_search"]);
 * assert.deepEqual(command.body, ['{"query":{"term":{"user":', "}}}"]);
 * assert.equal(command.endpoint, "_search");
 * assert.equal(command.placeholderCount, 2);
 * ```
 */
export interface ParsedCommand {
  /** The method, upper-cased. */
  readonly method: Method;
  /** Fixed chunks of `path[?query]` (starts with `/`); one more than the target slots. */
  readonly target: readonly string[];
  /** The target as written: the chunks joined by `{?}` (what retries are decided from). */
  readonly pathTemplate: string;
  /** Fixed chunks of the body (compact JSON or NDJSON); `undefined` when there is no body. */
  readonly body: readonly string[] | undefined;
  /** Every placeholder in argument order: hints, then target, then body. */
  readonly slots: readonly Slot[];
  /** How many of `slots` are hint slots (they come first). */
  readonly hintSlotCount: number;
  /** How many of `slots` are target slots (they follow the hint slots). */
  readonly targetSlotCount: number;
  /** Hints written before the command, in order. */
  readonly hints: readonly ParsedHint[];
  /** True for the NDJSON endpoints (`_bulk`, `_msearch`, `_msearch/template`, …, the
   * specification's `application/x-ndjson` requests): the body is NDJSON ending with `\n`. */
  readonly ndjson: boolean;
  /** The last path segment when it is fixed text (`_search`, `_bulk`, an index name), else `""`. */
  readonly endpoint: string;
  /** The command's source text, from the method to the end of its body. */
  readonly text: string;
  /** Offset of the method in the whole text (where {@linkcode ParsedCommand.text} starts). */
  readonly offset: number;
  /** 1-based line of the method. */
  readonly line: number;
  /** 1-based column of the method. */
  readonly column: number;
  /** How many arguments the command consumes. */
  readonly placeholderCount: number;
}

/**
 * A parsed command text: its commands in order and the number of arguments they consume.
 *
 * @example
 * ```ts
 * import { parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const script = parseScript("DELETE /a/_doc/{?}; DELETE /b/_doc/{?}");
 * assert.equal(script.commands.length, 2);
 * assert.equal(script.placeholderCount, 2);
 * ```
 */
export interface ParsedScript {
  /** The text that was parsed. */
  readonly text: string;
  /** The commands, in text order. */
  readonly commands: readonly ParsedCommand[];
  /** The total number of placeholders (= the number of arguments to bind). */
  readonly placeholderCount: number;
}

/** Texts longer than this are parsed every time instead of cached (bulk loads are one-off). */
const MAX_CACHED_TEXT = 64 * 1024;
const cache = new CommandCache<ParsedScript>(1000);

/**
 * Parses command text into commands of fixed chunks and placeholder slots. Results are cached by
 * text (up to 1000 texts of at most 64 KiB), so calling it for every execution is cheap.
 *
 * @param text The command text: one or more `METHOD path[?query] [body]` commands.
 * @returns The parsed script (frozen; shared between callers).
 * @throws {CommandSyntaxError} With line, column and an excerpt when the text is not valid.
 *
 * @example Parse a search with a placeholder
 * ```ts
 * import { parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const script = parseScript(`
 * // find alice
 * GET users/_search
 * {
 *   "query": { "term": { "name": ? } } // exact
 * }`);
 * assert.equal(script.placeholderCount, 1);
 * assert.deepEqual(script.commands[0]!.body, ['{"query":{"term":{"name":', "}}}"]);
 * assert.throws(() => parseScript("GET /idx/_doc/?"), /use \{\?\} for a value in a path/);
 * ```
 */
export function parseScript(text: string): ParsedScript {
  if (text.length > MAX_CACHED_TEXT) return tokenize(text);
  let script = cache.get(text);
  if (script === undefined) {
    script = tokenize(text);
    cache.set(text, script);
  }
  return script;
}

function tokenize(text: string): ParsedScript {
  const n = text.length;
  // The one cursor over the text: the hint, target and body scanners read on from where it stands.
  const lexer = new ConsoleLexer(text);
  const cursor = new PositionCursor(text);
  const commands: ParsedCommand[] = [];
  let hints: ScannedHint[] = [];
  let hintStart = -1;
  let total = 0;
  for (;;) {
    let i = lexer.skipTriviaStrict("stop");
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (c === SEMI) {
      lexer.pos = i + 1;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === STAR && text.charCodeAt(i + 2) === PLUS) {
      if (hintStart < 0) hintStart = i;
      scanHintBlock(lexer, hints);
      continue;
    }
    const start = i;
    const word = wordAt(text, i);
    if (!word) {
      const what = c === LBRACE || c === LBRACKET
        ? `a body without a command before it; start the command with a method such as POST /index/_doc`
        : `unexpected ${
          JSON.stringify(text[i])
        }; a command starts with a method such as GET /index/_search`;
      fail(text, i, what);
    }
    const method = word.toUpperCase();
    if (!METHODS.has(method)) {
      fail(text, i, `unknown method ${word}; use one of GET, POST, PUT, DELETE, HEAD`);
    }
    i += word.length;
    const after = text.charCodeAt(i);
    if (after !== SPACE && after !== TAB && after !== LF && after !== CR) {
      fail(text, i, `missing path after ${method}; write ${method} /index/...`);
    }
    while (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB) i++;
    // Like Kibana's console, the path may stand on the next line (`POST\n_refresh`), unless
    // that line starts a body or another command.
    const eol = i;
    lexer.pos = targetStart(text, eol);
    if (lexer.pos < 0) fail(text, eol, `missing path after ${method}; write ${method} /index/...`);
    const target = scanTarget(lexer);
    const ndjson = isNdjsonPath(target.segments);
    const shape: BodyShape = ndjson ? "ndjson" : "json";
    let end = lexer.pos;
    const next = lexer.skipTriviaStrict("stop");
    const b = text.charCodeAt(next);
    let body = undefined;
    if (b === LBRACE || b === LBRACKET || b === QUESTION) {
      body = scanBody(lexer, shape);
      end = lexer.pos;
      lexer.skipTriviaStrict("stop");
      afterBody(lexer, shape);
    } else if (next < n && b !== SEMI && !(lexer.newline && (isLetter(b) || b === SLASH))) {
      fail(
        text,
        next,
        "unexpected text after the path; a body starts with { or [ and the next command " +
          "starts on a new line or after ;",
      );
    }
    const slots: Slot[] = [];
    for (const hint of hints) {
      if (hint.placeholder) slots.push(slot("hint", cursor.at(hint.offset)));
    }
    const hintSlotCount = slots.length;
    const position = cursor.at(start);
    for (const s of target.slots) {
      slots.push(slot(s.kind, cursor.at(s.offset), s.indexName));
    }
    if (body) { for (const s of body.slots) slots.push(slot(s.kind, cursor.at(s.offset))); }
    commands.push(Object.freeze({
      method: method as Method,
      target: Object.freeze(target.chunks),
      pathTemplate: target.chunks.join("{?}"),
      body: body ? Object.freeze(body.chunks) : undefined,
      slots: Object.freeze(slots),
      hintSlotCount,
      targetSlotCount: target.slots.length,
      hints: Object.freeze(
        hints.map((h) =>
          Object.freeze({ name: h.name, value: h.value, placeholder: h.placeholder })
        ),
      ),
      ndjson,
      endpoint: target.endpoint,
      text: text.slice(start, end),
      offset: start,
      line: position.line,
      column: position.column,
      placeholderCount: slots.length,
    }));
    total += slots.length;
    hints = [];
    hintStart = -1;
  }
  if (hintStart >= 0) fail(text, hintStart, "a hint must be followed by a command");
  return Object.freeze({ text, commands: Object.freeze(commands), placeholderCount: total });
}

function slot(kind: SlotKind, at: { line: number; column: number }, indexName = false): Slot {
  return Object.freeze(
    indexName
      ? { kind, line: at.line, column: at.column, indexName: true as const }
      : { kind, line: at.line, column: at.column },
  );
}

/**
 * After a complete body (`lexer` past it and the trivia that follows) only `;`, the end, or a new
 * command on a new line may follow.
 */
function afterBody(lexer: ConsoleLexer, shape: BodyShape): void {
  const text = lexer.text;
  const next = lexer.pos;
  if (next >= lexer.end) return;
  const c = text.charCodeAt(next);
  if (c === SEMI) return;
  if (lexer.newline && (isLetter(c) || c === SLASH)) return;
  fail(
    text,
    next,
    c === LBRACE || c === LBRACKET
      ? "text after a complete body: only NDJSON endpoints (_bulk, _msearch, …) take several JSON lines"
      : shape === "ndjson"
      ? "text after a complete body; every NDJSON line must be a JSON object or ?"
      : "text after a complete body; start the next command on a new line or after ;",
  );
}
