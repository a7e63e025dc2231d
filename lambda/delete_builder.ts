// The delete builder: conditions → `DELETE /{index}/_doc/{id}` by key, else `_delete_by_query`.

import type { BoundTemplate } from "../template/mod.ts";
import { compileDeleteById, compileDeleteByQuery } from "./compiler.ts";
import { Conditions } from "./conditions.ts";
import { type Clauses, NO_CLAUSES } from "./nodes.ts";
import { resolverOf, type ToCommandOptions } from "./field_types.ts";
import type { Runtime } from "./_runtime.ts";
import type { Target } from "./target.ts";
import { guardEmptyWhere, keyOf, runById, runByQuery } from "./_by_query.ts";

/**
 * Deletes the documents that match its conditions; `doDelete()` resolves to the real number
 * deleted. One `eq` on the key field (or on `_id`) is a plain `DELETE` of that document; anything
 * else is `_delete_by_query` after a refresh of the index (so documents just written are counted)
 * and with `refresh=true` (so later reads no longer see them). With no condition it refuses to run
 * unless `allowEmptyWhere()` was called.
 *
 * @example
 * ```ts
 * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource, IllegalStateError } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * assert.deepEqual(lambda.delete("users").lt("age", 18).toCommand(), {
 *   text: 'POST /{?}/_delete_by_query?refresh=true {"query":{"bool":{"filter":[{"range":{"age":{"lt":?}}}]}}}',
 *   args: ["users", 18],
 * });
 * assert.deepEqual(lambda.delete("users").eq("_id", "7").toCommand(), { text: "DELETE /{?}/_doc/{?}?refresh=true", args: ["users", "7"] });
 * await assert.rejects(lambda.delete("users").doDelete(), IllegalStateError);
 * ```
 */
export class DeleteBuilder<T> extends Conditions<T> {
  readonly #runtime: Runtime;
  readonly #allowEmpty: boolean;

  /**
   * Builders come from `LambdaTemplate.delete`.
   *
   * @ignore
   */
  constructor(runtime: Runtime, target: Target, clauses: Clauses = NO_CLAUSES, allowEmpty = false) {
    super(target, clauses);
    this.#runtime = runtime;
    this.#allowEmpty = allowEmpty;
  }

  /**
   * A copy with another where-state.
   *
   * @ignore
   */
  protected override withClauses(clauses: Clauses): this {
    return new DeleteBuilder<T>(this.#runtime, this.target, clauses, this.#allowEmpty) as this;
  }

  /** Allows `doDelete()` with no condition: every document of the index is deleted. */
  allowEmptyWhere(): this {
    return new DeleteBuilder<T>(this.#runtime, this.target, this.clauses, true) as this;
  }

  /** The command `doDelete()` sends, without any I/O. */
  toCommand(options?: ToCommandOptions): BoundTemplate {
    const id = keyOf(this.target, this.where);
    if (id !== undefined) return compileDeleteById(this.target.index, id, this.#runtime.refresh);
    return compileDeleteByQuery(
      this.target.index,
      this.where,
      {
        exact: resolverOf(options, this.#runtime.knownTypes(this.target.index)),
        refresh: this.#runtime.refresh,
      },
    );
  }

  /** Deletes the matching documents; resolves to how many were deleted. */
  async doDelete(): Promise<number> {
    const where = this.where;
    guardEmptyWhere(this.target, where, { method: "doDelete", allowEmpty: this.#allowEmpty });
    const id = keyOf(this.target, where);
    if (id !== undefined) {
      return await runById(
        this.#runtime,
        compileDeleteById(this.target.index, id, this.#runtime.refresh),
      );
    }
    return await runByQuery(
      this.#runtime,
      this.target,
      where,
      (r) =>
        compileDeleteByQuery(this.target.index, where, {
          exact: r,
          refresh: this.#runtime.refresh,
        }),
    );
  }
}
