// TC39 standard class decorators that mark a mapper class: @SimpleMapper (annotations only) and
// @RefMapper (a mapper file's statements as methods, plus annotations).

import type { EntityClass } from "../template/mod.ts";
import type { MapperFile } from "../xml/mod.ts";
import { defOfMetadata, type MapperClass, setFileMethodOptions } from "./mapper_def.ts";
import type { Returns, ShapeOf } from "./statement_options.ts";

/**
 * A class decorator that marks a mapper class.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import {
 *   bound,
 *   Configuration,
 *   type MapperDecorator,
 *   Query,
 *   SimpleMapper,
 * } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const mark: MapperDecorator = SimpleMapper();
 * @mark
 * class NoteMapper {
 *   @Query("POST /notes/_count", { returns: "value" })
 *   count(): Promise<number> { return bound(); }
 * }
 * const fetch = () => Promise.resolve(Response.json({ count: 3 }));
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://es.local"], fetch }));
 * assert.equal(await session.createMapper(NoteMapper).count(), 3);
 * ```
 */
export type MapperDecorator = (target: MapperClass, context: ClassDecoratorContext) => void;

/**
 * The members a `@RefMapper` class must have for the shapes its options declare: each method
 * named in `returns` must be declared with a result that fits its shape (see `ShapeFits`), so
 * `returns: { byId: "one" }` on a member declared `Promise<User[]>` does not compile.
 *
 * @typeParam O The options given to `@RefMapper`.
 *
 * @example
 * ```ts
 * import type { DeclaredShapes } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const ok: DeclaredShapes<{ returns: { n: "number" } }> = { n: () => Promise.resolve(1) };
 * assert.equal(await ok.n(), 1);
 * // A member whose result does not fit its declared shape does not compile.
 * const bad: DeclaredShapes<{ returns: { n: "number" } }> = {
 *   // @ts-expect-error: a string is not a "number" result
 *   n: () => Promise.resolve("1"),
 * };
 * assert.equal(await bad.n(), "1");
 * ```
 */
export type DeclaredShapes<O> = O extends
  { readonly returns: infer R extends Record<string, Returns> }
  ? { [K in keyof R]: (...args: never[]) => Promise<ShapeOf<R[K]>> }
  : unknown;

/**
 * The class decorator `@RefMapper` returns: it accepts classes whose members fit the shapes its
 * options declare ({@linkcode DeclaredShapes}).
 *
 * @typeParam O The options given to `@RefMapper`.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Configuration, RefMapper, type RefMapperDecorator } from "@searchvisitor/searchvisitor/mapper";
 * import { parseMapperFile } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const mark: RefMapperDecorator<{ returns: { byId: "one" } }> = RefMapper("users", { returns: { byId: "one" } });
 * @mark
 * class UserXmlMapper {
 *   declare byId: (args: { id: string }) => Promise<Record<string, unknown> | null>;
 * }
 * const config = new Configuration().addMapper(parseMapperFile(
 *   '<mapper namespace="users"><select id="byId">GET /users/_doc/#{id}</select></mapper>',
 * ));
 * const fetch = () => Promise.resolve(Response.json({ _id: "7", found: true, _source: {} }));
 * const users = config.newSession(new DataSource({ nodes: ["http://es.local"], fetch })).createMapper(UserXmlMapper);
 * assert.equal((await users.byId({ id: "7" }))?._ID, "7");
 * ```
 */
export type RefMapperDecorator<O> = (
  // deno-lint-ignore no-explicit-any
  target: new (...args: any[]) => DeclaredShapes<O>,
  context: ClassDecoratorContext,
) => void;

/**
 * Options of `@SimpleMapper` and `@RefMapper`.
 *
 * @example
 * ```ts
 * import type { MapperOptions } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * class User { id = ""; }
 * const options: MapperOptions = { entity: User, namespace: "users" };
 * assert.equal(options.namespace, "users");
 * ```
 */
export interface MapperOptions {
  /** The entity of `BaseMapper` methods and the default row type of queries. */
  entity?: EntityClass;
  /** The statement id prefix (default: the class name). */
  namespace?: string;
}

/**
 * Options of {@linkcode RefMapper}: those of every mapper, plus per mapper-file statement its
 * result shape and its parameter names.
 *
 * @example
 * ```ts
 * import type { RefMapperOptions } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const options: RefMapperOptions = { returns: { byId: "one" }, params: { listByUserName: ["userName"] } };
 * assert.deepEqual(options.params?.listByUserName, ["userName"]);
 * ```
 */
export interface RefMapperOptions extends MapperOptions {
  /** Result shapes of the file's statements, by method name (default by kind). */
  returns?: Record<string, Returns>;
  /**
   * Names of positional parameters, by method name (dbVisitor's `@Param`): with
   * `{ listByUserName: ["userName"] }`, `listByUserName("ann", page)` binds `#{userName}` (a
   * `Page` argument is found wherever it stands).
   */
  params?: Record<string, readonly string[]>;
}

/**
 * Marks a class as an annotation mapper; `session.createMapper` accepts only marked classes.
 *
 * @param options The entity (for `BaseMapper` methods and query rows) and the namespace.
 * @returns The class decorator.
 *
 * @example
 * ```ts
 * import { bound, Configuration, Query, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * @SimpleMapper({ namespace: "cities" })
 * class CityMapper {
 *   @Query('POST /cities/_search {"query": {"term": {"country": #{country}}}}')
 *   byCountry(_args: { country: string }): Promise<Record<string, unknown>[]> { return bound(); }
 * }
 * assert.deepEqual(new Configuration().addMapper(CityMapper).statementIds(), ["cities.byCountry"]);
 * ```
 */
export function SimpleMapper(options: MapperOptions = {}): MapperDecorator {
  return (_target, context) => {
    const def = defOfMetadata(context.metadata);
    def.mark = { kind: "simple" };
    if (options.namespace !== undefined) def.namespace = options.namespace;
    if (options.entity !== undefined) def.entity = options.entity;
  };
}

/**
 * Marks a class as a mapper whose statements come from a mapper file (and may add annotated
 * ones). `source` is a `MapperFile`, the namespace of a file registered with
 * `config.addMapper`/`config.loadMapper`, or the name or URL that file was loaded from. Each
 * statement becomes a method named by its id (declare them: `declare byAge: (…) => Promise<…>`);
 * `<select>` methods return lists unless `returns` says otherwise.
 *
 * @param source The mapper file, its namespace, or its file name / URL.
 * @param options Entity, namespace and result shapes by method name.
 * @returns The class decorator.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Configuration, RefMapper } from "@searchvisitor/searchvisitor/mapper";
 * import { parseMapperFile } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * @RefMapper("users", { returns: { byId: "one" } })
 * class UserXmlMapper {
 *   declare byId: (args: { id: string }) => Promise<Record<string, unknown> | null>;
 * }
 * const config = new Configuration().addMapper(parseMapperFile(`
 *   <mapper namespace="users">
 *     <select id="byId">GET /users/_doc/#{id}</select>
 *   </mapper>`));
 * const fetch = () => Promise.resolve(Response.json({ _id: "7", found: true, _source: { name: "ann" } }));
 * const users = config.newSession(new DataSource({ nodes: ["http://es.local"], fetch })).createMapper(UserXmlMapper);
 * assert.equal((await users.byId({ id: "7" }))?._ID, "7");
 * ```
 */
export function RefMapper<const O extends RefMapperOptions = Record<never, never>>(
  source: string | MapperFile,
  options?: O,
): RefMapperDecorator<O> {
  const given: RefMapperOptions = options ?? {};
  return (_target, context) => {
    const options = given;
    const def = defOfMetadata(context.metadata);
    def.mark = { kind: "ref", source };
    if (options.namespace !== undefined) def.namespace = options.namespace;
    if (options.entity !== undefined) def.entity = options.entity;
    setFileMethodOptions(def, options, context.name ?? "RefMapper");
  };
}
