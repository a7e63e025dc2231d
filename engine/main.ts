// `deno task engine [options]`: runs the in-memory engine over HTTP until interrupted.
// Bad arguments or a port that cannot be bound give one line on stderr and exit code 2.

import { Engine, serve, type ServeOptions } from "./mod.ts";
import { ELASTICSEARCH_VERSION, OPENSEARCH_VERSION } from "./engine.ts";
import { isLoopback } from "./serve_guard.ts";
import denoJson from "../deno.json" with { type: "json" };

/** The command line's help text. */
export const HELP = `Usage: deno task engine [options]

An in-memory, Elasticsearch-compatible engine for tests and development. Data lives in memory
only and is lost when the process ends.

Options:
  --port N            port to listen on (default 9200; 0 picks a free port)
  --host H            interface to bind (default 127.0.0.1); any other than loopback needs
                      credentials (--user/--password or --api-key)
  --opensearch        behave as OpenSearch ${OPENSEARCH_VERSION} instead of Elasticsearch ${ELASTICSEARCH_VERSION}
  --version X.Y.Z     the version to report, e.g. 8.15.0 for Elasticsearch 8
  --version           (alone) print this program's version and exit
  --user U            require HTTP basic authentication with this user name
  --password P        its password (or the environment variable ENGINE_PASSWORD)
  --api-key ID:KEY    accept this API key (repeatable)
  --cors ORIGIN       allow browser requests from this origin (repeatable; * for any)
  --allow-host NAME   accept this Host header on a loopback server (repeatable)
  --help              print this help and exit
`;

/** What the command line asks for. */
export type Invocation =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string }
  | {
    kind: "serve";
    flavour: "elasticsearch" | "opensearch";
    version?: string;
    serve: ServeOptions & { port: number; hostname: string };
    warning?: string;
  };

const VALUED = new Set([
  "--port",
  "--host",
  "--version",
  "--user",
  "--password",
  "--api-key",
  "--cors",
  "--allow-host",
]);

/** Reads the arguments (and `ENGINE_PASSWORD`); never throws. */
export function parseArgs(
  args: readonly string[],
  env: (name: string) => string | undefined,
): Invocation {
  const values = new Map<string, string[]>();
  let opensearch = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (name === "--help" || name === "-h") return { kind: "help" };
    if (name === "--opensearch") {
      opensearch = true;
      continue;
    }
    if (!VALUED.has(name)) {
      return { kind: "error", message: `unknown option ${arg}; see --help` };
    }
    let value: string | undefined = eq > 0 && arg.startsWith("--") ? arg.slice(eq + 1) : undefined;
    if (value === undefined) {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith("--")) {
        value = next;
        i++;
      }
    }
    if (value === undefined) {
      if (name === "--version") return { kind: "version" };
      return { kind: "error", message: `option ${name} needs a value; see --help` };
    }
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  const one = (name: string): string | undefined => values.get(name)?.at(-1);
  const portText = one("--port") ?? "9200";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    return { kind: "error", message: `bad port ${portText}: expected a number from 0 to 65535` };
  }
  const version = one("--version");
  if (version !== undefined && !/^\d+\.\d+\.\d+$/.test(version)) {
    return { kind: "error", message: `bad version ${version}: expected X.Y.Z, e.g. 8.15.0` };
  }
  const hostname = one("--host") ?? "127.0.0.1";
  const username = one("--user");
  const password = one("--password") ?? env("ENGINE_PASSWORD");
  if ((username === undefined) !== (password === undefined)) {
    return { kind: "error", message: "--user and --password (or ENGINE_PASSWORD) go together" };
  }
  const apiKeys = values.get("--api-key") ?? [];
  const badKey = apiKeys.find((k) => !/^[^:\s]+:\S+$/.test(k));
  if (badKey !== undefined) return { kind: "error", message: "bad --api-key: expected ID:KEY" };
  const hasAuth = username !== undefined || apiKeys.length > 0;
  let warning: string | undefined;
  if (!isLoopback(hostname)) {
    if (!hasAuth) {
      return {
        kind: "error",
        message:
          `--host ${hostname} is not loopback: anyone who reaches it could use the engine; add --user/--password or --api-key`,
      };
    }
    warning =
      `warning: listening on ${hostname}, not loopback; this engine is for tests and development`;
  }
  return {
    kind: "serve",
    flavour: opensearch ? "opensearch" : "elasticsearch",
    version,
    warning,
    serve: {
      port,
      hostname,
      auth: hasAuth ? { username, password, apiKeys } : undefined,
      cors: values.get("--cors"),
      allowedHosts: values.get("--allow-host"),
    },
  };
}

/** One line for a failure to listen (port taken, address not available, permission). */
export function listenFailure(e: unknown, port: number, host: string): string {
  const code = (e as { code?: string }).code ?? (e instanceof Error ? e.name : "");
  if (code === "EADDRINUSE" || code === "AddrInUse") {
    return `port ${port} on ${host} is already in use; pick another with --port`;
  }
  if (code === "EADDRNOTAVAIL" || code === "AddrNotAvailable") {
    return `cannot listen on ${host}: no such local address`;
  }
  if (code === "EACCES" || code === "PermissionDenied") {
    return `not allowed to listen on port ${port} of ${host}`;
  }
  return `cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`;
}

if (import.meta.main) {
  const invocation = parseArgs(Deno.args, (name) => Deno.env.get(name));
  if (invocation.kind === "help") {
    console.log(HELP);
    Deno.exit(0);
  }
  if (invocation.kind === "version") {
    console.log(`searchvisitor engine ${denoJson.version}`);
    Deno.exit(0);
  }
  if (invocation.kind === "error") {
    console.error(`engine: ${invocation.message}`);
    Deno.exit(2);
  }
  const { flavour, version, serve: options, warning } = invocation;
  const engine = new Engine({ flavour, ...(version ? { version } : {}) });
  if (warning) console.error(warning);
  try {
    const server = await serve(engine, options);
    const product = flavour === "opensearch" ? "OpenSearch" : "Elasticsearch";
    console.log(
      `searchvisitor engine: in-memory ${product} ${engine.version}-compatible engine for tests and development (data is lost on exit), listening on ${server.url}`,
    );
  } catch (e) {
    console.error(`engine: ${listenFailure(e, options.port, options.hostname)}`);
    Deno.exit(2);
  }
}
