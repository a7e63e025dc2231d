/**
 * The migrator: applies versioned migrations in order, keeps their history in an index of the
 * cluster, refuses edited applied files, stops at a failure and says where, and holds a lock so
 * two processes never apply one version twice.
 *
 * @module
 */

import type { DataSource, ParsedCommand } from "../driver/mod.ts";
import { bindScript } from "../driver/internal.ts";
import { call, seg } from "./_http.ts";
import {
  acquireLock,
  deleteRecord,
  ensureHistory,
  forceUnlock,
  type HistoryLock,
  type HistoryRecord,
  type LockHolder,
  readHistory,
  writeRecord,
} from "./_history.ts";
import { MigrationError } from "./errors.ts";
import { compareVersions, type Migration } from "./migrations.ts";
import { reindexAlias, type ReindexProgress } from "./reindex.ts";

export type { HistoryRecord, LockHolder };

/** How a migrator runs. */
export interface MigratorOptions {
  /** The history index (default `searchvisitor_schema_history`). */
  historyIndex?: string;
  /** Who applies (kept as `installed_by`, and in the lock's owner). */
  installedBy?: string;
  /** How long to wait for another process's lock, in ms (default 60 000). */
  lockWaitMs?: number;
  /** A lock not renewed for this long is stale and taken over, in ms (default 600 000). */
  lockStaleMs?: number;
  /** Reindex progress of a `.json` step. */
  onProgress?: (migration: Migration, progress: ReindexProgress) => void;
  /** The clock (tests). */
  now?: () => Date;
}

/** One line of `info`: a migration and its state. */
export interface MigrationInfo {
  /** The version. */
  version: string;
  /** The description. */
  description: string;
  /** The file name. */
  script: string;
  /** `applied`, `pending`, `failed`, or `missing` (applied, no file any more). */
  state: "applied" | "pending" | "failed" | "missing";
  /** When it was applied. */
  installedOn?: string;
  /** How long it ran, in milliseconds. */
  executionMs?: number;
  /** Who applied it. */
  installedBy?: string;
  /** The failure, for a failed one. */
  error?: string;
}

/** What one applied migration did. */
export interface AppliedMigration {
  /** The version. */
  version: string;
  /** The file name. */
  script: string;
  /** Per step: `METHOD /path` of a command, or `reindex <alias>`. */
  steps: string[];
  /** How long it ran, in milliseconds. */
  executionMs: number;
}

/** What `migrate` did. */
export interface MigrateResult {
  /** The migrations applied now, in order (empty when all were applied before). */
  applied: AppliedMigration[];
  /** The highest applied version after the run. */
  current?: string;
}

/** Where the files and the history disagree. */
export interface ValidationProblem {
  /** The version. */
  version: string;
  /** The file name. */
  script: string;
  /** What is wrong and what to do. */
  problem: string;
}

/**
 * Applies migrations to a cluster. The history lives in one index of that cluster: a document
 * per version (version, description, script, checksum, installed_on, execution_ms, success,
 * installed_by, installed_rank) and the lock document.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import { Migrator, readMigrations } from "@searchvisitor/searchvisitor/migrate";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const ds = new DataSource({ nodes: ["http://engine"], fetch: engine.fetch });
 * const migrations = await readMigrations([
 *   { name: "V1__create_users.es", text: "PUT /users" },
 *   { name: "V2__add_email.es", text: 'PUT /users/_mapping {"properties": {"email": {"type": "keyword"}}}' },
 * ]);
 * const migrator = new Migrator(ds, { installedBy: "docs" });
 * assert.deepEqual((await migrator.migrate(migrations)).applied.map((m) => m.version), ["1", "2"]);
 * assert.deepEqual((await migrator.migrate(migrations)).applied, []); // nothing left to do
 * assert.deepEqual((await migrator.info(migrations)).map((i) => i.state), ["applied", "applied"]);
 * engine.close();
 * ```
 */
export class Migrator {
  readonly #ds: DataSource;
  readonly #index: string;
  readonly #options: MigratorOptions;
  readonly #now: () => Date;

  /**
   * Creates a migrator.
   *
   * @param ds The cluster.
   * @param options The history index, who applies, the lock's timings.
   */
  constructor(ds: DataSource, options: MigratorOptions = {}) {
    this.#ds = ds;
    this.#index = options.historyIndex ?? "searchvisitor_schema_history";
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** The history index's name. */
  get historyIndex(): string {
    return this.#index;
  }

  /**
   * The history as stored (versions by rank).
   *
   * @returns The records.
   */
  history(): Promise<HistoryRecord[]> {
    return readHistory(this.#ds, this.#index);
  }

  /**
   * Every migration with its state: applied, pending, failed, or missing (applied, no file).
   *
   * @param migrations The files read by `readMigrations`.
   * @returns One line per version, by version.
   */
  async info(migrations: readonly Migration[]): Promise<MigrationInfo[]> {
    const history = new Map((await this.history()).map((r) => [r.version, r]));
    const out: MigrationInfo[] = [];
    const versions = new Set([...migrations.map((m) => m.version), ...history.keys()]);
    for (const version of [...versions].sort(compareVersions)) {
      const m = migrations.find((x) => x.version === version);
      const r = history.get(version);
      const line: MigrationInfo = {
        version,
        description: m?.description ?? r!.description,
        script: m?.script ?? r!.script,
        state: r === undefined ? "pending" : !r.success ? "failed" : m ? "applied" : "missing",
      };
      if (r) {
        line.installedOn = r.installed_on;
        line.executionMs = r.execution_ms;
        if (r.installed_by !== undefined) line.installedBy = r.installed_by;
        if (r.error !== undefined) line.error = r.error;
      }
      out.push(line);
    }
    return out;
  }

  /**
   * Compares the files with the history: an applied file whose checksum changed, a failed
   * version, a pending version older than the newest applied one.
   *
   * @param migrations The files.
   * @returns The problems (empty when `migrate` may run).
   */
  async validate(migrations: readonly Migration[]): Promise<ValidationProblem[]> {
    return problemsOf(migrations, await this.history());
  }

  /**
   * Applies the pending migrations in order under the lock. A second run applies nothing. An
   * edited applied file, a version that failed before or an out-of-order one is refused
   * (`MIGRATION_VALIDATE`) before anything runs; a failing command stops the run, is recorded
   * (`success: false`) and thrown as `MIGRATION_FAILED` with file, command and line.
   *
   * @param migrations The files read by `readMigrations`.
   * @returns What was applied.
   */
  async migrate(migrations: readonly Migration[]): Promise<MigrateResult> {
    await ensureHistory(this.#ds, this.#index);
    const by = this.#options.installedBy;
    const lock = await acquireLock(this.#ds, this.#index, {
      owner: `${by ?? "searchvisitor"}#${crypto.randomUUID().slice(0, 8)}`,
      waitMs: this.#options.lockWaitMs ?? 60_000,
      staleMs: this.#options.lockStaleMs ?? 600_000,
      now: this.#now,
    });
    try {
      const history = await this.history(); // read under the lock
      const problems = problemsOf(migrations, history);
      if (problems.length > 0) {
        throw new MigrationError(
          "MIGRATION_VALIDATE",
          problems.map((p) => `${p.script}: ${p.problem}`).join("; "),
        );
      }
      const done = new Set(history.map((r) => r.version));
      let rank = Math.max(0, ...history.map((r) => r.installed_rank));
      const applied: AppliedMigration[] = [];
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        applied.push(await this.#apply(m, ++rank, lock));
      }
      const all = [...done, ...applied.map((a) => a.version)].sort(compareVersions);
      return { applied, ...(all.length ? { current: all[all.length - 1]! } : {}) };
    } finally {
      await lock.release();
    }
  }

  async #apply(m: Migration, rank: number, lock: HistoryLock): Promise<AppliedMigration> {
    const started = Date.now();
    const record: HistoryRecord = {
      version: m.version,
      description: m.description,
      script: m.script,
      checksum: m.checksum,
      installed_on: this.#now().toISOString(),
      execution_ms: 0,
      success: true,
      installed_rank: rank,
      ...(this.#options.installedBy ? { installed_by: this.#options.installedBy } : {}),
    };
    const steps: string[] = [];
    await using conn = await this.#ds.getConnection();
    const stmt = conn.createStatement();
    for (const [i, step] of m.steps.entries()) {
      await lock.renew();
      try {
        if (step.kind === "command") {
          steps.push(`${step.command.method} ${step.command.pathTemplate}`);
          await stmt.executeCommands(bindScript(single(step.command), []));
        } else {
          steps.push(`reindex ${step.spec.alias}`);
          await reindexAlias(this.#ds, step.spec, {
            heartbeat: () => lock.renew(),
            onProgress: (p) => this.#options.onProgress?.(m, p),
          });
        }
      } catch (error) {
        const line = step.kind === "command" ? step.command.line : undefined;
        const message = (error as Error).message;
        await writeRecord(this.#ds, this.#index, {
          ...record,
          success: false,
          execution_ms: Date.now() - started,
          error: message,
          failed_command: i + 1,
          ...(line === undefined ? {} : { failed_line: line }),
        });
        if (error instanceof MigrationError && error.code === "MIGRATION_LOCKED") throw error;
        throw new MigrationError(
          "MIGRATION_FAILED",
          `${message}. Recorded as failed: fix the cluster and the file, then run \`searchvisitor migrate repair\` and migrate again`,
          { file: m.script, version: m.version, command: i + 1, ...(line ? { line } : {}) },
          { cause: error },
        );
      }
    }
    const executionMs = Date.now() - started;
    await writeRecord(this.#ds, this.#index, { ...record, execution_ms: executionMs });
    return { version: m.version, script: m.script, steps, executionMs };
  }

  /**
   * Deletes the records of failed versions, so that `migrate` runs them again (after you fixed
   * what the failure left behind).
   *
   * @returns The versions whose failure records were removed.
   */
  async repair(): Promise<string[]> {
    const failed = (await this.history()).filter((r) => !r.success).map((r) => r.version);
    for (const version of failed) await deleteRecord(this.#ds, this.#index, version);
    return failed;
  }

  /**
   * Removes the lock whoever holds it (a migrator that died). Only when no migration runs.
   *
   * @returns The holder removed, if there was one.
   */
  forceUnlock(): Promise<LockHolder | undefined> {
    return forceUnlock(this.#ds, this.#index);
  }

  /**
   * Runs the migrations on a scratch cluster (the embedded engine) loaded with the live mapping,
   * settings and aliases of every index they touch and with the live history, and returns what
   * would run: the target cluster is only read.
   *
   * @param migrations The files.
   * @param scratch An empty cluster to rehearse on (`new Engine().fetch` behind a DataSource).
   * @returns What `migrate` would apply.
   */
  async dryRun(migrations: readonly Migration[], scratch: DataSource): Promise<MigrateResult> {
    const live = await this.history();
    const names = touchedNames(migrations);
    for (const name of names) await copyIndex(this.#ds, scratch, name);
    if (live.length > 0) {
      await ensureHistory(scratch, this.#index);
      for (const r of live) await writeRecord(scratch, this.#index, r);
    }
    return await new Migrator(scratch, { ...this.#options, lockWaitMs: 0 }).migrate(migrations);
  }
}

function single(command: ParsedCommand) {
  return { text: command.text, commands: [command], placeholderCount: 0 };
}

function problemsOf(
  migrations: readonly Migration[],
  history: readonly HistoryRecord[],
): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const applied = history.filter((r) => r.success).map((r) => r.version).sort(compareVersions);
  const newest = applied[applied.length - 1];
  for (const r of history) {
    const m = migrations.find((x) => x.version === r.version);
    if (!r.success) {
      problems.push({
        version: r.version,
        script: r.script,
        problem: `failed on ${r.installed_on} at command ${r.failed_command}${
          r.failed_line ? ` (line ${r.failed_line})` : ""
        }: ${r.error}; fix it, then \`searchvisitor migrate repair\``,
      });
    } else if (m && m.checksum !== r.checksum) {
      problems.push({
        version: r.version,
        script: m.script,
        problem:
          "was edited after it was applied (checksum differs): put the change in a new version",
      });
    }
  }
  for (const m of migrations) {
    if (history.some((r) => r.version === m.version)) continue;
    if (newest !== undefined && compareVersions(m.version, newest) < 0) {
      problems.push({
        version: m.version,
        script: m.script,
        problem:
          `is pending but the newer version ${newest} is applied: give it a version above ${newest}`,
      });
    }
  }
  return problems;
}

/** The index (or alias) names the migrations' commands and reindex steps address. */
function touchedNames(migrations: readonly Migration[]): string[] {
  const names = new Set<string>();
  for (const m of migrations) {
    for (const step of m.steps) {
      if (step.kind === "reindex") names.add(step.spec.alias);
      else {
        const first = step.command.pathTemplate.split(/[/?]/)[1] ?? "";
        if (first !== "" && !first.startsWith("_") && !/[*,]/.test(first)) {
          names.add(decodeURIComponent(first));
        }
      }
    }
  }
  return [...names];
}

const INTERNAL_SETTINGS =
  /^(uuid|version|creation_date|provided_name|history|resize|routing|replication|verified_before_close|shard_limit)$/;

/** Copies an index's (or an alias's indices') mappings, settings and aliases, no documents. */
async function copyIndex(from: DataSource, to: DataSource, name: string): Promise<void> {
  const reply = await call(from, { method: "GET", path: `/${seg(name)}`, allowNotFound: true });
  if (reply.status === 404) return;
  for (const [index, def] of Object.entries(reply.body ?? {})) {
    const d = def as {
      mappings?: unknown;
      settings?: { index?: Record<string, unknown> };
      aliases?: unknown;
    };
    const settings: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(d.settings?.index ?? {})) {
      if (!INTERNAL_SETTINGS.test(k)) settings[k] = v;
    }
    const head = await call(to, { method: "HEAD", path: `/${seg(index)}`, allowNotFound: true });
    if (head.status === 200) continue;
    try {
      await call(to, {
        method: "PUT",
        path: `/${seg(index)}`,
        body: {
          settings: { index: settings },
          mappings: d.mappings,
          aliases: d.aliases,
        },
      });
    } catch {
      // a setting the scratch engine does not know: the mapping and aliases still matter most
      await call(to, {
        method: "PUT",
        path: `/${seg(index)}`,
        body: { mappings: d.mappings, aliases: d.aliases },
      });
    }
  }
}
