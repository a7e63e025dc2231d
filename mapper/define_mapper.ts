// defineMapper: the same declarations as the decorators, without decorators (plain JavaScript,
// runtimes or build setups without decorator support).

import type { EntityClass } from "../template/mod.ts";
import { defForDefine, forwarder, type MapperClass, setFileMethodOptions } from "./mapper_def.ts";
import type { MapperFile } from "../xml/mod.ts";
import { MapperError } from "./errors.ts";
import type { InsertOptions, Returns, StatementKind } from "./statement_options.ts";
import { statementText } from "./statement_options.ts";

/**
 * One method of `defineMapper`: exactly one of `query`, `insert`, `update`, `delete`,
 * `execute` (or `call`, refused when the mapper is created) holding the template text, plus the
 * statement options.
 *
 * @example
 * ```ts
 * import type { MethodDefinition } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const byName: MethodDefinition = { query: 'POST /users/_search {"query": {"term": {"name": #{name}}}}', returns: "one" };
 * assert.equal(byName.returns, "one");
 * ```
 */
export type MethodDefinition =
  & (
    | { query: string | readonly string[] }
    | { insert: string | readonly string[] }
    | { update: string | readonly string[] }
    | { delete: string | readonly string[] }
    | { execute: string | readonly string[] }
    | { call: string | readonly string[] }
  )
  & InsertOptions;

/**
 * What `defineMapper` takes.
 *
 * @example
 * ```ts
 * import type { MapperDefinition } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * const definition: MapperDefinition = { namespace: "users", methods: { all: { query: "POST /users/_search" } } };
 * assert.equal(definition.namespace, "users");
 * ```
 */
export interface MapperDefinition {
  /** The entity of `BaseMapper` methods and the default row type of queries. */
  entity?: EntityClass;
  /** The statement id prefix (default: the class name). */
  namespace?: string;
  /** A mapper file (or its namespace / file name) whose statements become methods. */
  ref?: string | MapperFile;
  /** Result shapes of the mapper file's statements, by method name. */
  returns?: Record<string, Returns>;
  /** Parameter names of the mapper file's statements, by method name (see `RefMapperOptions`). */
  params?: Record<string, readonly string[]>;
  /** Statement methods, by name. */
  methods?: Record<string, MethodDefinition>;
}

const KINDS: readonly (StatementKind | "call")[] = [
  "query",
  "insert",
  "update",
  "delete",
  "execute",
  "call",
];

/**
 * Declares a mapper class without decorators: the same definitions `@SimpleMapper`/`@RefMapper`
 * and the statement decorators write. Declared methods are installed on the class's prototype.
 *
 * @param type The mapper class (often `class extends BaseMapper {}`).
 * @param definition Entity, namespace, mapper file and methods.
 * @returns The class, for chaining.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Configuration, defineMapper } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * class CityMapper {}
 * defineMapper(CityMapper, {
 *   namespace: "cities",
 *   methods: {
 *     byCountry: { query: 'POST /cities/_search {"query": {"term": {"country": #{cc}}}}', params: ["cc"] },
 *     count: { query: "POST /cities/_count", returns: "number" },
 *   },
 * });
 * const sent: string[] = [];
 * const fetch = (url: string | URL | Request, init?: RequestInit) => {
 *   sent.push(`${init?.method} ${new URL(String(url)).pathname} ${init?.body ?? ""}`);
 *   return Promise.resolve(Response.json({ count: 3 }));
 * };
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://es.local"], fetch }));
 * const cities = session.createMapper(CityMapper) as unknown as { count(): Promise<number> };
 * assert.equal(await cities.count(), 3);
 * assert.deepEqual(sent, ["POST /cities/_count "]);
 * ```
 */
export function defineMapper<C extends MapperClass>(type: C, definition: MapperDefinition): C {
  const def = defForDefine(type);
  def.mark = definition.ref !== undefined
    ? { kind: "ref", source: definition.ref }
    : { kind: "simple" };
  if (definition.namespace !== undefined) def.namespace = definition.namespace;
  if (definition.entity !== undefined) def.entity = definition.entity;
  setFileMethodOptions(def, definition, type.name);
  for (const [method, spec] of Object.entries(definition.methods ?? {})) {
    const kinds = KINDS.filter((k) => Object.hasOwn(spec, k));
    if (kinds.length !== 1) {
      throw new MapperError(
        `give exactly one of ${KINDS.join(", ")} (the statement text); got ${
          kinds.length === 0 ? "none" : kinds.join(" and ")
        }`,
        { mapper: type.name, method },
      );
    }
    const kind = kinds[0]!;
    const text = (spec as unknown as Record<string, string | readonly string[]>)[kind]!;
    const { returns, entity, params, useGeneratedKeys, keyProperty } = spec;
    const options: InsertOptions = { returns, entity, params, useGeneratedKeys, keyProperty };
    for (const key of Object.keys(options) as (keyof InsertOptions)[]) {
      if (options[key] === undefined) delete options[key];
    }
    def.statements.set(method, Object.freeze({ kind, text: statementText(text), options }));
    Object.defineProperty(type.prototype, method, {
      value: forwarder(method),
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
  return type;
}
