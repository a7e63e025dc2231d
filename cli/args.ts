/**
 * The console's command line: `searchvisitor [--url URL | --engine] [--user NAME[:PASSWORD]]
 * [--load FILE [--index NAME]] [--format F] [--timing] [--refresh] [file…]`.
 *
 * @module
 */

import { type Format, FORMATS } from "./output.ts";
import type { Auth } from "../driver/mod.ts";

/** What the command line asked for. */
export interface CliOptions {
  /** The cluster's URL (or a `jdbc:dbvisitor:elastic://` string). */
  url?: string;
  /** Start the embedded engine in-process instead of connecting. */
  engine: boolean;
  /** `--opensearch`: the embedded engine answers as OpenSearch. */
  opensearch: boolean;
  /** The user name of basic authentication. */
  user?: string;
  /** The password, when given after `:` in `--user`. */
  password?: string;
  /** An API key (`--api-key`). */
  apiKey?: string;
  /** An NDJSON file to bulk-load first. */
  load?: string;
  /** The index of `--load` for plain documents. */
  index?: string;
  /** The output format. */
  format: Format;
  /** Print each command's client-side time. */
  timing: boolean;
  /** Add `refresh=true` to document writes. */
  refresh: boolean;
  /** Command files to run, in order (`-` is stdin). */
  files: string[];
  /** `--help`. */
  help: boolean;
  /** `--version`. */
  version: boolean;
}

/** The command line is wrong; the message says how to fix it. */
export class UsageError extends Error {
  /**
   * Creates the error.
   *
   * @param message What is wrong.
   */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The text of `--help`. */
export const USAGE: string = `usage: searchvisitor [--url URL | --engine] [options] [file…]
       searchvisitor check [files…] [--mapping FILE | --url URL]   (see check --help)
       searchvisitor mapping --url URL > snapshot.json
       searchvisitor gen --url URL --index NAME [--out FILE]   (entity class; see gen --help)
       searchvisitor migrate [info|validate|repair] [--url URL] [--dir DIR]   (see migrate --help)

Runs command files (Kibana console text), or an interactive prompt when no file is given and
stdin is a terminal; commands piped on stdin run like a file.

  --url URL              the cluster (default http://127.0.0.1:9200; also SEARCHVISITOR_URL);
                         http(s)://host:port or jdbc:dbvisitor:elastic://h1:9200;h2:9200
  --engine               start the embedded engine in-process instead (--opensearch: as OpenSearch)
  --playground           with --engine: serve the playground page on loopback (--port N)
  --user NAME[:PASSWORD] basic authentication; without :PASSWORD it comes from SEARCHVISITOR_PASSWORD
  --api-key KEY          API key authentication (or SEARCHVISITOR_API_KEY)
  --load FILE            bulk-load an NDJSON file first (a _bulk file, or one document per line)
  --index NAME           the index for --load documents and for action lines without _index
  --format F             table (default), json or ndjson
  --timing               print the time each command takes
  --refresh              add refresh=true to document writes
  --help, --version

Exit codes: 0 ok, 1 the server refused a command, 2 bad input (syntax, file),
3 no node answered or a timeout, 64 a bad command line.`;

const VALUED = new Set(["--url", "--user", "--api-key", "--load", "--index", "--format"]);

/**
 * Parses the arguments.
 *
 * @param args The arguments after the program name.
 * @returns The options.
 * @throws {UsageError} For an unknown option, a missing value or a contradiction.
 *
 * @example
 * ```ts
 * import { parseArgs } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * const options = parseArgs(["--engine", "--load=cities.ndjson", "--index", "cities", "q.es"]);
 * assert.equal(options.engine, true);
 * assert.equal(options.load, "cities.ndjson");
 * assert.equal(options.index, "cities");
 * assert.deepEqual(options.files, ["q.es"]);
 * assert.throws(() => parseArgs(["--url", "http://h:9200", "--engine"]), /either --url or --engine/);
 * ```
 */
export function parseArgs(args: readonly string[]): CliOptions {
  const options: CliOptions = {
    engine: false,
    opensearch: false,
    format: "table",
    timing: false,
    refresh: false,
    files: [],
    help: false,
    version: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("--") || arg === "--") {
      options.files.push(...(arg === "--" ? args.slice(i + 1) : [arg]));
      if (arg === "--") break;
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg : arg.slice(0, eq);
    let value: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
    if (VALUED.has(name) && value === undefined) {
      value = args[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
    } else if (!VALUED.has(name) && value !== undefined) {
      throw new UsageError(`${name} takes no value`);
    }
    switch (name) {
      case "--url":
        options.url = value;
        break;
      case "--user": {
        const colon = value!.indexOf(":");
        options.user = colon < 0 ? value : value!.slice(0, colon);
        if (colon >= 0) options.password = value!.slice(colon + 1);
        break;
      }
      case "--api-key":
        options.apiKey = value;
        break;
      case "--load":
        options.load = value;
        break;
      case "--index":
        options.index = value;
        break;
      case "--format":
        if (!FORMATS.includes(value as Format)) {
          throw new UsageError(`--format takes ${FORMATS.join(", ")}; got ${value}`);
        }
        options.format = value as Format;
        break;
      case "--engine":
      case "--opensearch":
      case "--timing":
      case "--refresh":
      case "--help":
      case "--version":
        options[
          name.slice(2) as "engine" | "opensearch" | "timing" | "refresh" | "help" | "version"
        ] = true;
        break;
      default:
        throw new UsageError(`unknown option ${name}; --help lists the options`);
    }
  }
  if (options.url !== undefined && options.engine) {
    throw new UsageError("give either --url or --engine, not both");
  }
  if (options.opensearch && !options.engine) {
    throw new UsageError("--opensearch goes with --engine");
  }
  return options;
}

/**
 * The authentication of `--user`/`--api-key` (or the environment's `SEARCHVISITOR_API_KEY`,
 * `SEARCHVISITOR_PASSWORD`), for every subcommand that connects.
 */
export function authOf(
  options: { user?: string; password?: string; apiKey?: string },
  env: (name: string) => string | undefined,
): Auth | undefined {
  const apiKey = options.apiKey ?? env("SEARCHVISITOR_API_KEY");
  if (apiKey) return { apiKey };
  if (options.user === undefined) return undefined;
  const password = options.password ?? env("SEARCHVISITOR_PASSWORD");
  if (password === undefined) {
    throw new UsageError(
      `--user ${options.user} has no password: write --user NAME:PASSWORD or set SEARCHVISITOR_PASSWORD`,
    );
  }
  return { username: options.user, password };
}

/**
 * Walks a subcommand's arguments: `visit(arg, value)` for each, where `value()` takes the next
 * argument as this one's value (a usage error when there is none).
 */
export function eachArg(
  args: readonly string[],
  visit: (arg: string, value: () => string) => void,
): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    visit(a, () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    });
  }
}
