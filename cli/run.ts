/**
 * The console's main loop, free of runtime APIs: the adapter (`main.ts`) hands it the arguments,
 * the environment, files, stdin and a line reader.
 *
 * @module
 */

import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { authOf, parseArgs, USAGE, UsageError } from "./args.ts";
import { CommandBuffer } from "./command_buffer.ts";
import { describeError, EXIT, exitCodeOf } from "./output.ts";
import { type ConsoleIO, ConsoleSession } from "./console_session.ts";
import { runCheck, runMapping } from "./check_cli.ts";
import { type GenHost, runGen } from "./gen_cli.ts";
import { runMigrate } from "./migrate_cli.ts";

/** What {@linkcode LineReader.read} returns when the person pressed Ctrl-C. */
export const INTERRUPT = "\u0003";

/** Reads typed lines with editing and history (the adapter's readline). */
export interface LineReader {
  /**
   * Shows the prompt and reads one line.
   *
   * @param prompt The prompt.
   * @returns The line, {@linkcode INTERRUPT} for Ctrl-C, or null at end of input (Ctrl-D).
   */
  read(prompt: string): Promise<string | null>;
  /**
   * Routes Ctrl-C to `handler` while a command runs (instead of to `read`); undefined restores.
   *
   * @param handler Called on Ctrl-C.
   * @param long True for a long, busy operation (a bulk load): Ctrl-C must reach it even when
   * the runtime has no time to read the terminal.
   */
  onInterrupt?(handler: (() => void) | undefined, long?: boolean): void;
  /** Stops reading (and saves the history). */
  close(): void;
}

/** Everything the console needs from its runtime. */
export interface CliHost extends ConsoleIO, Pick<GenHost, "writeText"> {
  /** The arguments after the program name. */
  args: readonly string[];
  /** Reads an environment variable. */
  env(name: string): string | undefined;
  /** Reads a whole text file (`-` = stdin). */
  readText(path: string): Promise<string>;
  /** True when stdin is a terminal (then no file means the interactive prompt). */
  stdinIsTerminal: boolean;
  /** Opens the interactive line reader. */
  openPrompt(): LineReader;
  /** The package version, for `--version`. */
  version?: string;
  /** Lists the file names of a folder (`searchvisitor migrate --dir`). */
  listDir?(path: string): Promise<string[]>;
}

/**
 * Runs the console and returns its exit code.
 *
 * @param host The runtime adapter.
 * @returns The exit code (see {@linkcode EXIT}).
 *
 * @example Commands piped in, against the embedded engine
 * ```ts
 * import { type CliHost, runCli } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * let out = "";
 * const host: CliHost = {
 *   args: ["--engine", "--format", "json", "-"],
 *   env: () => undefined,
 *   readText: () => Promise.resolve('PUT /p/_doc/1?refresh=true {"n": 1}\nGET /p/_count\n'),
 *   stdinIsTerminal: false,
 *   openPrompt: () => { throw new Error("not interactive"); },
 *   out: (t) => (out += t),
 *   err: (t) => (out += t),
 * };
 * assert.equal(await runCli(host), 0);
 * assert.equal(out, '{"updated":1}\n[\n  {\n    "COUNT": 1\n  }\n]\n');
 * ```
 */
export async function runCli(host: CliHost): Promise<number> {
  if (host.args[0] === "check") return await runCheck(host.args.slice(1), host);
  if (host.args[0] === "mapping") return await runMapping(host.args.slice(1), host);
  if (host.args[0] === "gen") return await runGen(host.args.slice(1), host);
  if (host.args[0] === "migrate") return await runMigrate(host.args.slice(1), host);
  let options;
  let engine: Engine | undefined;
  try {
    options = parseArgs(host.args);
    if (options.help) {
      host.out(USAGE + "\n");
      return EXIT.ok;
    }
    if (options.version) {
      host.out(`searchvisitor ${host.version ?? "(development)"}\n`);
      return EXIT.ok;
    }
    const common = { auth: authOf(options, host.env), indexRefresh: options.refresh };
    let ds: DataSource;
    if (options.engine) {
      engine = new Engine({ flavour: options.opensearch ? "opensearch" : "elasticsearch" });
      ds = new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch, ...common });
    } else {
      ds = new DataSource(
        options.url ?? host.env("SEARCHVISITOR_URL") ?? "http://127.0.0.1:9200",
        common,
      );
    }
    const session = new ConsoleSession(ds, host);
    session.format = options.format;
    session.timing = options.timing;
    if (options.load !== undefined) {
      const status = await session.load(options.load, options.index);
      if (status !== EXIT.ok) return status;
    }
    if (options.files.length > 0 || !host.stdinIsTerminal) {
      for (const file of options.files.length > 0 ? options.files : ["-"]) {
        const name = file === "-" ? "<stdin>" : file;
        let text: string;
        try {
          text = await host.readText(file);
        } catch (error) {
          host.err(
            `${name}: error: cannot read it (${error instanceof Error ? error.message : error})\n`,
          );
          return EXIT.input;
        }
        const status = await session.runScript(text, name);
        if (status !== EXIT.ok) return status;
      }
      return EXIT.ok;
    }
    return await interactive(session, ds, host, engine !== undefined ? "embedded engine" : "nodes");
  } catch (error) {
    if (error instanceof UsageError || error instanceof TypeError) {
      host.err(`searchvisitor: ${error.message}\n`);
      return EXIT.usage;
    }
    host.err(describeError(error) + "\n");
    return exitCodeOf(error);
  } finally {
    engine?.close();
  }
}

/** The interactive console over `ds`, which talks to the embedded engine or to `ds.nodes`. */
async function interactive(
  session: ConsoleSession,
  ds: DataSource,
  host: CliHost,
  over: "embedded engine" | "nodes",
): Promise<number> {
  const where = over === "embedded engine" ? "the embedded engine" : ds.nodes.join(", ");
  let banner = `searchvisitor console: ${where}`;
  try {
    await using conn = await ds.getConnection();
    const info = await conn.serverInfo();
    banner += ` (${info.flavour} ${info.version})`;
  } catch (error) {
    host.err(describeError(error) + "\n");
  }
  host.out(`${banner}\nType .help for help, Ctrl-D to leave.\n`);
  const reader = host.openPrompt();
  const buffer = new CommandBuffer();
  try {
    for (;;) {
      const line = await reader.read(buffer.pending ? "   ...> " : "sv> ");
      if (line === null) break;
      if (line === INTERRUPT) {
        if (buffer.pending) buffer.reset();
        else host.out("(Ctrl-D or .exit leaves)\n");
        continue;
      }
      const chunk = buffer.push(line);
      if (chunk === null) continue;
      // Ctrl-C while it runs aborts it; a failed command was reported and the prompt goes on.
      const controller = new AbortController();
      const long = chunk.kind === "directive" && chunk.name === "load";
      reader.onInterrupt?.(() => controller.abort(new Error("interrupted (Ctrl-C)")), long);
      try {
        if ((await session.runChunk(chunk, controller.signal)) === "exit") break;
      } finally {
        reader.onInterrupt?.(undefined);
      }
    }
  } finally {
    reader.close();
  }
  host.out("\n");
  return EXIT.ok;
}
