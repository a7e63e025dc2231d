// The update builder: conditions + values → `_update` by key, else `_update_by_query`.

import { type BoundTemplate, getEntityMeta } from "../template/mod.ts";
import { initialValues, setEntries } from "../template/internal.ts";
import { compileUpdateById, compileUpdateByQuery } from "./compiler.ts";
import { Conditions, type FieldPath } from "./conditions.ts";
import { type Clauses, NO_CLAUSES } from "./nodes.ts";
import { resolverOf, type ToCommandOptions } from "./field_types.ts";
import type { Runtime } from "./_runtime.ts";
import { columnOf, type Target } from "./target.ts";
import { guardEmptyWhere, keyOf, runById, runByQuery } from "./_by_query.ts";
import { IllegalStateError } from "../driver/mod.ts";

type Values = Readonly<Record<string, unknown>>;

/** An update builder's state: its where-clauses, the values it sets, whether an empty where may run. */
interface UpdateState {
  /** The where-state (default none). */
  readonly clauses?: Clauses;
  /** The fields `doUpdate()` sets (default none yet). */
  readonly values?: Values;
  /** Whether `allowEmptyWhere()` was called (default false). */
  readonly allowEmpty?: boolean;
}

/**
 * Sets fields of the documents that match its conditions; `doUpdate()` resolves to the real
 * number changed. `updateTo(field, value)` and `updateToSample(partial)` name top-level fields
 * (set a whole object to change part of it); the key is the document `_id` and cannot be changed.
 * One `eq` on the key field (or on `_id`) is a plain `_update` of that document (0 when it is
 * missing or unchanged); anything else is `_update_by_query` after a refresh of the index and with
 * `refresh=true`. With no condition it refuses to run unless `allowEmptyWhere()` was called.
 *
 * @example
 * ```ts
 * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * const update = lambda.update("users").eq("city", "Oslo").updateTo("country", "NO");
 * assert.deepEqual(update.toCommand(), {
 *   text: 'POST /{?}/_update_by_query?refresh=true {"query":{"bool":{"filter":[{"term":{"city":?}}]}},"script":{"source":"ctx._source.putAll(params.data)","lang":"painless","params":{"data":?}}}',
 *   args: ["users", "Oslo", { country: "NO" }],
 * });
 * ```
 */
export class UpdateBuilder<T> extends Conditions<T> {
  readonly #runtime: Runtime;
  readonly #values: Values;
  readonly #allowEmpty: boolean;

  /**
   * Builders come from `LambdaTemplate.update`.
   *
   * @ignore
   */
  constructor(runtime: Runtime, target: Target, state: UpdateState = {}) {
    super(target, state.clauses ?? NO_CLAUSES);
    this.#runtime = runtime;
    this.#values = state.values ?? Object.freeze({});
    this.#allowEmpty = state.allowEmpty ?? false;
  }

  /**
   * A copy with another where-state.
   *
   * @ignore
   */
  protected override withClauses(clauses: Clauses): this {
    return new UpdateBuilder<T>(this.#runtime, this.target, {
      clauses,
      values: this.#values,
      allowEmpty: this.#allowEmpty,
    }) as this;
  }

  #set(entries: [string, unknown][]): this {
    const values = Object.freeze({ ...this.#values, ...Object.fromEntries(entries) });
    return new UpdateBuilder<T>(this.#runtime, this.target, {
      clauses: this.clauses,
      values,
      allowEmpty: this.#allowEmpty,
    }) as this;
  }

  #column(field: string, method: string): string {
    const column = columnOf(this.target, field, method);
    if (column.includes(".")) {
      throw new TypeError(
        `${method}(${
          JSON.stringify(field)
        }): name a top-level field; to change part of an object, set the whole object`,
      );
    }
    if (column === "_id" || column === this.target.key?.column) {
      throw new TypeError(
        `${method}(${
          JSON.stringify(field)
        }): the key is the document _id and cannot be updated; insert a new document and delete the old one`,
      );
    }
    return column;
  }

  /** Sets `field` to `value` (null clears it). */
  updateTo<K extends FieldPath<T>>(field: K, value: K extends keyof T ? T[K] : unknown): this {
    if (value === undefined) {
      throw new TypeError(
        `updateTo(${JSON.stringify(field)}): the value is undefined; pass null to clear the field`,
      );
    }
    return this.#set([[this.#column(field, "updateTo"), value]]);
  }

  /**
   * Sets the fields `sample` sets, under the one rule BaseMapper's `update` and samples use: on
   * an instance of the entity class, fields that are undefined, null or still at a fresh
   * instance's value (`""`, `0`, `[]`) are left alone; on a plain object every field that is not
   * undefined is set (`null` clears it). The key and fields declared `update: false` are skipped.
   * To write an initial value on purpose, use `updateTo(field, value)`.
   */
  updateToSample(sample: Partial<T>): this {
    if (sample === null || typeof sample !== "object") {
      throw new TypeError("updateToSample: pass an object");
    }
    const type = this.target.type;
    const skip = new Set(
      type ? getEntityMeta(type).fields.filter((f) => !f.update).map((f) => f.field) : [],
    );
    if (this.target.key) skip.add(this.target.key.field);
    skip.add("_id");
    const entries: [string, unknown][] = [];
    const isInstance = type !== undefined && sample instanceof type;
    const initial = isInstance ? initialValues(type) : undefined;
    for (const [field, value] of setEntries(sample, initial)) {
      if (skip.has(field)) continue;
      entries.push([this.#column(field, "updateToSample"), value]);
    }
    return this.#set(entries);
  }

  /** Allows `doUpdate()` with no condition: every document of the index is updated. */
  allowEmptyWhere(): this {
    return new UpdateBuilder<T>(this.#runtime, this.target, {
      clauses: this.clauses,
      values: this.#values,
      allowEmpty: true,
    }) as this;
  }

  /** The command `doUpdate()` sends, without any I/O. */
  toCommand(options?: ToCommandOptions): BoundTemplate {
    const id = keyOf(this.target, this.where);
    if (id !== undefined) {
      return compileUpdateById(this.target.index, id, this.#values, this.#runtime.refresh);
    }
    return compileUpdateByQuery(
      this.target.index,
      this.where,
      this.#values,
      {
        exact: resolverOf(options, this.#runtime.knownTypes(this.target.index)),
        refresh: this.#runtime.refresh,
      },
    );
  }

  /** Updates the matching documents; resolves to how many changed. */
  async doUpdate(): Promise<number> {
    const where = this.where;
    if (Object.keys(this.#values).length === 0) {
      throw new IllegalStateError(
        "doUpdate() has nothing to set; call updateTo() or updateToSample() first",
      );
    }
    guardEmptyWhere(this.target, where, { method: "doUpdate", allowEmpty: this.#allowEmpty });
    const id = keyOf(this.target, where);
    if (id !== undefined) {
      return await runById(
        this.#runtime,
        compileUpdateById(this.target.index, id, this.#values, this.#runtime.refresh),
      );
    }
    return await runByQuery(
      this.#runtime,
      this.target,
      where,
      (r) =>
        compileUpdateByQuery(this.target.index, where, this.#values, {
          exact: r,
          refresh: this.#runtime.refresh,
        }),
    );
  }
}
