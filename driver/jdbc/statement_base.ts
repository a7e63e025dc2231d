/**
 * The part every statement shares: the results of the last execution (one per command, one per
 * sub-search for `_msearch`), generated keys, max rows, the query timeout, and running bound
 * commands or a batch.
 *
 * @module
 */

import { IllegalStateError } from "../errors.ts";
import type { BoundCommand } from "../command/_command.ts";
import { runBatch } from "../wire/_bulk_batch.ts";
import { type CallOptions, type Executor, executorOf } from "../wire/_executor.ts";
import type { Outcome } from "../wire/_response_mapper.ts";
import { ResultSet } from "./result_set.ts";
import type { Connection } from "./connection.ts";

/**
 * Options of one call: a signal that aborts it (the call then fails with `TimeoutError`).
 *
 * @example
 * ```ts
 * import { DataSource, TimeoutError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch = (_url: string, init: RequestInit) =>
 *   new Promise<Response>((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
 * const stmt = (await new DataSource({ nodes: ["http://es:9200"], fetch }).getConnection()).createStatement();
 * const controller = new AbortController();
 * const pending = stmt.execute("GET /", [], { signal: controller.signal });
 * controller.abort();
 * await assert.rejects(pending, TimeoutError);
 * ```
 */
export interface ExecuteOptions {
  /** Aborts the request; the call rejects with `TimeoutError` whose `cause` is the reason. */
  signal?: AbortSignal;
}

type StatementResult = ResultSet | number;

/**
 * What every statement shares: the results of the last execution, generated keys, max rows,
 * the query timeout, the batch, and running bound commands (`executeCommands`, for layers that
 * bind commands themselves).
 * @example
 * ```ts
 * import { bindScript, DataSource, parseScript, StatementBase } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const fetch = () => Promise.resolve(Response.json({ count: 3 }));
 * const stmt = (await new DataSource({ nodes: ["http://es:9200"], fetch }).getConnection()).createStatement();
 * assert.ok(stmt instanceof StatementBase);
 * const commands = bindScript(parseScript("GET /{?}/_count"), ["users"]);
 * assert.equal(await stmt.executeCommands(commands), true);
 * assert.equal(stmt.getResultSet()?.toArray()[0].COUNT, 3);
 * ```
 */
export abstract class StatementBase {
  /** The connection this statement runs on. */
  readonly connection: Connection;
  readonly #executor: Executor;
  #results: StatementResult[] = [];
  #current = 0;
  #keys: string[] = [];
  #batch: BoundCommand[] = [];
  #maxRows = 0;
  #timeoutMs: number | undefined;
  #closed = false;

  /**
   * Creates a statement on a connection.
   *
   * @param connection The connection to run on.
   */
  constructor(connection: Connection) {
    this.connection = connection;
    this.#executor = executorOf(connection);
    this.#executor.ensureOpen();
  }

  /**
   * Runs commands that are already bound, in order, keeping one result per command.
   *
   * @param commands The bound commands.
   * @param options The caller's signal.
   * @returns True when the first result is a result set.
   */
  async executeCommands(
    commands: readonly BoundCommand[],
    options: ExecuteOptions = {},
  ): Promise<boolean> {
    this.#ensureOpen();
    this.#results = [];
    this.#keys = [];
    this.#current = 0;
    for (const command of commands) {
      const outcomes = await this.#executor.run(command, this.#call(options));
      for (const outcome of outcomes) this.#results.push(this.#toResult(outcome));
    }
    return this.#results[0] instanceof ResultSet;
  }

  /**
   * Returns the current result when it is a result set, else null.
   *
   * @returns The current result when it is a result set, else null.
   */
  getResultSet(): ResultSet | null {
    const result = this.#results[this.#current];
    return result instanceof ResultSet ? result : null;
  }

  /**
   * Returns the current result when it is an update count, else -1.
   *
   * @returns The current result when it is an update count, else -1.
   */
  getUpdateCount(): number {
    const result = this.#results[this.#current];
    return typeof result === "number" ? result : -1;
  }

  /**
   * Moves to the next result of a multi-command text.
   *
   * @returns True when the next result is a result set; false for an update count or no more
   * results (then `getUpdateCount()` is -1).
   */
  getMoreResults(): boolean {
    if (this.#current < this.#results.length) this.#current++;
    return this.#results[this.#current] instanceof ResultSet;
  }

  /**
   * Returns the `_id`s written by the last execution, one row each, column `_ID`.
   *
   * @returns The `_id`s written by the last execution, one row each, column `_ID`.
   */
  getGeneratedKeys(): ResultSet {
    return new ResultSet(["_ID"], this.#keys.map((id) => [id]));
  }

  /**
   * Sets the most rows a result set keeps.
   *
   * @param max The most rows a result set keeps (0: no limit); extra rows are dropped.
   */
  setMaxRows(max: number): void {
    if (!Number.isInteger(max) || max < 0) {
      throw new TypeError(`setMaxRows(${max}): give a whole number, 0 for no limit`);
    }
    this.#maxRows = max;
  }

  /**
   * Returns the row limit (0: none).
   *
   * @returns The row limit (0: none).
   */
  getMaxRows(): number {
    return this.#maxRows;
  }

  /**
   * Sets the timeout of each request of this statement.
   *
   * @param ms Timeout of each request of this statement in milliseconds (0: the default).
   */
  setQueryTimeout(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new TypeError(`setQueryTimeout(${ms}): give milliseconds, 0 for the default`);
    }
    this.#timeoutMs = ms === 0 ? undefined : ms;
  }

  /**
   * Returns the timeout in milliseconds, 0 when the data source's applies.
   *
   * @returns The timeout in milliseconds, 0 when the data source's applies.
   */
  getQueryTimeout(): number {
    return this.#timeoutMs ?? 0;
  }

  /** Closes the statement; using it afterwards is an error. */
  close(): void {
    this.#closed = true;
    this.#results = [];
  }

  /**
   * Returns true after `close()` or after the connection closed.
   *
   * @returns True after `close()` or after the connection closed.
   */
  isClosed(): boolean {
    return this.#closed || this.connection.isClosed();
  }

  /** Runs bound commands and checks that the first result is a result set. */
  protected async queryCommands(
    commands: readonly BoundCommand[],
    options?: ExecuteOptions,
  ): Promise<ResultSet> {
    const rows = await this.executeCommands(commands, options);
    if (!rows) {
      throw new IllegalStateError(
        "executeQuery got an update count, not rows (the write was done); use executeUpdate or execute",
        { command: commands[0]?.text },
      );
    }
    return this.#results[0] as ResultSet;
  }

  /** Runs bound commands and checks that the first result is an update count. */
  protected async updateCommands(
    commands: readonly BoundCommand[],
    options?: ExecuteOptions,
  ): Promise<number> {
    await this.executeCommands(commands, options);
    const first = this.#results[0];
    if (first instanceof ResultSet) {
      throw new IllegalStateError(
        "executeUpdate got rows, not an update count; use executeQuery or execute",
        { command: commands[0]?.text },
      );
    }
    return first ?? 0;
  }

  /** Adds bound single-document writes to the batch that `executeBatch` sends. */
  protected addToBatch(commands: readonly BoundCommand[]): void {
    this.#batch.push(...commands);
  }

  /** Drops the commands added with `addBatch`. */
  clearBatch(): void {
    this.#batch = [];
  }

  /**
   * Runs the batch as one `_bulk` request and clears it.
   *
   * @param options The caller's signal.
   * @returns One count per command: 1 written, 0 for a noop update or a missing document.
   */
  executeBatch(options?: ExecuteOptions): Promise<number[]> {
    const batch = this.#batch;
    this.#batch = [];
    return this.batchCommands(batch, options);
  }

  /** Runs single-document writes as one `_bulk` request; returns one count per command. */
  protected async batchCommands(
    commands: readonly BoundCommand[],
    options: ExecuteOptions = {},
  ): Promise<number[]> {
    this.#ensureOpen();
    this.#results = [];
    this.#keys = [];
    this.#current = 0;
    if (commands.length === 0) return [];
    const { counts, keys } = await runBatch(this.#executor, commands, this.#call(options));
    this.#keys = keys;
    this.#results = counts;
    return counts;
  }

  /** Throws when the statement or its connection is closed. */
  protected ensureOpen(): void {
    this.#ensureOpen();
  }

  #ensureOpen(): void {
    if (this.#closed) throw new IllegalStateError("The statement is closed; create a new one");
    this.#executor.ensureOpen();
  }

  #call(options: ExecuteOptions): CallOptions {
    return { signal: options.signal, timeoutMs: this.#timeoutMs };
  }

  #toResult(outcome: Outcome): StatementResult {
    if (outcome.kind === "count") {
      this.#keys.push(...outcome.keys);
      return outcome.count;
    }
    const rows = this.#maxRows > 0
      ? outcome.table.rows.slice(0, this.#maxRows)
      : outcome.table.rows;
    return new ResultSet(outcome.table.columns, rows, outcome.meta);
  }
}
