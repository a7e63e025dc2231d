/**
 * `searchvisitor migrate [info|validate|repair] [--url URL | --engine] [--dir migrations]
 * [--dry-run] [--force-unlock]`: versioned migrations from a folder (docs/migrations.md).
 *
 * @module
 */

import { DataSource } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import {
  type MigrateResult,
  type MigrationSource,
  Migrator,
  readMigrations,
} from "../migrate/mod.ts";
import { authOf, eachArg, UsageError } from "./args.ts";
import { describeError, EXIT, exitCodeOf } from "./output.ts";
import { formatTable } from "./table.ts";

/** What `migrate` needs from its runtime (a `CliHost` has it). */
export interface MigrateHost {
  /** Reads a whole text file. */
  readText(path: string): Promise<string>;
  /** Lists the file names of a folder. */
  listDir?(path: string): Promise<string[]>;
  /** Reads an environment variable. */
  env(name: string): string | undefined;
  /** Writes to stdout. */
  out(text: string): void;
  /** Writes to stderr. */
  err(text: string): void;
}

/** The text of `searchvisitor migrate --help`. */
export const MIGRATE_USAGE: string =
  `usage: searchvisitor migrate [info|validate|repair] [--url URL | --engine [--opensearch]] [--dir migrations]
                             [--dry-run] [--force-unlock] [--history INDEX] [--user NAME[:PASSWORD]]

Applies the versioned migrations of a folder in order: V<version>__<description>.es (console
commands, several per file, comments allowed) and .json files holding one zero-downtime reindex
step ({"reindex": {"alias": …, "mappings": …}}). The history lives in the index
searchvisitor_schema_history of the cluster; a second run applies nothing.

  (no subcommand)  apply what is pending
  info             print every version: applied, pending, failed or missing
  validate         exit 1 when an applied file was edited, a version failed or one is out of order
  repair           forget failed versions so that migrate runs them again
  --dry-run        rehearse on the embedded engine loaded with the live mappings, settings,
                   aliases and history; nothing on the cluster changes
  --force-unlock   remove the migration lock of a process that died, then go on
  --history INDEX  the history index (default searchvisitor_schema_history)`;

interface MigrateArgs {
  action: "migrate" | "info" | "validate" | "repair";
  url?: string;
  engine: boolean;
  opensearch: boolean;
  dir: string;
  dryRun: boolean;
  forceUnlock: boolean;
  history?: string;
  user?: string;
  password?: string;
  apiKey?: string;
  help: boolean;
}

function parseMigrateArgs(args: readonly string[]): MigrateArgs {
  const out: MigrateArgs = {
    action: "migrate",
    engine: false,
    opensearch: false,
    dir: "migrations",
    dryRun: false,
    forceUnlock: false,
    help: false,
  };
  eachArg(args, (a, value) => {
    if (a === "--help" || a === "-h") out.help = true;
    else if (a === "info" || a === "validate" || a === "repair") out.action = a;
    else if (a === "--url") out.url = value();
    else if (a === "--engine") out.engine = true;
    else if (a === "--opensearch") out.opensearch = true;
    else if (a === "--dir") out.dir = value();
    else if (a === "--dry-run") out.dryRun = true;
    else if (a === "--force-unlock") out.forceUnlock = true;
    else if (a === "--history") out.history = value();
    else if (a === "--api-key") out.apiKey = value();
    else if (a === "--user") {
      const v = value();
      const colon = v.indexOf(":");
      out.user = colon < 0 ? v : v.slice(0, colon);
      if (colon >= 0) out.password = v.slice(colon + 1);
    } else {throw new UsageError(
        `unknown argument ${a} (see searchvisitor migrate --help)`,
      );}
  });
  if (out.engine && out.url !== undefined) {
    throw new UsageError("--engine and --url exclude each other");
  }
  return out;
}

async function readFolder(host: MigrateHost, dir: string): Promise<MigrationSource[]> {
  if (!host.listDir) throw new UsageError("this host cannot list folders");
  const names = (await host.listDir(dir)).filter((n) => n.startsWith("V")).sort();
  return await Promise.all(
    names.map(async (name) => ({ name, text: await host.readText(`${dir}/${name}`) })),
  );
}

function printApplied(host: MigrateHost, result: MigrateResult, verb: string): void {
  if (result.applied.length === 0) {
    host.out(`nothing to migrate (current version ${result.current ?? "none"})\n`);
    return;
  }
  for (const m of result.applied) {
    host.out(`${verb} ${m.script} (${m.executionMs} ms)\n`);
    for (const step of m.steps) host.out(`  ${step}\n`);
  }
  host.out(`current version ${result.current}\n`);
}

/**
 * Runs `searchvisitor migrate …` and returns its exit code.
 *
 * @param args The arguments after `migrate`.
 * @param host Files, folders, environment and output.
 * @returns The exit code (0 ok, 1 a migration failed or validate found problems, 64 usage).
 *
 * @example
 * ```ts
 * import { runMigrate } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * let out = "";
 * const files: Record<string, string> = { "V1__users.es": "PUT /users\nPUT /users/_doc/1 {}" };
 * const host = {
 *   readText: (path: string) => Promise.resolve(files[path.slice("migrations/".length)]!),
 *   listDir: () => Promise.resolve(Object.keys(files)),
 *   env: () => undefined,
 *   out: (t: string) => (out += t),
 *   err: (t: string) => (out += t),
 * };
 * assert.equal(await runMigrate(["--engine"], host), 0);
 * assert.match(out, /applied V1__users\.es \(\d+ ms\)\n  PUT \/users\n  PUT \/users\/_doc\/1\n/);
 * ```
 */
export async function runMigrate(args: readonly string[], host: MigrateHost): Promise<number> {
  let engine: Engine | undefined;
  let scratch: Engine | undefined;
  try {
    const options = parseMigrateArgs(args);
    if (options.help) {
      host.out(MIGRATE_USAGE + "\n");
      return EXIT.ok;
    }
    const auth = authOf(options, host.env);
    let ds: DataSource;
    if (options.engine) {
      engine = new Engine({ flavour: options.opensearch ? "opensearch" : "elasticsearch" });
      ds = new DataSource({ nodes: ["http://engine.local"], fetch: engine.fetch });
    } else {
      const url = options.url ?? host.env("SEARCHVISITOR_URL") ?? "http://127.0.0.1:9200";
      ds = new DataSource(url, auth ? { auth } : {});
    }
    const user = host.env("USER") ?? host.env("USERNAME");
    const migrator = new Migrator(ds, {
      ...(options.history ? { historyIndex: options.history } : {}),
      ...(user ? { installedBy: user } : {}),
      onProgress: (m, p) =>
        host.err(`${m.script}: copied ${p.created}/${p.total} (${p.skipped} newer)\n`),
    });
    const migrations = await readMigrations(await readFolder(host, options.dir));
    if (options.forceUnlock) {
      const holder = await migrator.forceUnlock();
      host.out(
        holder
          ? `removed the lock of ${holder.owner} (alive at ${holder.heartbeat_at})\n`
          : "no lock was held\n",
      );
    }
    switch (options.action) {
      case "info": {
        const rows = (await migrator.info(migrations)).map((i) => [
          i.version,
          i.description,
          i.script,
          i.state,
          i.installedOn ?? null,
          i.executionMs ?? null,
          i.installedBy ?? null,
        ]);
        host.out(
          formatTable(
            ["version", "description", "script", "state", "installed_on", "ms", "by"],
            rows,
          ) + "\n",
        );
        return EXIT.ok;
      }
      case "validate": {
        const problems = await migrator.validate(migrations);
        for (const p of problems) host.err(`${p.script}: ${p.problem}\n`);
        if (problems.length === 0) host.out(`${migrations.length} migrations valid\n`);
        return problems.length === 0 ? EXIT.ok : 1;
      }
      case "repair": {
        const removed = await migrator.repair();
        host.out(
          removed.length ? `forgot failed versions ${removed.join(", ")}\n` : "no failed version\n",
        );
        return EXIT.ok;
      }
    }
    if (options.dryRun) {
      const info = await ds.getConnection().then(async (c) => {
        try {
          return await c.serverInfo();
        } finally {
          await c.close();
        }
      }).catch(() => undefined);
      scratch = new Engine({
        flavour: info?.flavour === "opensearch" ? "opensearch" : "elasticsearch",
      });
      const rehearsal = new DataSource({ nodes: ["http://scratch.local"], fetch: scratch.fetch });
      printApplied(host, await migrator.dryRun(migrations, rehearsal), "would apply");
      host.out("(dry run: rehearsed on the embedded engine; the cluster was not changed)\n");
      return EXIT.ok;
    }
    printApplied(host, await migrator.migrate(migrations), "applied");
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      host.err(`searchvisitor migrate: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof Error && "code" in error && String(error.code).startsWith("MIGRATION")) {
      host.err(`searchvisitor migrate: ${error.message}\n`);
      return 1;
    }
    host.err(describeError(error) + "\n");
    return exitCodeOf(error);
  } finally {
    engine?.close();
    scratch?.close();
  }
}
