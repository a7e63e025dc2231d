// Session: what a Configuration gives for one DataSource (or Connection): mappers, the
// JdbcTemplate, and statements run by id.

import type { Connection, DataSource } from "../driver/mod.ts";
import { type EntityClass, JdbcTemplate, type Page, type PageResult } from "../template/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";
import {
  attachRuntime,
  forwarder,
  type MapperClass,
  mapperDefOf,
  type MapperRuntime,
} from "./mapper_def.ts";
import { type StatementRegistry, takeSetup } from "./_registry.ts";
import {
  collectArgs,
  type CompiledStatement,
  type RunContext,
  runStatement,
} from "./_statement_runner.ts";
import { BaseMapper } from "./base_mapper.ts";
import type { CompiledMapper } from "./_registry.ts";
import { MapperError } from "./errors.ts";
import type { WriteOptions } from "./_entity_writes.ts";
import { IndexOps } from "./index_ops.ts";

/** Names a lazy mapper never answers with a forwarder (promise checks, serialisation, inspection). */
const NOT_METHODS: ReadonlySet<string> = new Set(["then", "toJSON", "constructor", "inspect"]);

/** Puts a forwarder on the instance for each statement its class does not define itself. */
function installForwarders(instance: object, compiled: CompiledMapper): void {
  const record = instance as Record<string, unknown>;
  for (const method of compiled.methods.keys()) {
    if (typeof record[method] !== "function") {
      Object.defineProperty(instance, method, {
        value: forwarder(method),
        writable: true,
        configurable: true,
      });
    }
  }
}

/**
 * Mappers and statements over one data source. Get one from `config.newSession(ds)`; it holds no
 * connection of its own when given a DataSource (each call takes and returns one).
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * const engine = new Engine();
 * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
 * await session.jdbc().execute('PUT /notes/_doc/1?refresh=true {"text": "hello"}');
 * assert.equal(await session.jdbc().queryForNumber("POST /notes/_count"), 1);
 * ```
 */
export class Session {
  readonly #registry: StatementRegistry;
  readonly #executor: RunContext;
  readonly #writes: WriteOptions;
  readonly #lambda: LambdaTemplate;

  /**
   * Prefer `config.newSession(source)`; `new Session(source)` gives a session of an empty
   * configuration.
   *
   * @param source A DataSource or one Connection.
   */
  constructor(source: DataSource | Connection) {
    const { registry, writes, lambda, check } = takeSetup();
    this.#registry = registry;
    const jdbc = new JdbcTemplate(source);
    for (const [name, text] of registry.macros) jdbc.addMacro(name, text);
    this.#executor = check ? { jdbc, source, check } : { jdbc, source };
    this.#writes = writes;
    this.#lambda = new LambdaTemplate(jdbc, { ...lambda, refresh: writes.refresh !== false });
  }

  /**
   * The JdbcTemplate of this session (with the configuration's macros).
   *
   * @returns The template.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * const session = new Configuration().newSession(new DataSource("http://127.0.0.1:9200"));
   * assert.deepEqual(session.jdbc().bind("GET /u/_doc/#{id}", { id: "1" }).args, ["1"]);
   * ```
   */
  jdbc(): JdbcTemplate {
    return this.#executor.jdbc;
  }

  /**
   * The LambdaTemplate of this session (sharing its JdbcTemplate; writes refresh as configured).
   *
   * @returns The template.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * const engine = new Engine();
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * await session.lambda().insert("notes").applyMap({ _id: "1", text: "hi" }).executeSumResult();
   * assert.equal(await session.lambda().query("notes").eq("_id", "1").queryForCount(), 1);
   * ```
   */
  lambda(): LambdaTemplate {
    return this.#lambda;
  }

  /**
   * Creates a mapper: an instance of a class marked `@SimpleMapper`/`@RefMapper` (or declared
   * with `defineMapper`) whose statement methods run on this session. Declarations are checked
   * now: `@Call`, unknown result types and conflicting ids fail here, not on first use.
   *
   * @param type The mapper class.
   * @returns The mapper.
   * @throws {MapperError} When the class is not a mapper or a declaration is wrong.
   * @throws {UnsupportedFeatureError} When a method is declared with `@Call`.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration, defineMapper } from "@searchvisitor/searchvisitor/mapper";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * class NoteMapper {
   *   declare add: (args: { id: string; text: string }) => Promise<number>;
   *   declare count: () => Promise<number>;
   * }
   * defineMapper(NoteMapper, {
   *   methods: {
   *     add: { insert: 'PUT /notes/_doc/#{id}?refresh=true {"text": #{text}}' },
   *     count: { query: "POST /notes/_count", returns: "number" },
   *   },
   * });
   * const engine = new Engine();
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * const notes = session.createMapper(NoteMapper);
   * assert.equal(await notes.add({ id: "1", text: 'say "hi"' }), 1);
   * assert.equal(await notes.count(), 1);
   * ```
   */
  createMapper<M extends object>(type: MapperClass<M>): M {
    const pending = this.#registry.pendingFile(type);
    if (pending !== undefined) return this.#lazyMapper(type, pending);
    const compiled = this.#registry.compileMapper(type);
    const instance = new type();
    attachRuntime(instance, this.#runtime(type, () => compiled));
    installForwarders(instance, compiled);
    return instance;
  }

  #runtime(
    type: MapperClass,
    compiledOf: () => CompiledMapper | Promise<CompiledMapper>,
  ): MapperRuntime {
    const executor = this.#executor;
    const def = mapperDefOf(type);
    const run = (compiled: CompiledMapper, method: string, args: readonly unknown[]) => {
      const st = compiled.methods.get(method);
      if (!st) throw new MapperError("has no statement", { mapper: compiled.name, method });
      const { named, page } = collectArgs(st, args);
      return runStatement(executor, st, named, page);
    };
    return {
      mapper: type.name,
      executor,
      writes: this.#writes,
      lambda: this.#lambda,
      ...(def?.entity ? { entity: def.entity } : {}),
      invoke(method, args) {
        const compiled = compiledOf();
        return compiled instanceof Promise
          ? compiled.then((c) => run(c, method, args))
          : run(compiled, method, args);
      },
    };
  }

  /**
   * A `@RefMapper` whose file is loaded from the configured base on the first call: its methods
   * are not known before, so a proxy answers any method name with a forwarder until then.
   */
  #lazyMapper<M extends object>(type: MapperClass<M>, source: string): M {
    const registry = this.#registry;
    const instance = new type();
    let compiled: CompiledMapper | undefined;
    let loading: Promise<CompiledMapper> | undefined;
    const load = () =>
      loading ??= registry.loadFile(source, { mapper: type.name }).then(() => {
        compiled = registry.compileMapper(type);
        installForwarders(instance, compiled);
        return compiled;
      }, (error) => {
        loading = undefined; // a later call tries again
        throw error;
      });
    const proxy = new Proxy(instance, {
      get(target, property) {
        if (
          compiled === undefined && typeof property === "string" && !(property in target) &&
          !NOT_METHODS.has(property)
        ) {
          return forwarder(property);
        }
        const value = Reflect.get(target, property, target);
        // Methods run on the instance itself (BaseMapper's private fields are not the proxy's).
        return typeof value === "function" && property !== "constructor"
          ? value.bind(target)
          : value;
      },
    });
    const runtime = this.#runtime(type, () => compiled ?? load());
    attachRuntime(instance, runtime);
    attachRuntime(proxy, runtime);
    return proxy;
  }

  /**
   * A BaseMapper for an entity class, without declaring a mapper class.
   *
   * @param entity The entity class (with an index and a key).
   * @returns The mapper.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { defineEntity } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * class Note { id = ""; text = ""; }
   * defineEntity(Note, { index: "notes", key: "id" });
   * const engine = new Engine();
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * const notes = session.createBaseMapper(Note);
   * await notes.insert(Object.assign(new Note(), { id: "1", text: "hello" }));
   * assert.equal((await notes.selectById("1"))?.text, "hello");
   * ```
   */
  createBaseMapper<T extends object>(entity: EntityClass<T>): BaseMapper<T> {
    const mapper = new BaseMapper<T>();
    attachRuntime(mapper, {
      mapper: `BaseMapper<${entity.name}>`,
      executor: this.#executor,
      writes: this.#writes,
      lambda: this.#lambda,
      entity,
      invoke: (method) => {
        throw new MapperError("has no statement", { mapper: entity.name, method });
      },
    });
    return mapper;
  }

  /**
   * The index of an entity class on this session's data source: create it from the entity's
   * mapping (`mappingOf`), tell whether it exists, delete it, report drift against the live
   * mapping, add new fields.
   *
   * @param entity The entity class.
   * @param index The index (default: the entity's `@Table` index), e.g. a versioned name.
   * @returns The index operations.
   * @throws {MapperError} When no index is given and the entity declares none.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { Column, Table } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * @Table("notes")
   * class Note { @Column({ primary: true }) id = ""; @Column({ mapping: "text" }) text = ""; }
   * const session = new Configuration().newSession(new DataSource({ nodes: ["http://e"], fetch: new Engine().fetch }));
   * await session.indexOps(Note).create();
   * assert.equal(await session.indexOps(Note, "notes-v2").exists(), false);
   * assert.deepEqual(await session.indexOps(Note).drift(), []);
   * ```
   */
  indexOps(entity: EntityClass, index?: string): IndexOps {
    return new IndexOps(this.#executor.jdbc, entity, index);
  }

  #statement(id: string, returns?: "list" | "page"): CompiledStatement {
    const st = this.#registry.statement(id);
    return returns === undefined || st.returns === returns ? st : { ...st, returns };
  }

  /**
   * Runs a registered statement by id (`namespace.id`) and shapes the result as declared
   * (writes: the update count; mapper-file selects: a list).
   *
   * @param id The statement id.
   * @param args The named arguments.
   * @returns The result.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration, defineMapper } from "@searchvisitor/searchvisitor/mapper";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * class Notes {}
   * defineMapper(Notes, { namespace: "notes", methods: { add: { insert: 'PUT /notes/_doc/#{id} {"text": #{text}}' } } });
   * const config = new Configuration().addMapper(Notes);
   * const engine = new Engine();
   * const session = config.newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * assert.equal(await session.executeStatement("notes.add", { id: "1", text: "hi" }), 1);
   * ```
   */
  executeStatement(id: string, args: object = {}): Promise<unknown> {
    try {
      const st = this.#statement(id);
      const { named, page } = collectArgs({ ...st, params: undefined }, [args]);
      return runStatement(this.#executor, st, named, page);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs a registered read by id and returns its rows; with a page, that page of them (the
   * page's `totalCount` is set from the same response).
   *
   * @param id The statement id.
   * @param args The named arguments.
   * @param page A page.
   * @returns The rows.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration, defineMapper } from "@searchvisitor/searchvisitor/mapper";
   * import { PageObject } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * class Notes {}
   * defineMapper(Notes, { namespace: "notes", methods: { all: { query: 'POST /notes/_search {"sort": [{"n": "asc"}]}' } } });
   * const engine = new Engine();
   * const session = new Configuration().addMapper(Notes).newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * for (const n of [1, 2, 3]) await session.jdbc().executeUpdate("PUT /notes/_doc/#{n}?refresh=true {\"n\": #{n}}", { n });
   * const page = new PageObject(0, 2);
   * const rows = await session.queryStatement("notes.all", {}, page);
   * assert.equal(rows.length, 2);
   * assert.equal(page.totalCount, 3);
   * ```
   */
  queryStatement<T = unknown>(id: string, args: object = {}, page?: Page): Promise<T[]> {
    try {
      const st = this.#statement(id, "list");
      const { named, page: inArgs } = collectArgs({ ...st, params: undefined }, [args]);
      return runStatement(this.#executor, st, named, page ?? inArgs) as Promise<T[]>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs a registered read by id for one page: rows and total from one request.
   *
   * @param id The statement id.
   * @param args The named arguments.
   * @param page The page.
   * @returns The page of rows.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration, defineMapper } from "@searchvisitor/searchvisitor/mapper";
   * import { PageObject } from "@searchvisitor/searchvisitor/template";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * class Notes {}
   * defineMapper(Notes, { namespace: "notes", methods: { all: { query: "POST /notes/_search" } } });
   * const engine = new Engine();
   * const session = new Configuration().addMapper(Notes).newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * await session.jdbc().executeUpdate('PUT /notes/_doc/1?refresh=true {"n": 1}');
   * const result = await session.pageStatement("notes.all", {}, new PageObject(0, 10));
   * assert.equal(result.totalCount, 1);
   * assert.equal(result.data.length, 1);
   * ```
   */
  pageStatement<T = unknown>(id: string, args: object, page: Page): Promise<PageResult<T>> {
    try {
      const st = this.#statement(id, "page");
      const { named } = collectArgs({ ...st, params: undefined }, [args]);
      return runStatement(this.#executor, st, named, page) as Promise<PageResult<T>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
