/**
 * Migration files: `V<version>__<description>.es` (console commands, several per file, with
 * comments) or `.json` (one zero-downtime reindex step), read into {@linkcode Migration}s with a
 * checksum and sorted by version.
 *
 * @module
 */

import { CommandSyntaxError, type ParsedCommand } from "../driver/mod.ts";
import { parseScript } from "../driver/internal.ts";
import { MigrationError } from "./errors.ts";
import { readReindexSpec, type ReindexSpec } from "./reindex.ts";

/** A migration file as text: its name (no folder) and its content. */
export interface MigrationSource {
  /** The file name, e.g. `V1__create_users.es`. */
  name: string;
  /** The file's text. */
  text: string;
}

/** One step of a migration: a console command, or a zero-downtime reindex. */
export type MigrationStep = CommandStep | ReindexStep;

/** A console command of a `.es` migration. */
export interface CommandStep {
  /** Always `command`. */
  kind: "command";
  /** The parsed command (method, path, body, line). */
  command: ParsedCommand;
}

/** A zero-downtime reindex of a `.json` migration. */
export interface ReindexStep {
  /** Always `reindex`. */
  kind: "reindex";
  /** The step. */
  spec: ReindexSpec;
}

/** A parsed migration file. */
export interface Migration {
  /** The version with `.` between parts (`V1_2__x.es` → `1.2`; `V01_0` → `1`). */
  version: string;
  /** The description from the name (`add_email` → `add email`). */
  description: string;
  /** The file name. */
  script: string;
  /** SHA-256 (hex) of the text with line ends made `\n`: an edit changes it. */
  checksum: string;
  /** The steps, in order. */
  steps: MigrationStep[];
}

const NAME = /^V(\d+(?:[._]\d+)*)__(\w[\w.-]*)\.(es|json)$/;

/**
 * Compares two versions part by part as numbers (`1.10` after `1.9`).
 *
 * @param a A version.
 * @param b Another.
 * @returns Negative, zero or positive.
 *
 * @example
 * ```ts
 * import { compareVersions } from "@searchvisitor/searchvisitor/migrate";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(["1.10", "2", "1.9"].sort(compareVersions), ["1.9", "1.10", "2"]);
 * ```
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The checksum of a migration's text: SHA-256 in hex over the text with `\r\n` made `\n`.
 *
 * @param text The file's text.
 * @returns 64 hex digits.
 *
 * @example
 * ```ts
 * import { checksumOf } from "@searchvisitor/searchvisitor/migrate";
 * import assert from "node:assert/strict";
 *
 * assert.equal(await checksumOf("PUT /a\r\n"), await checksumOf("PUT /a\n"));
 * assert.notEqual(await checksumOf("PUT /a"), await checksumOf("PUT /b"));
 * ```
 */
export async function checksumOf(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text.replace(/\r\n/g, "\n"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Reads migration files into migrations sorted by version. Files whose names do not start with
 * `V` are left out (a README beside them); a `V…` name that is not `V<n>__<words>.es|.json`, two
 * files of one version, a command that does not parse or has placeholders, and a `.json` that is
 * not one reindex step are refused with a `MIGRATION_FILE` error naming the file and line.
 *
 * @param files The files (name and text).
 * @returns The migrations, lowest version first.
 *
 * @example
 * ```ts
 * import { readMigrations } from "@searchvisitor/searchvisitor/migrate";
 * import assert from "node:assert/strict";
 *
 * const migrations = await readMigrations([
 *   { name: "V2__add_email.es", text: 'PUT /users/_mapping {"properties": {"email": {"type": "keyword"}}}' },
 *   { name: "V1__create_users.es", text: "# the index\nPUT /users\n// and a document\nPUT /users/_doc/1 {}" },
 *   { name: "README.md", text: "not a migration" },
 * ]);
 * assert.deepEqual(migrations.map((m) => [m.version, m.description, m.steps.length]), [
 *   ["1", "create users", 2],
 *   ["2", "add email", 1],
 * ]);
 * ```
 */
export async function readMigrations(files: readonly MigrationSource[]): Promise<Migration[]> {
  const out: Migration[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    if (!file.name.startsWith("V")) continue;
    const m = NAME.exec(file.name);
    if (!m) {
      throw new MigrationError(
        "MIGRATION_FILE",
        "a migration is named V<version>__<description>.es (or .json), e.g. V2__add_email.es",
        { file: file.name },
      );
    }
    const version = m[1]!.replace(/_/g, ".").replace(/(^|\.)0+(?=\d)/g, "$1")
      .replace(/(\.0)+$/, ""); // 1.0 is 1: one version, one spelling
    const other = seen.get(version);
    if (other !== undefined) {
      throw new MigrationError(
        "MIGRATION_FILE",
        `version ${version} is taken by ${other} too: give one of them a new version`,
        { file: file.name, version },
      );
    }
    seen.set(version, file.name);
    out.push({
      version,
      description: m[2]!.replace(/_/g, " "),
      script: file.name,
      checksum: await checksumOf(file.text),
      steps: m[3] === "json" ? jsonSteps(file) : commandSteps(file),
    });
  }
  return out.sort((a, b) => compareVersions(a.version, b.version));
}

function commandSteps(file: MigrationSource): MigrationStep[] {
  let commands: readonly ParsedCommand[];
  try {
    commands = parseScript(file.text).commands;
  } catch (error) {
    const line = error instanceof CommandSyntaxError ? error.line : undefined;
    throw new MigrationError(
      "MIGRATION_FILE",
      `the commands do not parse: ${(error as Error).message}`,
      { file: file.name, ...(line === undefined ? {} : { line }) },
      { cause: error },
    );
  }
  return commands.map((command, i) => {
    if (command.placeholderCount > 0) {
      throw new MigrationError(
        "MIGRATION_FILE",
        "a migration has no arguments to bind: write the values instead of ? or {?}",
        { file: file.name, command: i + 1, line: command.line },
      );
    }
    return { kind: "command", command };
  });
}

function jsonSteps(file: MigrationSource): MigrationStep[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.text);
  } catch (error) {
    throw new MigrationError(
      "MIGRATION_FILE",
      `not JSON: ${(error as Error).message}`,
      { file: file.name },
      { cause: error },
    );
  }
  const steps = Array.isArray(parsed) ? parsed : [parsed];
  return steps.map((step, i) => {
    const keys = step !== null && typeof step === "object" ? Object.keys(step) : [];
    if (keys.length !== 1 || keys[0] !== "reindex") {
      throw new MigrationError(
        "MIGRATION_FILE",
        'a .json migration holds {"reindex": {"alias": …, "mappings": …}} (or an array of them)',
        { file: file.name, command: i + 1 },
      );
    }
    try {
      return { kind: "reindex", spec: readReindexSpec((step as { reindex: unknown }).reindex) };
    } catch (error) {
      throw new MigrationError("MIGRATION_FILE", (error as Error).message, {
        file: file.name,
        command: i + 1,
      }, { cause: error });
    }
  });
}
