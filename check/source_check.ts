/**
 * Finds command texts in files and checks them: console files, Markdown code blocks, and the
 * string and template literals of TypeScript/JavaScript sources that start with a method
 * (`"GET /users/_search …"`, as passed to JdbcTemplate, statements and decorators). Positions
 * are mapped back into the file, escapes included. Mapper files (XML) are checked through the
 * mapper layer, which renders their statements ({@linkcode checkStatementText}).
 *
 * @module
 */

import {
  checkCommand,
  type CheckOptions,
  type Diagnostic,
  formatDiagnostic,
} from "./check_command.ts";
import { LineIndex } from "../driver/internal.ts";

/** What a file holds. */
export type SourceKind = "console" | "script" | "markdown";

/** A command text found in a file, and where each of its characters sits in the file. */
export interface FoundCommand {
  /** The command text (literal decoded). */
  readonly text: string;
  /** For each character of `text`, its offset in the file. */
  readonly offsets: readonly number[];
}

/**
 * A diagnostic placed in a file, with its rendering (caret under the token in the file).
 *
 * @example
 * ```ts
 * import { checkSource, type FileDiagnostic } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const [d]: FileDiagnostic[] = checkSource("GET /a/_serach\n", "console");
 * assert.equal(d!.code, "unknown-endpoint");
 * assert.match(d!.rendered, /\^\^\^\^\^\^\^$/);
 * ```
 */
export interface FileDiagnostic extends Diagnostic {
  /** The message, the source line and the caret, as the driver prints syntax errors. */
  readonly rendered: string;
}

const COMMAND_START = /^\s*(\/\*\+[\s\S]*?\*\/\s*)?(GET|POST|PUT|DELETE|HEAD)\s+[^\s]/;

/**
 * The kind of a file by its name: `.ts`/`.js`/… are scripts, `.md` Markdown, anything else
 * console text.
 *
 * @param name The file name.
 * @returns The kind, or `"xml"` for a mapper file.
 * @example
 * ```ts
 * import { sourceKindOf } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * assert.equal(sourceKindOf("users.ts"), "script");
 * assert.equal(sourceKindOf("README.md"), "markdown");
 * assert.equal(sourceKindOf("queries.es"), "console");
 * assert.equal(sourceKindOf("mapper.xml"), "xml");
 * ```
 */
export function sourceKindOf(name: string): SourceKind | "xml" {
  if (/\.(m|c)?(t|j)sx?$/.test(name)) return "script";
  if (/\.(md|markdown)$/.test(name)) return "markdown";
  if (name.endsWith(".xml")) return "xml";
  return "console";
}

/**
 * Finds the command texts of a file.
 *
 * @param text The file's text.
 * @param kind What the file holds.
 * @returns The command texts in file order.
 * @example
 * ```ts
 * import { findCommands } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const found = findCommands('const n = await t.queryForNumber("GET /users/_count");', "script");
 * assert.deepEqual(found.map((f) => f.text), ["GET /users/_count"]);
 * assert.equal(found[0]!.offsets[0], 34);
 * ```
 */
export function findCommands(text: string, kind: SourceKind): FoundCommand[] {
  if (kind === "console") {
    return COMMAND_START.test(text) || /\S/.test(text)
      ? [{ text, offsets: Array.from({ length: text.length }, (_, i) => i) }]
      : [];
  }
  if (kind === "script") return literals(text, 0);
  const out: FoundCommand[] = [];
  const fence = /^(```+|~~~+)[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm;
  for (const m of text.matchAll(fence)) {
    const lang = m[2]!.toLowerCase();
    const body = m[3]!;
    const base = m.index! + m[0].indexOf("\n") + 1;
    if (["ts", "typescript", "js", "javascript", "tsx", "jsx", "mjs"].includes(lang)) {
      out.push(...literals(body, base));
    } else if (["", "console", "http", "es", "text"].includes(lang) && COMMAND_START.test(body)) {
      out.push({ text: body, offsets: Array.from({ length: body.length }, (_, i) => base + i) });
    }
  }
  return out;
}

// The string and template literals of a script whose text starts with a method.
function literals(src: string, base: number): FoundCommand[] {
  const out: FoundCommand[] = [];
  let i = 0;
  const n = src.length;
  const take = (text: string, offsets: number[]) => {
    if (COMMAND_START.test(text)) out.push({ text, offsets: offsets.map((o) => o + base) });
  };
  const readQuoted = (quote: string): void => {
    let text = "";
    const offsets: number[] = [];
    i++;
    while (i < n && src[i] !== quote) {
      if (src[i] === "\n" && quote !== "`") return;
      if (src[i] === "\\") {
        const [c, len] = unescape(src, i);
        text += c;
        for (let k = 0; k < c.length; k++) offsets.push(i);
        i += len;
        continue;
      }
      if (quote === "`" && src[i] === "$" && src[i + 1] === "{") {
        // An interpolation stays in the text as `${…}`: the checker reads it as a placeholder.
        const start = i;
        let depth = 0;
        for (; i < n; i++) {
          if (src[i] === "{") depth++;
          else if (src[i] === "}" && --depth === 0) break;
        }
        for (let k = start; k <= i && k < n; k++) {
          text += src[k];
          offsets.push(k);
        }
        i++;
        continue;
      }
      text += src[i];
      offsets.push(i);
      i++;
    }
    i++;
    take(text, offsets);
  };
  while (i < n) {
    const c = src[i]!;
    if (c === "/" && src[i + 1] === "/") {
      while (i < n && src[i] !== "\n") i++;
    } else if (c === "/" && src[i + 1] === "*") {
      const close = src.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      readQuoted(c);
    } else i++;
  }
  return out;
}

function unescape(src: string, at: number): [string, number] {
  const c = src[at + 1] ?? "";
  switch (c) {
    case "n":
      return ["\n", 2];
    case "t":
      return ["\t", 2];
    case "r":
      return ["\r", 2];
    case "u": {
      if (src[at + 2] === "{") {
        const close = src.indexOf("}", at);
        return [String.fromCodePoint(parseInt(src.slice(at + 3, close), 16)), close - at + 1];
      }
      return [String.fromCharCode(parseInt(src.slice(at + 2, at + 6), 16)), 6];
    }
    case "x":
      return [String.fromCharCode(parseInt(src.slice(at + 2, at + 4), 16)), 4];
    case "\n":
      return ["", 2];
    default:
      return [c, 2];
  }
}

/**
 * Checks every command text of a file; positions are the file's.
 *
 * @param text The file's text.
 * @param kind What it holds (see {@linkcode sourceKindOf}).
 * @param options As for `checkCommand`.
 * @returns The diagnostics, in file order.
 * @example A mistake inside a string literal, found at its place in the file
 * ```ts
 * import { checkSource } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const src = 'await template.queryForList(\n  `GET /users/_search {"query": {"trem": {"name": ${name}}}}`);';
 * const [d] = checkSource(src, "script");
 * assert.deepEqual([d!.line, d!.column, d!.suggestion], [2, 34, "term"]);
 * ```
 */
export function checkSource(
  text: string,
  kind: SourceKind,
  options: CheckOptions = {},
): FileDiagnostic[] {
  const fileLines = new LineIndex(text);
  const out: FileDiagnostic[] = [];
  for (const found of findCommands(text, kind)) {
    const lines = new LineIndex(found.text);
    for (const d of checkCommand(found.text, options)) {
      const local = lines.offsetOf(d.line, d.column);
      const at = found.offsets[Math.min(local, found.offsets.length - 1)] ?? 0;
      const endLocal = Math.min(local + d.length - 1, found.offsets.length - 1);
      const end = found.offsets[endLocal] ?? at;
      const { line, column } = fileLines.positionOf(at);
      const placed: Diagnostic = { ...d, line, column, length: Math.max(1, end - at + 1) };
      out.push({ ...placed, rendered: formatDiagnostic(text, placed) });
    }
  }
  return out;
}

/**
 * Checks a statement's text that was rendered from elsewhere (a mapper file's statement): the
 * diagnostics keep the statement text's positions, moved down to the statement's first line in
 * its file; the rendering shows the statement text.
 *
 * @param text The statement's template text.
 * @param firstLine The 1-based line of the statement in its file.
 * @param options As for `checkCommand`.
 * @returns The diagnostics.
 * @example
 * ```ts
 * import { checkStatementText } from "@searchvisitor/searchvisitor/check";
 * import assert from "node:assert/strict";
 *
 * const [d] = checkStatementText("GET /a/_search?szie=1", 10);
 * assert.equal(d!.line, 10);
 * assert.equal(d!.suggestion, "size");
 * ```
 */
export function checkStatementText(
  text: string,
  firstLine: number,
  options: CheckOptions = {},
): FileDiagnostic[] {
  return checkCommand(text, options).map((d) => ({
    ...d,
    line: d.line + firstLine - 1,
    rendered: formatDiagnostic(text, d),
  }));
}
