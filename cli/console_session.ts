/**
 * One console session over a data source: runs command texts (a file, a pipe or what was typed),
 * console directives (`.help`, `.timing`, `.format`, `.load`) and bulk loads, printing results
 * and returning exit codes.
 *
 * @module
 */

import type { DataSource } from "../driver/mod.ts";
import type { BoundCommand } from "../driver/mod.ts";
import { bindScript, parseScript } from "../driver/internal.ts";
import { type Chunk, parseDirective } from "./command_buffer.ts";
import { bulkLoad, readBulkReply } from "./bulk_load.ts";
import { describeError, EXIT, exitCodeOf, type Format, FORMATS, renderResults } from "./output.ts";
import { formatProgress, grouped } from "./progress.ts";

/** What a session reads and writes through; the runtime adapter provides it. */
export interface ConsoleIO {
  /** Writes to stdout (the text has its newlines). */
  out(text: string): void;
  /** Writes to stderr. */
  err(text: string): void;
  /** The terminal's width, or undefined when stdout is not a terminal. */
  width?(): number | undefined;
  /** True when stderr is a terminal (the progress bar redraws in place). */
  errIsTerminal?: boolean;
  /** Opens a file for streaming: its size and its bytes. */
  openFile?(path: string): Promise<{ size?: number; chunks: AsyncIterable<Uint8Array> }>;
  /** The clock in milliseconds (default `performance.now`). */
  now?(): number;
}

/** The help text of `.help`. */
export const HELP: string = `Commands are Kibana console text: METHOD /path[?query] [json body]
  GET /people/_search {"query": {"match": {"name": "ada"}}}
At the prompt a body opens on the method line and may span lines; the command runs when its
JSON closes. _bulk and _msearch take NDJSON lines up to an empty line.

  .help                      this text
  .format table|json|ndjson  how rows are printed (now: %FORMAT%)
  .timing [on|off]           print the time each command took on the client (now: %TIMING%)
  .load FILE [INDEX]         stream an NDJSON file into _bulk requests, with a progress bar
  .exit                      leave (or Ctrl-D)`;

/**
 * A console session.
 *
 * @example Run a script against the embedded engine
 * ```ts
 * import { ConsoleSession } from "@searchvisitor/searchvisitor/cli";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch, indexRefresh: true });
 * let out = "";
 * const session = new ConsoleSession(ds, { out: (t) => (out += t), err: (t) => (out += t) });
 * const status = await session.runScript('PUT /p/_doc/1 {"n": 1}\n.format ndjson\nGET /p/_search\n');
 * assert.equal(status, 0);
 * assert.equal(out, 'OK, 1 affected\n{"_ID":"1","_DOC":"{\\"n\\":1}"}\n');
 * engine.close();
 * ```
 */
export class ConsoleSession {
  /** How rows are printed. */
  format: Format = "table";
  /** Whether each command's client-side time is printed. */
  timing = false;
  readonly #ds: DataSource;
  readonly #io: ConsoleIO;
  readonly #now: () => number;

  /**
   * Creates a session.
   *
   * @param ds The data source commands run on.
   * @param io Where output goes, and how files are read.
   */
  constructor(ds: DataSource, io: ConsoleIO) {
    this.#ds = ds;
    this.#io = io;
    this.#now = io.now ?? (() => performance.now());
  }

  /**
   * Runs a whole text (a file or a pipe): commands in order, and directive lines (`.format json`)
   * where they stand. Stops at the first failure.
   *
   * @param text The text.
   * @param source Its name for messages (`queries.es`, `<stdin>`).
   * @returns The exit code.
   */
  async runScript(text: string, source?: string): Promise<number> {
    const lines = text.split("\n");
    const directives = new Map<number, Chunk>();
    // Directive lines are blanked (not removed), so positions in errors stay those of the file.
    lines.forEach((line, i) => {
      if (/^\s*\.[a-z]/i.test(line)) {
        directives.set(i + 1, parseDirective(line));
        lines[i] = "";
      }
    });
    let commands;
    try {
      commands = bindScript(parseScript(lines.join("\n")), []);
    } catch (error) {
      this.#io.err(describeError(error, source) + "\n");
      return exitCodeOf(error);
    }
    const pending = [...directives.entries()];
    const applyUpTo = async (line: number): Promise<number> => {
      while (pending.length > 0 && pending[0]![0] < line) {
        const status = await this.directive(pending.shift()![1]);
        if (status !== EXIT.ok) return status;
      }
      return EXIT.ok;
    };
    for (const command of commands) {
      const status = (await applyUpTo(command.line)) ||
        (await this.#run([command], source, command.line));
      if (status !== EXIT.ok) return status;
    }
    return await applyUpTo(Infinity);
  }

  /**
   * Runs one chunk from the prompt: a command text or a directive.
   *
   * @param chunk What the command buffer completed.
   * @param signal Aborts the running command or load (Ctrl-C).
   * @returns The exit code, or `"exit"` for `.exit`.
   */
  async runChunk(chunk: Chunk, signal?: AbortSignal): Promise<number | "exit"> {
    if (chunk.kind === "directive") {
      return chunk.name === "exit" || chunk.name === "quit"
        ? "exit"
        : await this.directive(chunk, signal);
    }
    try {
      return await this.#run(bindScript(parseScript(chunk.text), []), undefined, undefined, signal);
    } catch (error) {
      this.#io.err(describeError(error) + "\n");
      return exitCodeOf(error);
    }
  }

  async #run(
    commands: readonly BoundCommand[],
    source?: string,
    line?: number,
    signal?: AbortSignal,
  ): Promise<number> {
    try {
      await this.runCommands(commands, signal);
      return EXIT.ok;
    } catch (error) {
      this.#io.err(describeError(error, source && line ? `${source}:${line}` : source) + "\n");
      return exitCodeOf(error);
    }
  }

  /**
   * Runs bound commands and prints their results (and the time, with `.timing on`).
   *
   * @param commands The commands.
   * @param signal Aborts the command that is running (the later ones do not run).
   */
  async runCommands(commands: readonly BoundCommand[], signal?: AbortSignal): Promise<void> {
    await using conn = await this.#ds.getConnection();
    const stmt = conn.createStatement();
    for (const command of commands) {
      const started = this.#now();
      await stmt.executeCommands([command], { signal });
      const elapsed = this.#now() - started;
      const text = renderResults(stmt, this.format, this.#io.width?.());
      if (text !== "") this.#io.out(text + "\n");
      if (this.timing) this.#io.out(`Time: ${elapsed.toFixed(1)} ms\n`);
    }
  }

  /**
   * Applies a directive.
   *
   * @param chunk The directive.
   * @param signal Aborts a `.load`.
   * @returns The exit code.
   */
  async directive(chunk: Chunk, signal?: AbortSignal): Promise<number> {
    if (chunk.kind !== "directive") return EXIT.ok;
    const [arg, index] = chunk.args;
    switch (chunk.name) {
      case "help":
        this.#io.out(
          HELP.replace("%FORMAT%", this.format).replace("%TIMING%", this.timing ? "on" : "off") +
            "\n",
        );
        return EXIT.ok;
      case "format":
        if (!FORMATS.includes(arg as Format)) {
          this.#io.err(`error: .format takes ${FORMATS.join(", ")}; got ${arg ?? "nothing"}\n`);
          return EXIT.input;
        }
        this.format = arg as Format;
        return EXIT.ok;
      case "timing":
        if (arg !== undefined && arg !== "on" && arg !== "off") {
          this.#io.err(`error: .timing takes on or off; got ${arg}\n`);
          return EXIT.input;
        }
        this.timing = arg === undefined ? !this.timing : arg === "on";
        this.#io.out(`Timing is ${this.timing ? "on" : "off"}.\n`);
        return EXIT.ok;
      case "load":
        if (arg === undefined) {
          this.#io.err("error: .load needs a file: .load FILE [INDEX]\n");
          return EXIT.input;
        }
        return await this.load(arg, index, signal);
      default:
        this.#io.err(`error: unknown directive .${chunk.name}; .help lists them\n`);
        return EXIT.input;
    }
  }

  /**
   * Streams an NDJSON file into `_bulk` requests with a progress bar, then refreshes.
   *
   * @param path The file.
   * @param index The index for plain documents (and actions without `_index`).
   * @param signal Stops the load between requests.
   * @returns The exit code: failed when any document was refused.
   */
  async load(path: string, index?: string, signal?: AbortSignal): Promise<number> {
    const io = this.#io;
    if (!io.openFile) {
      io.err("error: this console cannot read files\n");
      return EXIT.input;
    }
    const width = () => io.width?.() ?? 80;
    let drawn = false;
    try {
      const file = await io.openFile(path);
      const transport = this.#ds.transport;
      const result = await bulkLoad(file.chunks, {
        index,
        signal,
        now: this.#now,
        ...(file.size !== undefined ? { totalBytes: file.size } : {}),
        send: async (target, body, signal) => {
          const res = await transport.request({
            method: "POST",
            path: target,
            body,
            ndjson: true,
            signal,
            command: `POST ${target} (from ${path})`,
          });
          return readBulkReply(res.body);
        },
        onProgress: (p) => {
          if (!io.errIsTerminal) return;
          io.err(`\r${formatProgress(p, width() - 1)}`);
          drawn = true;
        },
      });
      if (drawn) io.err("\r" + " ".repeat(width() - 1) + "\r");
      await transport.request({
        method: "POST",
        path: index ? `/${encodeURIComponent(index)}/_refresh` : "/_refresh",
      });
      const rate = result.elapsedMs > 0 ? (result.docs * 1000) / result.elapsedMs : 0;
      io.out(
        `Loaded ${grouped(result.docs)} docs from ${path} in ${
          (result.elapsedMs / 1000).toFixed(1)
        } s ` +
          `(${grouped(rate)} docs/s)${
            result.failed ? `, ${grouped(result.failed)} refused` : ""
          }\n`,
      );
      for (const reason of result.firstFailures) io.err(`  refused: ${reason}\n`);
      return result.failed > 0 ? EXIT.failed : EXIT.ok;
    } catch (error) {
      if (drawn) io.err("\n");
      io.err(describeError(error, path) + "\n");
      return exitCodeOf(error);
    }
  }
}
