/**
 * The mapper layer: a {@linkcode Configuration} of statements (annotation mappers and mapper
 * files), a {@linkcode Session} per data source, {@linkcode BaseMapper} methods for entities, and
 * pagination in one request.
 *
 * - Declare statements with TC39 standard decorators (`@SimpleMapper`, `@Query`, `@Insert`,
 *   `@Update`, `@Delete`, `@Execute`; `@Call` is refused when the mapper is created) or without
 *   decorators through `defineMapper`.
 * - A method's named arguments are the properties of its argument object (`#{name}`);
 *   positional parameters are named with `params`. A `Page` argument pages the search: `from`,
 *   `size` and `track_total_hits` are added to its body and the total comes from `hits.total`
 *   of the same response.
 * - The result shape is declared with `returns` (`list`, `one`, `page`, `value`, `number`,
 *   `boolean`, `results`, `void`); rows become entities through entity metadata.
 * - Mapper files (read by the xml room) register with `config.addMapper(file)` or
 *   `await config.loadMapper(url)`; their statements run by id (`session.queryStatement("ns.id")`)
 *   or as the methods of a `@RefMapper` class.
 * - `BaseMapper<T>` gives reads and writes by key (real-time, with optimistic concurrency when the
 *   entity has a version field), reads by sample, and LambdaTemplate builders.
 * - Errors name the mapper class, the method and the statement id.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { BaseMapper, bound, Configuration, Query, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import { Column, PageObject, type PageResult, Table } from "@searchvisitor/searchvisitor/template";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * @Table("users")
 * class User { @Column({ primary: true }) id = ""; @Column() name = ""; @Column() age = 0; }
 *
 * @SimpleMapper({ entity: User })
 * class UserMapper extends BaseMapper<User> {
 *   @Query('POST /users/_search {"query": {"term": {"name": #{name}}}}', { returns: "one" })
 *   byName(_args: { name: string }): Promise<User | null> { return bound(); }
 *   @Query('POST /users/_search {"sort": [{"age": "asc"}]}', { returns: "page" })
 *   byAge(_page: PageObject): Promise<PageResult<User>> { return bound(); }
 * }
 *
 * const engine = new Engine();
 * const session = new Configuration()
 *   .newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
 * await session.jdbc().execute('PUT /users {"mappings": {"properties": {"name": {"type": "keyword"}}}}');
 * const users = session.createMapper(UserMapper);
 * const make = (id: string, name: string, age: number) => Object.assign(new User(), { id, name, age });
 * assert.equal(await users.insert([make("1", "ann", 31), make("2", "bob", 25), make("3", "cy", 40)]), 3);
 * assert.equal((await users.byName({ name: "bob" }))?.id, "2");
 * const page = await users.byAge(new PageObject(0, 2));
 * assert.deepEqual(page.data.map((u) => u.name), ["bob", "ann"]);
 * assert.equal(page.totalCount, 3);
 * ```
 *
 * @module
 */
export { Configuration, type ConfigurationOptions } from "./configuration.ts";
export type { CheckMode } from "./check_statements.ts";
export type { CheckOptions } from "../check/mod.ts";
export { Session } from "./session.ts";
export { IndexOps } from "./index_ops.ts";
export { BaseMapper } from "./base_mapper.ts";
export {
  bound,
  Call,
  Delete,
  Execute,
  Insert,
  Query,
  type StatementDecorator,
  Update,
} from "./statement_decorators.ts";
export {
  type DeclaredShapes,
  type MapperDecorator,
  type MapperOptions,
  RefMapper,
  type RefMapperDecorator,
  type RefMapperOptions,
  SimpleMapper,
} from "./mapper_decorators.ts";
export { defineMapper, type MapperDefinition, type MethodDefinition } from "./define_mapper.ts";
export type {
  InsertOptions,
  Returns,
  ReturnsOf,
  ShapeCheck,
  ShapeFits,
  ShapeMismatch,
  ShapeOf,
  StatementKind,
  StatementOptions,
} from "./statement_options.ts";
export { MapperError, OptimisticLockError, type StatementSite } from "./errors.ts";
export type { MapperClass } from "./mapper_def.ts";
export type { MapperFile, MapperStatement, RenderedStatement, ResultMapDef } from "../xml/mod.ts";
export type { EntityClass } from "../template/mod.ts";
export { type Page, type PageInfo, PageObject, PageResult } from "../template/mod.ts";
