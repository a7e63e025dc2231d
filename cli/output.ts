/**
 * How the console shows results: tables with counts and `took`, JSON or NDJSON rows, update
 * counts, and errors (a syntax error with its caret excerpt and where it is).
 *
 * @module
 */

import {
  CommandSyntaxError,
  ConnectionError,
  DataAccessError,
  type ResultSet,
  type StatementBase,
  TimeoutError,
} from "../driver/mod.ts";
import { formatTable } from "./table.ts";
import { grouped } from "./progress.ts";

/** The output formats of `.format` and `--format`. */
export type Format = "table" | "json" | "ndjson";

/** The formats, for checking user input. */
export const FORMATS: readonly Format[] = ["table", "json", "ndjson"];

/** Exit codes of the console, for scripts. */
export const EXIT = {
  /** Everything ran. */
  ok: 0,
  /** The server refused a command (an error status, refused bulk items). */
  failed: 1,
  /** The input is wrong: a command that does not parse or bind, a bad NDJSON line, a missing file. */
  input: 2,
  /** No node answered, or a request timed out. */
  connection: 3,
  /** The command line itself is wrong. */
  usage: 64,
} as const;

/**
 * The exit code an error stands for.
 *
 * @param error What was thrown.
 * @returns One of {@linkcode EXIT}'s codes.
 *
 * @example
 * ```ts
 * import { EXIT, exitCodeOf } from "@searchvisitor/searchvisitor/cli";
 * import { ConnectionError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * assert.equal(exitCodeOf(new ConnectionError("no node answered")), EXIT.connection);
 * ```
 */
export function exitCodeOf(error: unknown): number {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return EXIT.connection;
  if (error instanceof DataAccessError) return EXIT.failed;
  return EXIT.input;
}

/**
 * Describes an error for a person: `where: message`, a syntax error's position counted in the
 * whole file, and the command that failed.
 *
 * @param error What was thrown.
 * @param source The file name (or `<stdin>`, `<prompt>`), when known.
 * @returns The text to print on stderr.
 *
 * @example
 * ```ts
 * import { describeError } from "@searchvisitor/searchvisitor/cli";
 * import { CommandSyntaxError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const error = new CommandSyntaxError("expected a path", "GET idx", { line: 1, column: 5 });
 * assert.equal(describeError(error, "q.es"), "q.es:1:5: error: expected a path (line 1, column 5)\nGET idx\n    ^");
 * ```
 */
export function describeError(error: unknown, source?: string): string {
  if (error instanceof CommandSyntaxError) {
    return `${source ? `${source}:${error.line}:${error.column}: ` : ""}error: ${error.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const command = error instanceof DataAccessError && error.command
    ? `\n  in: ${error.command.split("\n")[0]}`
    : "";
  return `${source ? `${source}: ` : ""}error: ${message}${command}`;
}

function totalText(rs: ResultSet): string {
  if (rs.total === null) return "";
  return `, total ${grouped(rs.total.value)}${rs.total.relation === "gte" ? "+" : ""}`;
}

/**
 * Renders a result set in a format.
 *
 * @param rs The rows.
 * @param format Table, JSON or NDJSON.
 * @param width The width a table must fit.
 * @returns The text to print.
 */
export function renderResultSet(rs: ResultSet, format: Format, width?: number): string {
  const rows = rs.toArray();
  if (format === "ndjson") return rows.map((row) => JSON.stringify(row)).join("\n");
  if (format === "json") return JSON.stringify(rows, null, 2);
  const columns = rs.getColumns();
  const table = columns.length > 0
    ? formatTable(columns, rows.map((row) => columns.map((c) => row[c])), { width })
    : "";
  const count = `${grouped(rows.length)} row${rows.length === 1 ? "" : "s"}`;
  const took = rs.took === null ? "" : `, took ${rs.took} ms`;
  const aggs = rs.aggregations === undefined
    ? ""
    : `\naggregations: ${JSON.stringify(rs.aggregations, null, 2)}`;
  return `${table}${table ? "\n" : ""}(${count}${totalText(rs)}${took})${aggs}`;
}

/**
 * Renders every result of a statement's last execution (one per command, one per sub-search of
 * `_msearch`).
 *
 * @param stmt The statement that ran.
 * @param format Table, JSON or NDJSON.
 * @param width The width a table must fit.
 * @returns The text to print, one block per result.
 *
 * @example
 * ```ts
 * import { renderResults } from "@searchvisitor/searchvisitor/cli";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch = () => Promise.resolve(Response.json({ took: 4, hits: {
 *   total: { value: 1, relation: "eq" }, hits: [{ _id: "7", _source: { name: "Ada" } }] } }));
 * const stmt = (await new DataSource({ nodes: ["http://es:9200"], fetch }).getConnection()).createStatement();
 * await stmt.execute("GET /people/_search");
 * assert.equal(renderResults(stmt, "table"), [
 *   "| _ID | _DOC           |",
 *   "|-----|----------------|",
 *   '| 7   | {"name":"Ada"} |',
 *   "(1 row, total 1, took 4 ms)",
 * ].join("\n"));
 * ```
 */
export function renderResults(stmt: StatementBase, format: Format, width?: number): string {
  const blocks: string[] = [];
  for (;;) {
    const rs = stmt.getResultSet();
    if (rs !== null) blocks.push(renderResultSet(rs, format, width));
    else {
      const count = stmt.getUpdateCount();
      if (count < 0) break;
      blocks.push(
        format === "table" ? `OK, ${grouped(count)} affected` : JSON.stringify({ updated: count }),
      );
    }
    stmt.getMoreResults();
  }
  return blocks.join("\n");
}
