#!/usr/bin/env node
/**
 * The `searchvisitor` console as a program: `deno task cli`, the npm package's `searchvisitor`
 * bin, or `bun cli/main.ts`. This file is the runtime adapter: it reaches the terminal, files,
 * stdin and the environment through `node:` modules, which Deno, Node and Bun all provide.
 *
 * @example
 * ```sh
 * deno task cli --engine --load cities.ndjson --index cities
 * searchvisitor --url http://127.0.0.1:9200 --user elastic queries.es
 * ```
 *
 * @module
 */

import { createReadStream, readFileSync, writeFileSync } from "node:fs";
import { readdir, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { type CliHost, INTERRUPT, type LineReader, runCli } from "./mod.ts";

const HISTORY_SIZE = 1000;

function historyFile(): string | undefined {
  try {
    return process.env.SEARCHVISITOR_HISTORY ?? join(homedir(), ".searchvisitor_history");
  } catch {
    return undefined;
  }
}

function version(): string | undefined {
  for (const name of ["../../package.json", "../deno.json"]) {
    try {
      const url = new URL(name, import.meta.url);
      if (url.protocol !== "file:") return undefined;
      const parsed = JSON.parse(readFileSync(url, "utf8"));
      if (parsed.name === "@searchvisitor/searchvisitor") return parsed.version;
    } catch {
      // not there: try the next
    }
  }
  return undefined;
}

function openPrompt(): LineReader {
  const file = historyFile();
  let history: string[] = [];
  try {
    if (file) history = readFileSync(file, "utf8").split("\n").filter((l) => l !== "").reverse();
  } catch {
    // no history yet
  }
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
    history: history.slice(0, HISTORY_SIZE),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
  });
  rl.on("history", (lines: string[]) => (history = lines));
  // Lines typed (or pasted) while a command runs wait here for the next read.
  const queued: (string | null)[] = [];
  let waiting: ((line: string | null) => void) | undefined;
  let interrupt: (() => void) | undefined;
  let cooked = false;
  let closed = false;
  const answer = (value: string | null) => {
    const resolve = waiting;
    waiting = undefined;
    if (resolve) resolve(value);
    else queued.push(value);
  };
  rl.on("line", (line) => answer(line));
  rl.on("SIGINT", () => {
    process.stdout.write("^C\n");
    if (interrupt) interrupt();
    else answer(INTERRUPT);
  });
  rl.on("close", () => {
    closed = true;
    answer(null);
  });
  return {
    read(prompt) {
      if (queued.length > 0) {
        // Typed ahead: the terminal has shown it already.
        return Promise.resolve(queued.shift()!);
      }
      if (closed) return Promise.resolve(null);
      return new Promise((resolve) => {
        waiting = resolve;
        rl.setPrompt(prompt);
        rl.prompt(true); // keep the cursor after what was typed ahead
      });
    },
    onInterrupt(handler, long) {
      // During a long load the terminal leaves raw mode, so Ctrl-C is a real SIGINT: it arrives
      // even while the runtime is too busy to read stdin (Deno reads it only between prompts).
      // Short commands keep raw mode, so lines typed ahead are kept whole for the next prompts.
      if (interrupt) process.off("SIGINT", interrupt);
      if (cooked && process.stdin.isTTY) process.stdin.setRawMode(true);
      interrupt = handler;
      cooked = handler !== undefined && long === true;
      if (cooked && process.stdin.isTTY) process.stdin.setRawMode(false);
      if (handler) process.on("SIGINT", handler);
    },
    close() {
      if (file) {
        try {
          const text = [...history].slice(0, HISTORY_SIZE).reverse().join("\n");
          writeFileSync(file, text + "\n", { mode: 0o600 });
        } catch {
          // history is a convenience: never fail the session for it
        }
      }
      if (!closed) rl.close();
    },
  };
}

async function readText(path: string): Promise<string> {
  if (path !== "-") return readFileSync(path, "utf8");
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
  return new TextDecoder().decode(await new Blob(chunks as BlobPart[]).arrayBuffer());
}

const host: CliHost = {
  args: process.argv.slice(2),
  env: (name) => process.env[name],
  readText,
  stdinIsTerminal: process.stdin.isTTY === true,
  openPrompt,
  version: version(),
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  width: () => (process.stdout.isTTY ? process.stdout.columns : undefined),
  errIsTerminal: process.stderr.isTTY === true,
  writeText: (path, text) => writeFile(path, text, "utf8"),
  listDir: (path) => readdir(path),
  openFile: async (path) => ({
    size: (await stat(path)).size,
    chunks: createReadStream(path, { highWaterMark: 256 * 1024 }),
  }),
};

/**
 * `--engine --playground [--opensearch] [--port N]`: the playground page instead of the prompt
 * (docs/playground.md). Returns the exit code of a bad command line, or undefined once it serves.
 */
async function playground(args: readonly string[]): Promise<number | undefined> {
  const rest = args.filter((a) => a !== "--engine" && a !== "--playground" && a !== "--opensearch");
  const port = rest[0] === "--port" && rest.length === 2 ? Number(rest[1]) : rest.length ? NaN : 0;
  if (!args.includes("--engine") || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(
      "searchvisitor: --playground goes with --engine (and optionally --opensearch, --port N)\n",
    );
    return 64;
  }
  const { startPlayground } = await import("../playground/mod.ts");
  try {
    const page = await startPlayground({ port, opensearch: args.includes("--opensearch") });
    process.stdout.write(`searchvisitor playground: ${page.url}\n(Ctrl-C stops it)\n`);
    process.on("SIGINT", () => void page.close().then(() => process.exit(0)));
    return undefined;
  } catch (error) {
    process.stderr.write(`searchvisitor: ${(error as Error).message}\n`);
    return 2;
  }
}

if ((import.meta as { main?: boolean }).main !== false) {
  process.exitCode = host.args.includes("--playground")
    ? await playground(host.args)
    : await runCli(host);
}
