/**
 * Statements run command text on a connection and hold its results: one result per command
 * (one per sub-search for `_msearch`), read with `getResultSet()`, `getUpdateCount()` and
 * `getMoreResults()`, plus the generated keys of the writes.
 *
 * @module
 */

import { CommandSyntaxError, IllegalStateError } from "../errors.ts";
import type { BoundCommand } from "../command/command.ts";
import { type ParsedScript, parseScript } from "../command/command_tokenizer.ts";
import { bindScript, bindSingle } from "../command/command_binder.ts";
import {
  type ExecuteOptions,
  resultOf,
  StatementBase,
  type StatementConnection,
} from "./statement_base.ts";
import type { ResultSet } from "./result_set.ts";
import { executorOf, NO_OPTIONS } from "../wire/_executor.ts";
import type { Outcome } from "../wire/_response_mapper.ts";

/**
 * Runs command text with positional arguments (`?` in JSON, `{?}` in paths and query values).
 *
 * @example Search and read rows
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch = () =>
 *   Promise.resolve(Response.json({
 *     took: 2,
 *     hits: { total: { value: 1, relation: "eq" }, hits: [{ _id: "1", _source: { name: "alice" } }] },
 *   }));
 * const conn = await new DataSource({ nodes: ["http://es:9200"], fetch }).getConnection();
 * const stmt = conn.createStatement();
 * const rs = await stmt.executeQuery('POST /users/_search {"query": {"term": {"name": ?}}}', ["alice"]);
 * assert.ok(rs.next());
 * assert.equal(rs.getString("_ID"), "1");
 * assert.equal(rs.getString("_DOC"), '{"name":"alice"}');
 * assert.equal(rs.total?.value, 1);
 * await conn.close();
 * ```
 */
export class Statement extends StatementBase {
  /**
   * Runs a text of one or more commands, in order. The first failing command stops the text
   * and its error is thrown (the commands before it have run; their writes are done).
   *
   * @param text The command text.
   * @param args The positional arguments, consumed left to right across all commands.
   * @param options The caller's signal.
   * @returns True when the first result is a result set.
   */
  execute(
    text: string,
    args: readonly unknown[] = [],
    options?: ExecuteOptions,
  ): Promise<boolean> {
    return bound(text, args, options, (commands) => this.executeCommands(commands, options));
  }

  /**
   * Runs a text whose first result is rows.
   *
   * @param text The command text.
   * @param args The positional arguments.
   * @param options The caller's signal.
   * @returns The first result set.
   */
  executeQuery(
    text: string,
    args: readonly unknown[] = [],
    options?: ExecuteOptions,
  ): Promise<ResultSet> {
    return bound(text, args, options, (commands) => this.queryCommands(commands, options));
  }

  /**
   * Runs a text whose first result is an update count.
   *
   * @param text The command text.
   * @param args The positional arguments.
   * @param options The caller's signal.
   * @returns The real number of documents written: the server's count for by-query and bulk
   *   writes, 0 for a noop update, never a guessed 1.
   */
  executeUpdate(
    text: string,
    args: readonly unknown[] = [],
    options?: ExecuteOptions,
  ): Promise<number> {
    return bound(text, args, options, (commands) => this.updateCommands(commands, options));
  }

  /**
   * Adds a single-document write to the batch (bound now, so a bad argument fails here).
   *
   * @param text One `PUT|POST /idx/_doc[/id]`, `/idx/_create/id`, `POST /idx/_update/id` or
   * `DELETE /idx/_doc/id` command.
   * @param args Its positional arguments.
   */
  addBatch(text: string, args: readonly unknown[] = []): void {
    this.ensureOpen();
    const commands = bind(text, args);
    if (commands.length !== 1) {
      throw new IllegalStateError(
        `addBatch takes exactly one command, got ${commands.length}; call addBatch once per command`,
        { command: text },
      );
    }
    this.addToBatch([commands[0]!]);
  }
}

/**
 * Runs a command text on a connection and gives its first result, as `execute` then
 * `getResultSet()` / `getUpdateCount()` on a new statement would (-1 when the text gives no
 * result), without the statement: for the template's reads, where a statement per call is only
 * a frame and a few objects more. A text of several commands runs them all, in order, on a
 * statement as `execute` does.
 *
 * @param connection A driver connection.
 * @param text The command text.
 * @param args The positional arguments.
 * @returns The first result set, or the first update count (-1 for none).
 */
export function executeFirst(
  connection: StatementConnection,
  text: string,
  args: readonly unknown[],
): Promise<ResultSet | number | bigint> {
  try {
    return executeFirstThen(connection, { text, args }, asIs);
  } catch (error) {
    return Promise.reject(error);
  }
}

const asIs = <T>(value: T): T => value;

/** A command text and its positional arguments (a template's bound command fits). */
export interface TextWithArgs {
  /** The command text. */
  readonly text: string;
  /** Its positional arguments. */
  readonly args: readonly unknown[];
}

/**
 * {@linkcode executeFirst}, handing the first result to `then` in the step that maps the
 * response: a caller that reads it right away (the template's `queryForList`) saves the async
 * frame and the promise hop of awaiting it first. Unlike `executeFirst`, a syntax or bind error
 * is thrown here, not returned as a rejection (the caller may tell it in its own terms at once).
 *
 * @param connection A driver connection.
 * @param command The command text and its positional arguments.
 * @param then Reads the first result set, or update count (-1 for none); it may throw.
 * @returns What `then` returns.
 */
export function executeFirstThen<T>(
  connection: StatementConnection,
  command: TextWithArgs,
  then: (first: ResultSet | number | bigint) => T,
): Promise<T> {
  const script = parseNonEmpty(command.text);
  if (script.commands.length !== 1) {
    const stmt = new Statement(connection);
    return stmt.executeCommands(bindScript(script, command.args)).then(() =>
      then(stmt.getResultSet() ?? stmt.getUpdateCount())
    );
  }
  return executorOf(connection).runThen(
    bindSingle(script, command.args),
    NO_OPTIONS,
    (outcomes: readonly Outcome[]) => {
      const first = outcomes[0];
      return then(first === undefined ? -1 : resultOf(first, 0));
    },
  );
}

function bind(
  text: string,
  args: readonly unknown[],
  options?: ExecuteOptions,
): BoundCommand[] {
  return bindScript(parseNonEmpty(text), args, options);
}

/**
 * Binds a text and hands its commands to `run`, with no async frame of its own (the inner
 * promise is handed back as is, one hop less); a parse or bind error still comes back as a
 * rejection, as from an async method.
 */
function bound<T>(
  text: string,
  args: readonly unknown[],
  options: ExecuteOptions | undefined,
  run: (commands: BoundCommand[]) => Promise<T>,
): Promise<T> {
  try {
    return run(bind(text, args, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Parses command text and refuses a text without any command (empty, or only comments).
 *
 * @param text The command text.
 * @returns The parsed script.
 */
export function parseNonEmpty(text: string): ParsedScript {
  const script = parseScript(text);
  if (script.commands.length === 0) {
    throw new CommandSyntaxError(
      "The text has no command; write METHOD path [body], e.g. GET /idx/_search",
      text,
      { line: 1, column: 1 },
    );
  }
  return script;
}
