// TC39 standard method decorators that declare statements: @Query @Insert @Update @Delete
// @Execute (and @Call, refused when the mapper is created). A decorated method's body is replaced
// by a forwarder to the session that created the instance.

import { defOfMetadata, forwarder } from "./mapper_def.ts";
import { MapperError } from "./errors.ts";
import {
  type InsertOptions,
  type Returns,
  type ReturnsOf,
  type ShapeCheck,
  type StatementKind,
  type StatementOptions,
  statementText,
} from "./statement_options.ts";

/**
 * A method decorator that declares a statement. Its type parameter is the declared result
 * shape: the decorated method's declared return type must agree with it — a method declared
 * `Promise<User | null>` under `@Query(text)` (a list) does not compile; add `returns: "one"`.
 * (`Returns`, the default, accepts any method.)
 *
 * @typeParam R The result shape the decorator declares.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import {
 *   bound,
 *   Configuration,
 *   Query,
 *   SimpleMapper,
 *   type StatementDecorator,
 * } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const all: StatementDecorator<"list"> = Query('POST /users/_search {"query": {"match_all": {}}}');
 * @SimpleMapper()
 * class UserMapper {
 *   @all
 *   list(): Promise<Record<string, unknown>[]> { return bound(); }
 * }
 * const fetch = () =>
 *   Promise.resolve(Response.json({ hits: { hits: [{ _id: "1", _source: { name: "ann" } }] } }));
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://es.local"], fetch }));
 * const rows = await session.createMapper(UserMapper).list();
 * assert.deepEqual(rows, [{ _ID: "1", _DOC: '{"name":"ann"}' }]);
 * ```
 */
export type StatementDecorator<R extends Returns = Returns> = <
  F extends (this: never, ...args: never[]) => unknown,
>(
  value: F & ShapeCheck<F, R>,
  context: ClassMethodDecoratorContext,
) => F;

function statement(
  kind: StatementKind | "call",
  text: string | readonly string[],
  options: InsertOptions,
): StatementDecorator {
  const joined = statementText(text);
  return (_value, context) => {
    if (context.static || context.private || typeof context.name !== "string") {
      throw new MapperError(
        "statement decorators go on public instance methods with a string name",
        { method: String(context.name) },
      );
    }
    const def = defOfMetadata(context.metadata);
    def.statements.set(context.name, Object.freeze({ kind, text: joined, options }));
    // deno-lint-ignore no-explicit-any
    return forwarder(context.name) as any;
  };
}

/**
 * Declares a read. Named arguments are the properties of the method's argument object
 * (`#{name}`), or positional parameters named by `params`. A `Page` argument (or a `Page`
 * property of the argument object) pages the search in the same request.
 *
 * @param text Template text; an array is joined line by line.
 * @param options `returns` (default `"list"`), `entity`, `params`.
 * @returns The method decorator.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import { bound, Configuration, Query, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import { Column, PageObject, type PageResult, Table } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * @Table("users")
 * class User {
 *   @Column({ primary: true }) id = "";
 *   @Column() name = "";
 *   @Column() age = 0;
 * }
 * @SimpleMapper({ entity: User })
 * class UserMapper {
 *   @Query('POST /users/_search {"query": {"term": {"name": #{name}}}}', { returns: "one" })
 *   byName(_args: { name: string }): Promise<User | null> { return bound(); }
 *   @Query(['POST /users/_search', '{"query": {"range": {"age": {"gte": #{min}}}}, "sort": ["age"]}'], { returns: "page", params: ["min", "page"] })
 *   olderThan(_min: number, _page: PageObject): Promise<PageResult<User>> { return bound(); }
 * }
 * const engine = new Engine();
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: engine.fetch }));
 * await session.jdbc().execute('PUT /users {"mappings": {"properties": {"name": {"type": "keyword"}}}}');
 * for (const [id, name, age] of [["1", "ann", 41], ["2", "bo", 7], ["3", "cy", 30]] as const) {
 *   await session.jdbc().execute(`PUT /users/_doc/${id}?refresh=true {"name": "${name}", "age": ${age}}`);
 * }
 * const users = session.createMapper(UserMapper);
 * assert.equal((await users.byName({ name: "bo" }))?.age, 7);
 * const page = new PageObject(0, 1);
 * const adults = await users.olderThan(18, page); // one request: from/size added to the search
 * assert.deepEqual(adults.data.map((u) => u.name), ["cy"]);
 * assert.equal(page.getTotalCount(), 2);
 * ```
 */
export function Query<const O extends StatementOptions = Record<never, never>>(
  text: string | readonly string[],
  options?: O,
): StatementDecorator<ReturnsOf<O, "list">> {
  return statement("query", text, options ?? {});
}

/**
 * Declares an insert. With `useGeneratedKeys`, the `_id`s the server generated are written to
 * `keyProperty` in the arguments.
 *
 * @param text Template text; an array is joined line by line.
 * @param options `returns` (default `"number"`), `params`, `useGeneratedKeys`, `keyProperty`.
 * @returns The method decorator.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import { bound, Configuration, Insert, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * @SimpleMapper()
 * class LogMapper {
 *   @Insert("POST /logs/_doc #{entry}", { useGeneratedKeys: true, keyProperty: "entry.id" })
 *   add(_args: { entry: { id?: string; text: string } }): Promise<number> { return bound(); }
 * }
 * const engine = new Engine();
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
 * const args: { entry: { id?: string; text: string } } = { entry: { text: "started" } };
 * assert.equal(await session.createMapper(LogMapper).add(args), 1);
 * assert.equal(typeof args.entry.id, "string"); // the generated _id, written back
 * engine.close();
 * ```
 */
export function Insert<const O extends InsertOptions = Record<never, never>>(
  text: string | readonly string[],
  options?: O,
): StatementDecorator<ReturnsOf<O, "number">> {
  return statement("insert", text, options ?? {});
}

/**
 * Declares an update; resolves to the real update count unless `returns` says otherwise.
 *
 * @param text Template text; an array is joined line by line.
 * @param options `returns` (default `"number"`), `params`.
 * @returns The method decorator.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import { bound, Configuration, SimpleMapper, Update } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * @SimpleMapper()
 * class UserMapper {
 *   @Update('POST /users/_update/#{id} {"doc": {"name": #{name}}}', { params: ["id", "name"] })
 *   rename(_id: string, _name: string): Promise<number> { return bound(); }
 * }
 * const engine = new Engine();
 * await engine.fetch("http://engine/users/_doc/1", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"name": "ann"}' });
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
 * assert.equal(await session.createMapper(UserMapper).rename("1", "anna"), 1);
 * const doc = await (await engine.fetch("http://engine/users/_doc/1")).json();
 * assert.equal(doc._source.name, "anna");
 * engine.close();
 * ```
 */
export function Update<const O extends StatementOptions = Record<never, never>>(
  text: string | readonly string[],
  options?: O,
): StatementDecorator<ReturnsOf<O, "number">> {
  return statement("update", text, options ?? {});
}

/**
 * Declares a delete; resolves to the real number of deleted documents by default.
 *
 * @param text Template text; an array is joined line by line.
 * @param options `returns` (default `"number"`), `params`.
 * @returns The method decorator.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import { bound, Configuration, Delete, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * @SimpleMapper()
 * class UserMapper {
 *   @Delete('POST /users/_delete_by_query?refresh=true {"query": {"term": {"name": #{name}}}}', { returns: "boolean" })
 *   removeNamed(_args: { name: string }): Promise<boolean> { return bound(); }
 * }
 * const engine = new Engine();
 * await engine.fetch("http://engine/users/_doc/1?refresh=true", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"name": "ann"}' });
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
 * const users = session.createMapper(UserMapper);
 * assert.equal(await users.removeNamed({ name: "ann" }), true);
 * assert.equal(await users.removeNamed({ name: "ann" }), false); // nothing left to delete
 * engine.close();
 * ```
 */
export function Delete<const O extends StatementOptions = Record<never, never>>(
  text: string | readonly string[],
  options?: O,
): StatementDecorator<ReturnsOf<O, "number">> {
  return statement("delete", text, options ?? {});
}

/**
 * Declares any command text (several commands allowed); resolves to one result per command by
 * default.
 *
 * @param text Template text; an array is joined line by line.
 * @param options `returns` (default `"results"`), `params`.
 * @returns The method decorator.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import { bound, Configuration, Execute, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * @SimpleMapper()
 * class AdminMapper {
 *   @Execute("PUT /${index}", { returns: "void" })
 *   createIndex(_args: { index: string }): Promise<void> { return bound(); }
 * }
 * const engine = new Engine();
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
 * assert.equal((await engine.fetch("http://engine/audit", { method: "HEAD" })).status, 404);
 * await session.createMapper(AdminMapper).createIndex({ index: "audit" });
 * assert.equal((await engine.fetch("http://engine/audit", { method: "HEAD" })).status, 200);
 * engine.close();
 * ```
 */
export function Execute<const O extends StatementOptions = Record<never, never>>(
  text: string | readonly string[],
  options?: O,
): StatementDecorator<ReturnsOf<O, "results">> {
  return statement("execute", text, options ?? {});
}

/**
 * A stored-procedure call. Search engines have none, so `session.createMapper` refuses a mapper
 * that declares one with `UnsupportedFeatureError` (when the mapper is created, not when the
 * method is first called).
 *
 * @param text The call text.
 * @returns The method decorator.
 *
 * @example
 * ```ts
 * import { DataSource, UnsupportedFeatureError } from "@searchvisitor/searchvisitor/driver";
 * import { bound, Call, Configuration, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * @SimpleMapper()
 * class LegacyMapper {
 *   @Call("{call refresh_all()}")
 *   refreshAll(): Promise<void> { return bound(); }
 * }
 * const session = new Configuration().newSession(new DataSource("http://127.0.0.1:9200"));
 * assert.throws(() => session.createMapper(LegacyMapper), UnsupportedFeatureError);
 * ```
 */
export function Call(text: string | readonly string[]): StatementDecorator {
  return statement("call", text, {});
}

/**
 * The body of a declared method: never runs, because the statement decorator replaces it. It
 * throws when a method has no statement decorator.
 *
 * @returns Never.
 *
 * @example
 * ```ts
 * import { bound, MapperError } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => bound(), MapperError);
 * ```
 */
export function bound(): never {
  throw new MapperError(
    "this method has no statement: add @Query, @Insert, @Update, @Delete or @Execute, or declare it with defineMapper()",
  );
}
