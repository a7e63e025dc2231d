/**
 * `searchvisitor gen (--url URL | --engine [files…] | --mapping FILE) --index NAME [--out FILE]
 * [--class NAME] [--import SPEC]`: the TypeScript entity class of an index's live mapping (see
 * `entitySourceFromMapping` in the template layer; this is its command line).
 *
 * @module
 */

import { DataSource, type FetchFunction } from "../driver/mod.ts";
import { entitySourceFromMapping } from "../template/mod.ts";
import { Engine } from "../engine/mod.ts";
import { ConsoleSession } from "./console_session.ts";
import { describeError, EXIT, exitCodeOf } from "./output.ts";
import { UsageError } from "./args.ts";

/**
 * What `gen` needs from its runtime (a `CliHost` has it, `writeText` from the adapter).
 *
 * @example
 * ```ts
 * import { type GenHost, runGen } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * const files: Record<string, string> = {
 *   "snap.json": '{"tags": {"mappings": {"properties": {"name": {"type": "keyword"}}}}}',
 * };
 * const host: GenHost = {
 *   env: () => undefined,
 *   readText: (path) => Promise.resolve(files[path]!),
 *   writeText: (path, text) => Promise.resolve(void (files[path] = text)),
 *   out: () => {},
 *   err: () => {},
 * };
 * assert.equal(await runGen(["--mapping", "snap.json", "--index", "tags", "--out", "tag.ts"], host), 0);
 * assert.match(files["tag.ts"]!, /export class Tags \{/);
 * ```
 */
export interface GenHost {
  /** Reads a whole text file (`-` = stdin). */
  readText(path: string): Promise<string>;
  /** Writes a whole text file (for `--out`). */
  writeText?(path: string, text: string): Promise<void>;
  /** Reads an environment variable. */
  env(name: string): string | undefined;
  /** Writes to stdout. */
  out(text: string): void;
  /** Writes to stderr. */
  err(text: string): void;
  /** The fetch for `--url` (the runtime's when absent). */
  fetch?: FetchFunction;
}

/**
 * The text of `searchvisitor gen --help`.
 *
 * @example
 * ```ts
 * import { GEN_USAGE } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.match(GEN_USAGE, /^usage: searchvisitor gen \(--url URL \| --engine/);
 * ```
 */
export const GEN_USAGE: string =
  `usage: searchvisitor gen (--url URL | --engine [--opensearch] [files…] | --mapping FILE) --index NAME
                        [--out FILE] [--class NAME] [--import SPECIFIER]

Writes a TypeScript entity class (@Table/@Column with each field's mapping) for the live mapping
and settings of an index; mappingOf() of the class gives that mapping back. Object and nested
fields become classes of their own; what is not typed is kept as raw JSON and listed at the top.

  --url URL        the cluster (or SEARCHVISITOR_URL)
  --engine         the embedded engine: the command files given run first (they create the index)
  --mapping FILE   a GET /{index}/_mapping reply saved to a file
  --index NAME     the index
  --out FILE       write the module there (default: stdout)
  --class NAME     the class name (default: the index name in PascalCase)
  --import SPEC    where Column and Table come from (default @searchvisitor/searchvisitor/template)`;

interface GenArgs {
  url?: string;
  engine: boolean;
  opensearch: boolean;
  mapping?: string;
  index?: string;
  out?: string;
  className?: string;
  importFrom?: string;
  files: string[];
  help: boolean;
}

function parseGenArgs(args: readonly string[]): GenArgs {
  const out: GenArgs = { engine: false, opensearch: false, files: [], help: false };
  const valued: Record<string, "url" | "mapping" | "index" | "out" | "className" | "importFrom"> = {
    "--url": "url",
    "--mapping": "mapping",
    "--index": "index",
    "--out": "out",
    "--class": "className",
    "--import": "importFrom",
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const key = valued[name];
    if (key !== undefined) {
      const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined || value === "") throw new UsageError(`${name} needs a value`);
      out[key] = value;
    } else if (arg === "--engine") out.engine = true;
    else if (arg === "--opensearch") out.opensearch = true;
    else if (arg === "--help" || arg === "-h") out.help = true;
    else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}; see gen --help`);
    else out.files.push(arg);
  }
  if (out.help) return out;
  const sources = [out.url !== undefined, out.engine, out.mapping !== undefined].filter(Boolean);
  if (sources.length > 1) throw new UsageError("give one of --url, --engine and --mapping");
  if (out.index === undefined) throw new UsageError("needs --index NAME");
  if (out.files.length > 0 && !out.engine) {
    throw new UsageError("command files run only with --engine (they set up its index)");
  }
  if (out.opensearch && !out.engine) throw new UsageError("--opensearch goes with --engine");
  return out;
}

async function readIndex(
  ds: DataSource,
  index: string,
): Promise<{ mapping: unknown; settings: unknown }> {
  const get = async (what: string) => {
    const path = `/${encodeURIComponent(index)}/${what}`;
    const res = await ds.transport.request({ method: "GET", path });
    if (res.status !== 200) {
      throw new UsageError(`GET ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
    }
    return JSON.parse(res.body);
  };
  return { mapping: await get("_mapping"), settings: await get("_settings") };
}

/**
 * Runs `searchvisitor gen …` and returns its exit code.
 *
 * @param args The arguments after `gen`.
 * @param host The runtime adapter.
 * @returns 0 written, 2 unreadable input, 3 no cluster, 64 usage.
 *
 * @example On the embedded engine, the index made by a command file
 * ```ts
 * import { type GenHost, runGen } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * let out = "";
 * const host: GenHost = {
 *   env: () => undefined,
 *   readText: () => Promise.resolve('PUT /cities {"mappings": {"properties": {"name": {"type": "keyword"}}}}\n'),
 *   out: (t) => (out += t),
 *   err: (t) => (out += t),
 * };
 * assert.equal(await runGen(["--engine", "setup.es", "--index", "cities"], host), 0);
 * assert.match(out, /@Table\({ index: "cities", settings: \{ number_of_shards: 1, number_of_replicas: 1 \} }\)\nexport class Cities \{/);
 * assert.match(out, /@Column\(\{ mapping: "keyword" \}\)\n  name: string \| null = null;/);
 * ```
 */
export async function runGen(args: readonly string[], host: GenHost): Promise<number> {
  let options: GenArgs;
  try {
    options = parseGenArgs(args);
  } catch (error) {
    host.err(`searchvisitor gen: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  if (options.help) {
    host.out(GEN_USAGE + "\n");
    return EXIT.ok;
  }
  const index = options.index!;
  let engine: Engine | undefined;
  try {
    let read: { mapping: unknown; settings?: unknown; from: string };
    if (options.mapping !== undefined) {
      let text: string;
      try {
        text = await host.readText(options.mapping);
      } catch (error) {
        host.err(
          `searchvisitor gen: cannot read ${options.mapping} (${(error as Error).message})\n`,
        );
        return EXIT.input;
      }
      const reply = JSON.parse(text) as Record<string, unknown>;
      read = { mapping: reply[index] ?? reply, from: `${options.mapping} (index ${index})` };
    } else {
      let ds: DataSource;
      if (options.engine) {
        engine = new Engine({ flavour: options.opensearch ? "opensearch" : "elasticsearch" });
        ds = new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch });
        const quiet = new ConsoleSession(ds, { out: () => {}, err: host.err });
        for (const file of options.files) {
          const status = await quiet.runScript(await host.readText(file), file);
          if (status !== EXIT.ok) return status;
        }
      } else {
        const url = options.url ?? host.env("SEARCHVISITOR_URL");
        if (url === undefined) throw new UsageError("needs --url URL (or SEARCHVISITOR_URL)");
        ds = new DataSource(url, host.fetch ? { fetch: host.fetch } : {});
      }
      const live = await readIndex(ds, index);
      read = {
        ...live,
        from: `the mapping of index ${JSON.stringify(index)}${
          options.engine ? " (embedded engine)" : ""
        }`,
      };
    }
    const source = entitySourceFromMapping(read.mapping, {
      index,
      from: read.from,
      ...(read.settings !== undefined ? { settings: read.settings } : {}),
      ...(options.className !== undefined ? { className: options.className } : {}),
      ...(options.importFrom !== undefined ? { importFrom: options.importFrom } : {}),
    });
    if (options.out === undefined) host.out(source);
    else {
      if (host.writeText === undefined) {
        throw new UsageError("--out needs a host that writes files");
      }
      await host.writeText(options.out, source);
      host.err(`searchvisitor gen: wrote ${options.out}\n`);
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      host.err(`searchvisitor gen: ${error.message}\n`);
      return EXIT.input;
    }
    if (error instanceof SyntaxError || error instanceof TypeError) {
      host.err(`searchvisitor gen: ${error.message}\n`);
      return EXIT.input;
    }
    host.err(describeError(error) + "\n");
    return exitCodeOf(error);
  } finally {
    engine?.close();
  }
}
