// The insert builder: entities or maps → one `_create`/`_doc` request, or one `_bulk` for several.

import type { BoundTemplate } from "../template/mod.ts";
import { toDocument } from "../template/internal.ts";
import { compileInsert, type InsertDoc } from "./compiler.ts";
import type { Runtime } from "./_runtime.ts";
import type { Target } from "./target.ts";

interface Pending extends InsertDoc {
  /** The entity to write a generated `_id` back into. */
  readonly entity?: Record<string, unknown>;
}

function idText(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  throw new TypeError(`${where}: the key must be a string or a number, got a ${typeof value}`);
}

/**
 * Inserts documents: `applyEntity` (one entity or an array) and `applyMap` (one map or an array),
 * then `executeSumResult()` (how many were written) or `executeGetKeys()` (their `_id`s). The key
 * field is the document `_id`: a document with a key is created under it (an existing `_id` is an
 * error, never an overwrite); one without gets a generated `_id`, written back into the entity.
 * Several documents go in one `_bulk` request; when items fail, a `BulkError` lists every item.
 * For a bare index name, a map's `_id` entry is its `_id`.
 *
 * @example
 * ```ts
 * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * const insert = lambda.insert("users").applyMap([{ _id: "1", name: "ann" }, { name: "bob" }]);
 * assert.deepEqual(insert.toCommand(), {
 *   text: "POST /{?}/_bulk?refresh=true\n?\n?\n?\n?\n",
 *   args: ["users", { create: { _id: "1" } }, { name: "ann" }, { index: {} }, { name: "bob" }],
 * });
 * ```
 */
export class InsertBuilder<T> {
  readonly #runtime: Runtime;
  readonly #target: Target;
  readonly #docs: readonly Pending[];

  /**
   * Builders come from `LambdaTemplate.insert`.
   *
   * @ignore
   */
  constructor(runtime: Runtime, target: Target, docs: readonly Pending[] = []) {
    this.#runtime = runtime;
    this.#target = target;
    this.#docs = Object.freeze(docs);
  }

  /** Adds one entity or several (their fields as declared; `insert: false` fields left out). */
  applyEntity(entity: T | readonly T[]): InsertBuilder<T> {
    const list = Array.isArray(entity) ? entity : [entity];
    const added = list.map((e, i) => {
      if (e === null || typeof e !== "object") {
        throw new TypeError(`applyEntity: item ${i} is not an object`);
      }
      const source = { ...toDocument(e as object, "insert") };
      const key = this.#target.key;
      let id: string | undefined;
      if (key !== undefined) {
        id = idText((e as Record<string, unknown>)[key.field], `applyEntity: item ${i}`);
        if (id === undefined) delete source[key.column];
      }
      return Object.freeze({
        source: Object.freeze(source),
        entity: e as Record<string, unknown>,
        ...(id !== undefined ? { id } : {}),
      });
    });
    return new InsertBuilder<T>(this.#runtime, this.#target, [...this.#docs, ...added]);
  }

  /**
   * Adds one document map or several, keyed by document field names. The `_id` entry (or, for an
   * entity class, the key's field) gives the `_id`.
   */
  applyMap(map: Record<string, unknown> | readonly Record<string, unknown>[]): InsertBuilder<T> {
    const list = Array.isArray(map) ? map : [map];
    const added = list.map((m, i) => {
      if (m === null || typeof m !== "object") {
        throw new TypeError(`applyMap: item ${i} is not an object`);
      }
      const source: Record<string, unknown> = { ...m };
      let id = idText(source._id, `applyMap: item ${i}`);
      delete source._id;
      const key = this.#target.key;
      if (id === undefined && key !== undefined) {
        id = idText(source[key.column], `applyMap: item ${i}`);
      }
      return Object.freeze({ source: Object.freeze(source), ...(id !== undefined ? { id } : {}) });
    });
    return new InsertBuilder<T>(this.#runtime, this.#target, [...this.#docs, ...added]);
  }

  /** The command this insert sends, without any I/O. */
  toCommand(): BoundTemplate {
    return compileInsert(this.#target.index, this.#docs, this.#runtime.refresh);
  }

  async #run(): Promise<{ count: number; keys: string[] }> {
    if (this.#docs.length === 0) return { count: 0, keys: [] };
    const written = await this.#runtime.jdbc.executeUpdateWithKeys(this.toCommand());
    const key = this.#target.key;
    if (key !== undefined) {
      this.#docs.forEach((d, i) => {
        const id = written.keys[i];
        if (d.id === undefined && d.entity !== undefined && id !== undefined) {
          d.entity[key.field] = id;
        }
      });
    }
    return written;
  }

  /** Writes the documents; resolves to how many were written (0 when none were added). */
  async executeSumResult(): Promise<number> {
    return (await this.#run()).count;
  }

  /** Writes the documents; resolves to their `_id`s in the order they were added. */
  async executeGetKeys(): Promise<string[]> {
    return (await this.#run()).keys;
  }
}
