// BaseMapper<T>: the ready-made methods of every mapper of an entity: writes and reads by key
// (real-time), reads by sample, counts and pages. Extend it in a mapper class, or get one from
// session.createBaseMapper(Entity).

import type { Page, PageResult } from "../template/mod.ts";
import { mapResultSet } from "../template/internal.ts";
import type {
  DeleteBuilder,
  InsertBuilder,
  LambdaTemplate,
  QueryBuilder,
  UpdateBuilder,
} from "../lambda/mod.ts";
import { withSample } from "./_samples.ts";
import { runtimeOf } from "./mapper_def.ts";
import { type EntityTarget, keyArgument, keyArguments, targetOf } from "./_entity_target.ts";
import {
  deleteEntity,
  deleteIds,
  replaceEntity,
  updateEntity,
  type WriteOptions,
} from "./_entity_writes.ts";
import type { RunContext } from "./_statement_runner.ts";
import { inStatement } from "./errors.ts";

interface Context<T> {
  exec: RunContext;
  target: EntityTarget<T>;
  writes: WriteOptions;
  lambda: LambdaTemplate;
}

/**
 * The methods every entity mapper has. Writes by key are single-document requests (several
 * entities → one `_bulk`); `selectById`/`selectByIds` are real-time (they see documents before
 * any refresh); counts are real. When the entity has a version field, reads fill it and
 * `update`/`replace`/`delete` only succeed if the document is unchanged since
 * (else {@linkcode OptimisticLockError}).
 *
 * @typeParam T The entity type.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { BaseMapper, Configuration, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import { Column, Table } from "@searchvisitor/searchvisitor/template";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * @Table("books")
 * class Book { @Column({ primary: true }) id = ""; @Column() title = ""; }
 * @SimpleMapper({ entity: Book })
 * class BookMapper extends BaseMapper<Book> {}
 *
 * const engine = new Engine();
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
 * const books = session.createMapper(BookMapper);
 * assert.equal(await books.insert(Object.assign(new Book(), { id: "1", title: "Dune" })), 1);
 * assert.equal((await books.selectById("1"))?.title, "Dune");
 * assert.equal(await books.deleteById("1"), 1);
 * assert.equal(await books.selectById("1"), null);
 * ```
 */
export class BaseMapper<T extends object> {
  #context(method: string): Context<T> {
    const runtime = runtimeOf(this, method);
    return {
      exec: runtime.executor,
      target: targetOf(runtime.entity, runtime.mapper) as EntityTarget<T>,
      writes: runtime.writes,
      lambda: runtime.lambda,
    };
  }

  async #run<R>(method: string, work: (c: Context<T>) => Promise<R>): Promise<R> {
    const context = this.#context(method);
    try {
      return await work(context);
    } catch (error) {
      throw inStatement(error, { mapper: context.target.mapper, method });
    }
  }

  /**
   * Inserts one entity, or several in one `_bulk` request (through LambdaTemplate). An entity
   * whose key is empty gets the generated `_id` written back; a key that exists already fails
   * (it is a create). Without arguments: a lambda insert builder for the entity.
   *
   * @param entities One entity or an array.
   * @returns How many were written.
   */
  insert(entities: T | readonly T[]): Promise<number>;
  /**
   * Opens a lambda insert builder for the entity.
   *
   * @returns The builder.
   */
  insert(): InsertBuilder<T>;
  insert(...args: [] | [T | readonly T[]]): Promise<number> | InsertBuilder<T> {
    if (args.length === 0) return this.#builders("insert").insert(this.#type("insert"));
    const list = Array.isArray(args[0]) ? args[0] as readonly T[] : [args[0] as T];
    return this.#run(
      "insert",
      (c) => c.lambda.insert(c.target.type).applyEntity(list).executeSumResult(),
    );
  }

  #builders(method: string): LambdaTemplate {
    return runtimeOf(this, method).lambda;
  }

  #type(method: string) {
    return this.#context(method).target.type;
  }

  /**
   * Opens a lambda query builder for the entity.
   *
   * @returns The builder.
   */
  query(): QueryBuilder<T> {
    return this.#builders("query").query(this.#type("query"));
  }

  /**
   * Reads the documents matching a sample: each set field must be equal (exact match; `null`
   * in a plain object means "missing"). Fields of an entity instance still at their initial
   * value are ignored; pass a plain object to match such a value.
   *
   * @param sample An entity or a plain object of fields.
   * @returns The entities.
   */
  listBySample(sample: Partial<T>): Promise<T[]> {
    return this.#run("listBySample", async (c) => {
      const q = withSample(c.lambda.query(c.target.type), c.target, sample, "listBySample");
      return [...await q.queryForList()];
    });
  }

  /**
   * Counts the documents matching a sample (one `_count`).
   *
   * @param sample An entity or a plain object of fields.
   * @returns The count.
   */
  countBySample(sample: Partial<T>): Promise<number> {
    return this.#run("countBySample", (c) => {
      const q = withSample(c.lambda.query(c.target.type), c.target, sample, "countBySample");
      return q.queryForCount();
    });
  }

  /**
   * Reads one page of the documents matching a sample, with the total from the same response.
   *
   * @param sample An entity or a plain object of fields.
   * @param page The page (its `totalCount` is set too).
   * @param order Sort fields and directions, in order.
   * @returns The page of entities.
   */
  pageBySample(
    sample: Partial<T>,
    page: Page,
    order: Partial<Record<keyof T & string, "asc" | "desc">> = {},
  ): Promise<PageResult<T>> {
    return this.#run("pageBySample", async (c) => {
      let q = withSample(c.lambda.query(c.target.type), c.target, sample, "pageBySample");
      for (const [field, direction] of Object.entries(order)) {
        q = q.orderBy(field as never, direction as "asc" | "desc");
      }
      const result = await q.usePage(page).queryForPage();
      page.setTotalCount(result.getTotalCount());
      return result;
    });
  }

  /**
   * Reads a document by key with a real-time GET.
   *
   * @param id The key.
   * @returns The entity, or null.
   * @throws {InvalidArgumentError} For a null, undefined or empty key (nothing is sent).
   */
  selectById(id: string | number): Promise<T | null> {
    return this.#run("selectById", async (c) => {
      const key = keyArgument(id, "selectById", "id"); // refused before any request
      const vectors = await c.lambda.vectorFields(c.target.index);
      const rows = await c.exec.jdbc.queryForList(
        vectors.length === 0 ? "GET /{?}/_doc/{?}" : "GET /{?}/_doc/{?}?_source_includes={?}",
        [c.target.index, key, ...includes(vectors)],
        c.target.type,
      );
      return rows[0] ?? null;
    });
  }

  /**
   * Reads documents by key with one `_mget`: in the order asked, missing ones skipped.
   *
   * @param ids The keys.
   * @returns The entities found.
   * @throws {InvalidArgumentError} For a null, undefined or empty key (nothing is sent).
   */
  selectByIds(ids: readonly (string | number)[]): Promise<T[]> {
    return this.#run("selectByIds", async (c) => {
      const keys = keyArguments(ids, "selectByIds", "ids");
      if (keys.length === 0) return [];
      const vectors = await c.lambda.vectorFields(c.target.index);
      return await c.exec.jdbc.query(
        vectors.length === 0 ? "POST /{?}/_mget ?" : "POST /{?}/_mget?_source_includes={?} ?",
        [c.target.index, ...includes(vectors), { ids: keys }],
        {
          extractor: (rs) => {
            const raw = rs.raw as { docs?: { found?: boolean }[] } | null;
            const found = (raw?.docs ?? []).map((d) => d?.found !== false);
            return mapResultSet(rs, c.target.type).filter((_, i) => found[i]);
          },
        },
      );
    });
  }

  /**
   * Updates, by key, only the fields the caller set; the document's other fields stay as they
   * are. On an entity instance a field counts as set when it is not undefined, not null and not
   * still at the value a fresh instance holds (`new User()`'s `""`, `0`, `[]`) — the same rule
   * samples use; on a plain object every field present and not undefined is set (null clears
   * it). To write a field at its empty value on purpose, use {@linkcode updateFields}; to write
   * every field, {@linkcode replace}. With a version field, only when the document is unchanged
   * since it was read.
   *
   * The version field keeps the value it was read with, so a second conditional write of the
   * same object fails: read the document again before writing it again.
   *
   * @param entity The entity (its key is required).
   * @returns 1, or 0 when no document has the key.
   * @throws {OptimisticLockError} When the version does not match.
   * @throws {InvalidArgumentError} When the entity has no key (nothing is sent).
   */
  update(entity: T): Promise<number>;
  /**
   * Opens a lambda update builder for the entity.
   *
   * @returns The builder.
   */
  update(): UpdateBuilder<T>;
  update(...args: [] | [T]): Promise<number> | UpdateBuilder<T> {
    if (args.length === 0) return this.#builders("update").update(this.#type("update"));
    return this.#run("update", (c) => updateEntity(c, args[0]));
  }

  /**
   * Updates, by key, exactly the named fields with the values the entity holds — `""`, `0` and
   * `null` included (the explicit form of {@linkcode update} for writing an empty value on
   * purpose). Other fields of the document stay as they are.
   *
   * @param entity The entity (its key is required).
   * @param fields The class fields to write (not the key or the version field).
   * @returns 1, or 0 when no document has the key.
   * @throws {MapperError} For a field that is unknown, the key, `update: false` or undefined.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column, Table } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * @Table("members")
   * class Member { @Column({ primary: true }) id = ""; @Column() nick = ""; @Column() age = 0; }
   * const engine = new Engine();
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * const members = session.createBaseMapper(Member);
   * await members.insert(Object.assign(new Member(), { id: "m1", nick: "ann", age: 30 }));
   * // update() leaves nick alone (still ""), updateFields() writes the "" on purpose
   * await members.update(Object.assign(new Member(), { id: "m1", age: 31 }));
   * assert.deepEqual({ ...await members.selectById("m1") }, { id: "m1", nick: "ann", age: 31 });
   * await members.updateFields(Object.assign(new Member(), { id: "m1" }), ["nick"]);
   * assert.deepEqual({ ...await members.selectById("m1") }, { id: "m1", nick: "", age: 31 });
   * ```
   */
  updateFields(entity: T, fields: readonly (keyof T & string)[]): Promise<number> {
    return this.#run(
      "updateFields",
      (c) => updateEntity(c, entity, fields, "updateFields"),
    );
  }

  /**
   * Writes the whole entity under its key (all fields, nulls included), replacing the document.
   * With a version field, only when the document is unchanged since it was read.
   *
   * @param entity The entity (its key is required).
   * @returns 1.
   * @throws {OptimisticLockError} When the version does not match.
   */
  replace(entity: T): Promise<number> {
    return this.#run("replace", (c) => replaceEntity(c, entity));
  }

  /**
   * Inserts an entity without a key (generating one), else writes it under its key, creating
   * or replacing the document (checked against its version when it has one).
   *
   * @param entity The entity.
   * @returns 1.
   */
  upsert(entity: T): Promise<number> {
    return this.#run("upsert", (c) => {
      const key = (entity as Record<string, unknown>)[c.target.key];
      return key === undefined || key === null || key === ""
        ? c.lambda.insert(c.target.type).applyEntity(entity).executeSumResult()
        : replaceEntity(c, entity, "upsert");
    });
  }

  /**
   * Deletes the document of an entity, by key (checked against its version when it has one).
   *
   * @param entity The entity.
   * @returns 1, or 0 when it did not exist.
   */
  delete(entity: T): Promise<number>;
  /**
   * Opens a lambda delete builder for the entity.
   *
   * @returns The builder.
   */
  delete(): DeleteBuilder<T>;
  delete(...args: [] | [T]): Promise<number> | DeleteBuilder<T> {
    if (args.length === 0) return this.#builders("delete").delete(this.#type("delete"));
    return this.#run("delete", (c) => deleteEntity(c.exec, c.target, c.writes, args[0]));
  }

  /**
   * Deletes a document by key.
   *
   * @param id The key.
   * @returns 1, or 0 when it did not exist.
   * @throws {InvalidArgumentError} For a null, undefined or empty key (nothing is sent).
   */
  deleteById(id: string | number): Promise<number> {
    return this.#run(
      "deleteById",
      (c) => deleteIds(c.exec, c.target, c.writes, [keyArgument(id, "deleteById", "id")]),
    );
  }

  /**
   * Deletes documents by key, in one `_bulk` request.
   *
   * @param ids The keys.
   * @returns How many existed and were deleted.
   * @throws {InvalidArgumentError} For a null, undefined or empty key (nothing is sent).
   */
  deleteByIds(ids: readonly (string | number)[]): Promise<number> {
    return this.#run(
      "deleteByIds",
      (c) => deleteIds(c.exec, c.target, c.writes, keyArguments(ids, "deleteByIds", "ids")),
    );
  }

  /**
   * Counts every document of the index.
   *
   * @returns The count.
   */
  countAll(): Promise<number> {
    return this.#run("countAll", async (c) => {
      const n = await c.exec.jdbc.queryForNumber("POST /{?}/_count", [c.target.index]);
      return n === null ? 0 : Number(n);
    });
  }
}

/**
 * The `_source_includes` value of a read by key that names the `dense_vector` fields beside `*`
 * (Elasticsearch 9 leaves vectors out of `_source` unless they are named); none without vectors.
 */
function includes(vectors: readonly string[]): string[] {
  return vectors.length === 0 ? [] : [["*", ...vectors].join(",")];
}
