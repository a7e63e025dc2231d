/**
 * `searchvisitor check [files…] [--mapping snapshot.json | --url URL] [--flavor F] [--format F]`
 * (a linter over console files, mapper files and the command texts of TypeScript/JavaScript
 * sources; exit 1 on errors) and `searchvisitor mapping --url URL` (prints the `GET _mapping`
 * snapshot the checker reads).
 *
 * @module
 */

import { DataSource, type FetchFunction } from "../driver/mod.ts";
import {
  type CheckOptions,
  checkSource,
  checkStatementText,
  type FileDiagnostic,
  IndexMappings,
  MappingModel,
  sourceKindOf,
} from "../check/mod.ts";
import { parseMapperFile } from "../xml/mod.ts";
import { EXIT } from "./output.ts";
import { UsageError } from "./args.ts";

/** What `check` and `mapping` need from their runtime (a `CliHost` has it). */
export interface CheckHost {
  /** Reads a whole text file (`-` = stdin). */
  readText(path: string): Promise<string>;
  /** Reads an environment variable. */
  env(name: string): string | undefined;
  /** Writes to stdout. */
  out(text: string): void;
  /** Writes to stderr. */
  err(text: string): void;
  /** The fetch for `--url` (the runtime's when absent). */
  fetch?: FetchFunction;
}

/** The text of `searchvisitor check --help`. */
export const CHECK_USAGE: string =
  `usage: searchvisitor check [files…] [--mapping snapshot.json | --url URL] [--flavor elasticsearch|opensearch] [--format text|json]
       searchvisitor mapping --url URL > snapshot.json

Checks command texts before they run: console files, mapper files (.xml) and the string and
template literals of .ts/.js sources that start with a method. Each finding points at its token
with a caret. Exit status 1 when any error is found (warnings alone exit 0).

  --mapping FILE   check fields against a mapping snapshot (from \`searchvisitor mapping\`)
  --url URL        read the mapping from a live cluster (GET _mapping)
  --flavor F       elasticsearch (default) or opensearch: OpenSearch's own APIs are known
  --format F       text (default) or json (one array of findings)`;

interface CheckArgs {
  files: string[];
  mapping?: string;
  url?: string;
  flavor: "elasticsearch" | "opensearch";
  format: "text" | "json";
  help: boolean;
}

function parseCheckArgs(args: readonly string[]): CheckArgs {
  const out: CheckArgs = { files: [], flavor: "elasticsearch", format: "text", help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--help" || a === "-h") out.help = true;
    else if (a === "--mapping") out.mapping = value();
    else if (a === "--url") out.url = value();
    else if (a === "--flavor") {
      const v = value();
      if (v !== "elasticsearch" && v !== "opensearch") {
        throw new UsageError(`--flavor takes elasticsearch or opensearch, not ${v}`);
      }
      out.flavor = v;
    } else if (a === "--format") {
      const v = value();
      if (v !== "text" && v !== "json") {
        throw new UsageError(`--format takes text or json, not ${v}`);
      }
      out.format = v;
    } else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}; see check --help`);
    else out.files.push(a);
  }
  if (out.mapping !== undefined && out.url !== undefined) {
    throw new UsageError("give --mapping or --url, not both");
  }
  return out;
}

// The snapshot: `GET /_mapping` with each index's aliases beside its mappings (`GET /_alias`),
// so a check finds an index by its alias too.
async function liveMapping(url: string, fetch: FetchFunction | undefined): Promise<unknown> {
  const ds = new DataSource(url, fetch ? { fetch } : {});
  const get = async (path: string) => {
    const res = await ds.transport.request({ method: "GET", path });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return JSON.parse(res.body) as Record<string, Record<string, unknown>>;
  };
  const mappings = await get("/_mapping");
  const aliases = await get("/_alias");
  for (const [index, entry] of Object.entries(aliases)) {
    if (mappings[index] && entry?.aliases) mappings[index]!.aliases = entry.aliases;
  }
  return mappings;
}

// A snapshot of several indices is kept per index; a bare `mappings`/`properties` object applies
// to every command.
function checkMappings(snapshot: unknown): Pick<CheckOptions, "mapping" | "mappings"> {
  const o = snapshot as Record<string, unknown> | null;
  if (o && typeof o === "object" && !("properties" in o || "mappings" in o || "dynamic" in o)) {
    return { mappings: IndexMappings.from(o) };
  }
  return { mapping: MappingModel.from(snapshot) };
}

/**
 * Runs `searchvisitor check …`.
 *
 * @param args The arguments after `check`.
 * @param host The runtime adapter.
 * @returns The exit code: 0 clean (or warnings only), 1 errors found, 2 unreadable input, 64 usage.
 * @example
 * ```ts
 * import { type CheckHost, runCheck } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * let out = "";
 * const host: CheckHost = {
 *   env: () => undefined,
 *   readText: () => Promise.resolve('GET /users/_search {"query": {"trem": {"a": 1}}}\n'),
 *   out: (t) => (out += t),
 *   err: (t) => (out += t),
 * };
 * assert.equal(await runCheck(["q.es"], host), 1);
 * assert.match(out, /q\.es:1:31: error unknown-key: unknown query "trem"; did you mean "term"\?/);
 * ```
 */
export async function runCheck(args: readonly string[], host: CheckHost): Promise<number> {
  let options: CheckArgs;
  try {
    options = parseCheckArgs(args);
  } catch (error) {
    host.err(`searchvisitor check: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  if (options.help) {
    host.out(CHECK_USAGE + "\n");
    return EXIT.ok;
  }
  const check: { -readonly [K in keyof CheckOptions]: CheckOptions[K] } = {
    flavor: options.flavor,
  };
  try {
    if (options.mapping !== undefined) {
      Object.assign(check, checkMappings(JSON.parse(await host.readText(options.mapping))));
    } else if (options.url !== undefined) {
      Object.assign(check, checkMappings(await liveMapping(options.url, host.fetch)));
    }
  } catch (error) {
    host.err(`searchvisitor check: cannot read the mapping (${(error as Error).message})\n`);
    return EXIT.input;
  }
  const all: (FileDiagnostic & { file: string })[] = [];
  const files = options.files.length > 0 ? options.files : ["-"];
  for (const file of files) {
    const name = file === "-" ? "<stdin>" : file;
    let text: string;
    try {
      text = await host.readText(file);
    } catch (error) {
      host.err(`${name}: error: cannot read it (${(error as Error).message})\n`);
      return EXIT.input;
    }
    for (const d of checkFile(name, text, check)) all.push({ ...d, file: name });
  }
  const errors = all.filter((d) => d.severity === "error").length;
  if (options.format === "json") {
    host.out(JSON.stringify(all.map(({ rendered: _, ...d }) => d), null, 2) + "\n");
  } else {
    for (const d of all) {
      const [first, ...rest] = d.rendered.split("\n");
      host.out(
        `${d.file}:${d.line}:${d.column}: ${first!.replace(/ \(line \d+, column \d+\)$/, "")}\n`,
      );
      host.out(rest.map((l) => `  ${l}`).join("\n") + "\n");
    }
    const warnings = all.length - errors;
    host.out(`${errors} error(s), ${warnings} warning(s) in ${files.length} file(s)\n`);
  }
  return errors > 0 ? EXIT.failed : EXIT.ok;
}

function checkFile(name: string, text: string, options: CheckOptions): FileDiagnostic[] {
  const kind = sourceKindOf(name);
  if (kind !== "xml") return checkSource(text, kind, options);
  const out: FileDiagnostic[] = [];
  let file;
  try {
    file = parseMapperFile(text, { file: name });
  } catch (error) {
    const message = (error as Error).message;
    return [{
      code: "syntax",
      severity: "error",
      message,
      line: 1,
      column: 1,
      length: 1,
      rendered: `error syntax: ${message}`,
    }];
  }
  for (const statement of file.statements.values()) {
    let rendered;
    try {
      // With no arguments the optional parts fall away; what remains must be a valid command.
      rendered = statement.render({});
    } catch {
      continue;
    }
    const fileLines = text.split("\n");
    const statementLines = rendered.text.split("\n");
    for (const d of checkStatementText(rendered.text, statement.line, options)) {
      out.push(
        placeInFile(d, statementLines[d.line - statement.line] ?? "", fileLines, statement.line),
      );
    }
  }
  return out;
}

// A rendered statement line is found again in the file (from the statement's line on), so the
// finding points at the file's line and column; when it is not found, the statement's position.
function placeInFile(
  d: FileDiagnostic,
  renderedLine: string,
  fileLines: readonly string[],
  from: number,
): FileDiagnostic {
  const content = renderedLine.trim();
  if (content === "") return d;
  const lead = renderedLine.length - renderedLine.trimStart().length;
  for (let i = from - 1; i < fileLines.length; i++) {
    const k = fileLines[i]!.indexOf(content);
    if (k >= 0) return { ...d, line: i + 1, column: d.column - lead + k };
  }
  return d;
}

/**
 * Runs `searchvisitor mapping --url URL`: prints the cluster's `GET _mapping` as JSON, each
 * index with its aliases (the snapshot `check --mapping` reads; a command is checked against the
 * mapping of the index or alias it names).
 *
 * @param args The arguments after `mapping`.
 * @param host The runtime adapter.
 * @returns The exit code.
 * @example
 * ```ts
 * import { type CheckHost, runMapping } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * let err = "";
 * const host: CheckHost = {
 *   env: () => undefined,
 *   readText: () => Promise.resolve(""),
 *   out: () => {},
 *   err: (t) => (err += t),
 * };
 * assert.equal(await runMapping([], host), 64);
 * assert.match(err, /needs --url/);
 * ```
 */
export async function runMapping(args: readonly string[], host: CheckHost): Promise<number> {
  const at = args.indexOf("--url");
  const url = at >= 0 ? args[at + 1] : host.env("SEARCHVISITOR_URL");
  if (!url) {
    host.err("searchvisitor mapping: needs --url URL (or SEARCHVISITOR_URL)\n");
    return EXIT.usage;
  }
  try {
    host.out(JSON.stringify(await liveMapping(url, host.fetch), null, 2) + "\n");
    return EXIT.ok;
  } catch (error) {
    host.err(`searchvisitor mapping: ${(error as Error).message}\n`);
    return EXIT.connection;
  }
}
