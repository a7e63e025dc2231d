/**
 * The migration room's one error class, {@linkcode MigrationError}, with a stable code per kind
 * of failure.
 *
 * @module
 */

/**
 * The stable codes of a {@linkcode MigrationError}:
 * - `MIGRATION_FILE`: a migration file is malformed (its name, its commands, its reindex step).
 * - `MIGRATION_VALIDATE`: the files disagree with the history (an applied file was edited, a
 *   version failed before, a pending version is older than an applied one).
 * - `MIGRATION_FAILED`: a command of a migration failed; the run stopped there.
 * - `MIGRATION_LOCKED`: another process holds the migration lock.
 * - `MIGRATION_REINDEX`: a zero-downtime reindex step cannot go on.
 */
export type MigrationErrorCode =
  | "MIGRATION_FILE"
  | "MIGRATION_VALIDATE"
  | "MIGRATION_FAILED"
  | "MIGRATION_LOCKED"
  | "MIGRATION_REINDEX";

/** Where a migration failed: the file, the command (1-based) and its line. */
export interface MigrationSite {
  /** The file name, e.g. `V2__add_email.es`. */
  file?: string;
  /** The version, e.g. `2`. */
  version?: string;
  /** The 1-based index of the failing command within the file. */
  command?: number;
  /** The 1-based line of that command in the file. */
  line?: number;
}

/**
 * A migration could not be read, validated or applied, or the lock is held. `code` says which;
 * `file`, `version`, `command` and `line` say where; `cause` keeps the server's error.
 *
 * @example
 * ```ts
 * import { MigrationError } from "@searchvisitor/searchvisitor/migrate";
 * import assert from "node:assert/strict";
 *
 * const e = new MigrationError("MIGRATION_FAILED", "the index exists", {
 *   file: "V1__users.es",
 *   command: 2,
 *   line: 4,
 * });
 * assert.equal(e.code, "MIGRATION_FAILED");
 * assert.equal(e.message, "V1__users.es, command 2 (line 4): the index exists");
 * ```
 */
export class MigrationError extends Error {
  /** What kind of failure this is. */
  readonly code: MigrationErrorCode;
  /** The file, when known. */
  readonly file?: string;
  /** The version, when known. */
  readonly version?: string;
  /** The 1-based command index within the file, when known. */
  readonly command?: number;
  /** The 1-based line of the command, when known. */
  readonly line?: number;

  /**
   * Creates the error.
   *
   * @param code The kind of failure.
   * @param message What is wrong and what to do (the site is put in front).
   * @param site Where.
   * @param options The cause.
   */
  constructor(
    code: MigrationErrorCode,
    message: string,
    site: MigrationSite = {},
    options: { cause?: unknown } = {},
  ) {
    super(siteText(site) + message, options);
    this.name = "MigrationError";
    this.code = code;
    if (site.file !== undefined) this.file = site.file;
    if (site.version !== undefined) this.version = site.version;
    if (site.command !== undefined) this.command = site.command;
    if (site.line !== undefined) this.line = site.line;
  }
}

function siteText(site: MigrationSite): string {
  if (site.file === undefined) return "";
  let text = site.file;
  if (site.command !== undefined) text += `, command ${site.command}`;
  if (site.line !== undefined) text += ` (line ${site.line})`;
  return text + ": ";
}
