// The editor's text as commands: where each one starts and ends, which one the cursor is in, and
// how a command's placeholders are bound — `?`/`{?}` from the positional arguments, `#{name}`
// from the named ones (through the template's binder) — before the driver's tokenizer parses it.
// Web standards only: this runs in the page.

import { type ParsedScript, parseScript } from "../../driver/internal.ts";
import { bindTemplate } from "../../template/mod.ts";

/**
 * One command of the editor: its text and its 1-based lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Segment, splitCommands } from "./commands.ts";
 *
 * const [s]: Segment[] = splitCommands("\nGET /a/_count");
 * assert.deepEqual(s, { text: "GET /a/_count", startLine: 2, endLine: 2 });
 * ```
 */
export interface Segment {
  /** The command's text, hints included. */
  readonly text: string;
  /** The first line (1-based). */
  readonly startLine: number;
  /** The last line (1-based, inclusive). */
  readonly endLine: number;
}

const METHOD_LINE = /^(GET|POST|PUT|DELETE|HEAD|PATCH)\s/i;

/**
 * Cuts the editor's text into commands: each starts at a line that begins with a method (a hint
 * block `/*+ … *\/` on the lines right above belongs to it) and runs to the next one.
 *
 * @param text The editor's text.
 * @returns The commands, in order; blank lines at their ends are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitCommands } from "./commands.ts";
 *
 * const parts = splitCommands('GET /a/_search\n\nPUT /a/_doc/1\n{"n": 1}\n');
 * assert.deepEqual(parts.map((s) => [s.startLine, s.endLine]), [[1, 1], [3, 4]]);
 * ```
 */
export function splitCommands(text: string): Segment[] {
  const lines = text.split("\n");
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (!METHOD_LINE.test(line)) return;
    let start = i;
    while (start > 0 && /^\s*\/\*\+/.test(lines[start - 1]!)) start--;
    starts.push(start);
  });
  const segments: Segment[] = [];
  starts.forEach((start, k) => {
    let end = (starts[k + 1] ?? lines.length) - 1;
    while (end > start && lines[end]!.trim() === "") end--;
    segments.push({
      text: lines.slice(start, end + 1).join("\n"),
      startLine: start + 1,
      endLine: end + 1,
    });
  });
  return segments;
}

/**
 * The command the cursor is in: the one whose lines hold it, else the last one above it.
 *
 * @param segments The editor's commands.
 * @param line The cursor's 1-based line.
 * @returns The command, or undefined when none starts at or above the line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { segmentAt, splitCommands } from "./commands.ts";
 *
 * const parts = splitCommands("GET /a/_search\n\nGET /b/_search\n");
 * assert.equal(segmentAt(parts, 2)?.startLine, 1);
 * assert.equal(segmentAt(parts, 3)?.startLine, 3);
 * ```
 */
export function segmentAt(segments: readonly Segment[], line: number): Segment | undefined {
  let found: Segment | undefined;
  for (const s of segments) if (s.startLine <= line) found = s;
  return found;
}

/**
 * What the page sends for one command: the driver text and its arguments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type Prepared, prepare, splitCommands } from "./commands.ts";
 *
 * const p: Prepared = prepare(splitCommands('GET /a/_search {"size": ?}')[0]!, { positional: [2], named: {} });
 * assert.deepEqual(p.args, [2]);
 * ```
 */
export interface Prepared {
  /** The driver's command text, padded with empty lines so errors count the editor's lines. */
  readonly text: string;
  /** The positional arguments. */
  readonly args: readonly unknown[];
  /** The command as the driver's tokenizer parsed it. */
  readonly parsed: ParsedScript;
}

/**
 * The arguments panel: a JSON array for `?`/`{?}`, a JSON object for `#{name}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Arguments } from "./commands.ts";
 *
 * const args: Arguments = { positional: [1, "x"], named: { id: "7" } };
 * assert.equal(args.positional.length, 2);
 * ```
 */
export interface Arguments {
  /** Positional values, in placeholder order across the commands. */
  readonly positional: readonly unknown[];
  /** Named values for `#{name}`. */
  readonly named: Readonly<Record<string, unknown>>;
}

/**
 * True when the text has template placeholders (`#{…}`, `${…}`, `@{…}`).
 *
 * @param text A command's text.
 * @returns Whether the template binds it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTemplate } from "./commands.ts";
 *
 * assert.equal(isTemplate("GET /a/_doc/#{id}"), true);
 * assert.equal(isTemplate("GET /a/_doc/{?}"), false);
 * ```
 */
export function isTemplate(text: string): boolean {
  return /[#$@]\{/.test(text);
}

/**
 * Binds and parses one command. Template text goes through the template's `bindTemplate` with the
 * named arguments; plain text takes positional arguments from `offset` on. The driver's tokenizer
 * then parses the result, so a syntax error is the library's own, caret and all.
 *
 * @param segment The command.
 * @param args The arguments panel.
 * @param offset How many positional arguments the commands before it consumed.
 * @returns The text, arguments and parse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepare, splitCommands } from "./commands.ts";
 *
 * const [cmd] = splitCommands('\nGET /cities/_search\n{"query": {"term": {"country": #{cc}}}}');
 * const p = prepare(cmd!, { positional: [], named: { cc: "FR" } });
 * assert.deepEqual(p.args, ["FR"]);
 * assert.equal(p.parsed.commands[0]!.line, 2);
 * ```
 */
export function prepare(segment: Segment, args: Arguments, offset = 0): Prepared {
  const pad = "\n".repeat(segment.startLine - 1);
  if (isTemplate(segment.text)) {
    const bound = bindTemplate(pad + segment.text, { ...args.named });
    return { text: bound.text, args: bound.args, parsed: parseScript(bound.text) };
  }
  const text = pad + segment.text;
  const parsed = parseScript(text);
  return {
    text,
    args: args.positional.slice(offset, offset + parsed.placeholderCount),
    parsed,
  };
}
