/**
 * Gathers the lines a person types at the prompt into whole commands: a command ends at the end
 * of a line where its JSON body has closed (a body opens on the method line and may span lines);
 * the NDJSON endpoints (`_bulk`, `_msearch`, `_msearch/template`, …) take NDJSON lines up to an
 * empty line; a line starting with `.` is a console directive.
 *
 * @module
 */

import { ConsoleLexer, isNdjsonTarget } from "../driver/internal.ts";

/** What a line completed: a command text, or a console directive such as `.format json`. */
export type Chunk =
  | { readonly kind: "command"; readonly text: string }
  | { readonly kind: "directive"; readonly name: string; readonly args: readonly string[] };

/**
 * Splits a directive line (`.format table`) into its name and arguments.
 *
 * @param line The line, starting with `.`.
 * @returns The directive chunk.
 *
 * @example
 * ```ts
 * import { parseDirective } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(parseDirective(" .format  json "), { kind: "directive", name: "format", args: ["json"] });
 * ```
 */
export function parseDirective(line: string): Chunk {
  const [name = "", ...args] = line.trim().slice(1).split(/\s+/);
  return { kind: "directive", name: name.toLowerCase(), args };
}

/** True when the command's path takes an NDJSON body (the driver's table of such endpoints). */
function isNdjson(firstLine: string): boolean {
  return isNdjsonTarget(firstLine.trim().split(/\s+/)[1] ?? "");
}

/** How far a body has come: its open brackets, and the unclosed string or comment it ends in. */
interface BodyState {
  depth: number;
  /** The text from an unclosed string (`"…`, `"""…`) or block comment on, read again with the next line. */
  tail: string | undefined;
}

/**
 * Counts open `{`/`[` in a body's next line with the driver's lexer (strings, `"""` strings and
 * comments are its tokens); negative when more close than open. A token still open at the end of
 * the line is kept and read again together with the next line.
 *
 * @param text The line (or, on the method line, the text after the path).
 * @param state The state carried over from the previous line; updated.
 */
function scan(text: string, state: BodyState): void {
  const source = state.tail === undefined ? text : `${state.tail}\n${text}`;
  state.tail = undefined;
  const lexer = new ConsoleLexer(source);
  while (lexer.next("body")) {
    if (!lexer.closed) {
      state.tail = source.slice(lexer.start);
      return;
    }
    if (lexer.kind === "open") state.depth++;
    else if (lexer.kind === "close") state.depth--;
  }
}

/**
 * Collects prompt lines into commands.
 *
 * @example A body over three lines, then a directive
 * ```ts
 * import { CommandBuffer } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * const buffer = new CommandBuffer();
 * assert.equal(buffer.push('POST /users/_search {'), null);
 * assert.equal(buffer.pending, true);
 * assert.equal(buffer.push('  "query": {"match_all": {}}'), null);
 * assert.deepEqual(buffer.push("}"), {
 *   kind: "command",
 *   text: 'POST /users/_search {\n  "query": {"match_all": {}}\n}',
 * });
 * assert.deepEqual(buffer.push("GET /users/_doc/{?}"), { kind: "command", text: "GET /users/_doc/{?}" });
 * assert.deepEqual(buffer.push(".timing on"), { kind: "directive", name: "timing", args: ["on"] });
 * ```
 */
export class CommandBuffer {
  #lines: string[] = [];
  #state: BodyState = { depth: 0, tail: undefined };
  #ndjson = false;

  /** True while a command is incomplete (the prompt shows a continuation mark). */
  get pending(): boolean {
    return this.#lines.length > 0;
  }

  /** Drops the incomplete command. */
  reset(): void {
    this.#lines = [];
    this.#state = { depth: 0, tail: undefined };
    this.#ndjson = false;
  }

  /**
   * Adds one typed line.
   *
   * @param line The line, without its newline.
   * @returns The command or directive the line completed, or null when more lines are needed.
   */
  push(line: string): Chunk | null {
    if (!this.pending) {
      const trimmed = line.trim();
      if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith("//")) return null;
      if (trimmed.startsWith(".")) return parseDirective(trimmed);
      this.#lines.push(line);
      this.#ndjson = isNdjson(line);
      // The method and path come first; `{?}` in a path is not a body.
      const body = line.trim().split(/\s+/).slice(2).join(" ");
      scan(body, this.#state);
      if (this.#ndjson && this.#state.depth <= 0 && body === "") return null;
      return this.#ndjson ? null : this.#completeIfClosed();
    }
    if (this.#ndjson) {
      if (line.trim() !== "") {
        this.#lines.push(line);
        return null;
      }
      return this.#take();
    }
    this.#lines.push(line);
    scan(line, this.#state);
    return this.#completeIfClosed();
  }

  #completeIfClosed(): Chunk | null {
    return this.#state.depth <= 0 && this.#state.tail === undefined ? this.#take() : null;
  }

  #take(): Chunk {
    const text = this.#lines.join("\n") + (this.#ndjson ? "\n" : "");
    this.reset();
    return { kind: "command", text };
  }
}
