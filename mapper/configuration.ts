// Configuration: the registry of statements (annotation mappers and mapper files), result types
// and macros; it opens sessions over a DataSource or a Connection.

import type { Connection, DataSource } from "../driver/mod.ts";
import type { EntityClass } from "../template/mod.ts";
import type { MapperClass } from "./mapper_def.ts";
import { openWith, StatementRegistry } from "./_registry.ts";
import { loadMapperFile, type LoadMapperOptions, type MapperFile } from "../xml/mod.ts";
import type { WriteOptions } from "./_entity_writes.ts";
import { Session } from "./session.ts";
import type { LambdaOptions } from "../lambda/mod.ts";
import type { CheckOptions } from "../check/mod.ts";
import { type CheckMode, checkStatements, LiveCheck } from "./check_statements.ts";

/**
 * Options of a {@linkcode Configuration}.
 *
 * @example
 * ```ts
 * import { Configuration, type ConfigurationOptions } from "@searchvisitor/searchvisitor/mapper";
 * import assert from "node:assert/strict";
 *
 * class User { id = ""; }
 * const options: ConfigurationOptions = { refresh: false, types: { User }, macros: { all: '{"match_all": {}}' } };
 * assert.ok(new Configuration(options).hasType("User"));
 * ```
 */
export interface ConfigurationOptions {
  /**
   * Whether BaseMapper writes (and `session.lambda()`) refresh the index so they are visible to
   * search when the call returns: `true` by default, like LambdaTemplate; `false` leaves them
   * near-real-time (cheaper for bulk loads). Reads by key are real-time either way.
   */
  refresh?: boolean;
  /** Result types mapper files name in `resultType` / `<resultMap type>`. */
  types?: Record<string, EntityClass>;
  /** Macros for `@{macro, name}`. */
  macros?: Record<string, string>;
  /**
   * Check statements against the Elasticsearch API specification (and `checkOptions.mapping`
   * or `checkOptions.mappings`) when they are registered, and against the live mapping of the
   * index each addresses on its first use over a data source: `"off"` (the default), `"warn"`
   * (findings go to `warn`) or `"error"` (`addMapper` throws a `MapperError` listing the errors
   * and registers nothing; a first use with an error is refused before it is sent).
   */
  check?: CheckMode;
  /** Flavor and mappings for `check`. */
  checkOptions?: CheckOptions;
  /**
   * Whether `check` also reads the live mapping on a statement's first use (default true; one
   * `GET /<index>/_mapping` per index and data source).
   */
  checkLive?: boolean;
  /** Where `check: "warn"` reports; `console.warn` by default. */
  warn?: (message: string) => void;
  /**
   * How the sessions' LambdaTemplate (BaseMapper's samples and builders) learns exact fields:
   * `"mapping"` (default) reads each index's mapping, `"as-written"` never does.
   */
  fieldTypes?: LambdaOptions["fieldTypes"];
  /**
   * Where those mappings are cached: `"data-source"` (default, shared by every session over the
   * data source, so a session per request costs no `GET /<index>/_mapping` each) or
   * `"template"` (per session). Mapping changes sent through the data source invalidate it.
   */
  mappingCache?: LambdaOptions["mappingCache"];
  /** How many indices' mappings that cache keeps (default 1000). */
  maxCachedMappings?: number;
  /**
   * Where mapper files named by path are read from — `@RefMapper("mappers/user.xml")`, the
   * seed's form, and `config.loadMapper("mappers/user.xml")`: `base` is `import.meta.url` (or
   * any URL; a directory URL ends with `/`) or an absolute directory path; `loader` / `fetch`
   * read the file (Node's fetch reads no `file:` URLs: pass a loader such as
   * `(url) => readFile(url, "utf8")`). A `@RefMapper` whose file is not registered yet is then
   * loaded on its first call (once per configuration); a missing file fails that call with a
   * `MapperLoadError` naming the URL and the base.
   */
  mapperFiles?: LoadMapperOptions & { base: string | URL };
}

/** A base URL from `import.meta.url`, a URL, or an absolute directory path. */
function baseUrl(base: string | URL): URL {
  if (base instanceof URL) return base;
  const windows = /^[a-zA-Z]:[\\/]/.test(base);
  if (!windows && /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(base)) return new URL(base);
  if (!windows && !base.startsWith("/")) {
    throw new TypeError(
      `mapperFiles.base "${base}" is a relative path; give import.meta.url, a URL or an absolute directory`,
    );
  }
  const path = base.replaceAll("\\", "/");
  return new URL(
    `file://${windows ? "/" : ""}${encodeURI(path.endsWith("/") ? path : path + "/")}`,
  );
}

/**
 * The mapper configuration: statements by id, result types, macros; `newSession(source)` gives a
 * {@linkcode Session} that creates mappers and runs statements.
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { bound, Configuration, Query, SimpleMapper } from "@searchvisitor/searchvisitor/mapper";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * @SimpleMapper({ namespace: "notes" })
 * class NoteMapper {
 *   @Query("POST /notes/_count", { returns: "number" })
 *   count(): Promise<number> { return bound(); }
 * }
 * const config = new Configuration().addMapper(NoteMapper);
 * assert.ok(config.hasStatement("notes.count"));
 * const engine = new Engine();
 * const session = config.newSession(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
 * await session.jdbc().execute("PUT /notes");
 * assert.equal(await session.createMapper(NoteMapper).count(), 0);
 * ```
 */
export class Configuration {
  readonly #registry = new StatementRegistry();
  readonly #writes: WriteOptions;
  readonly #lambda: LambdaOptions;
  readonly #check: CheckMode;
  readonly #checkOptions: CheckOptions;
  readonly #warn: (message: string) => void;
  readonly #live?: LiveCheck;

  /**
   * Creates an empty configuration.
   *
   * @param options Refresh policy of BaseMapper writes, result types, macros.
   */
  constructor(options: ConfigurationOptions = {}) {
    this.#writes = options.refresh === undefined ? {} : { refresh: options.refresh };
    const { fieldTypes, mappingCache, maxCachedMappings } = options;
    this.#lambda = Object.fromEntries(
      Object.entries({ fieldTypes, mappingCache, maxCachedMappings }).filter(([, v]) =>
        v !== undefined
      ),
    );
    if (options.mapperFiles !== undefined) {
      this.#registry.fileOptions = {
        ...options.mapperFiles,
        base: baseUrl(options.mapperFiles.base),
      };
    }
    this.#check = options.check ?? "off";
    this.#checkOptions = options.checkOptions ?? {};
    this.#warn = options.warn ?? ((message) => console.warn(message));
    if (this.#check !== "off" && options.checkLive !== false) {
      this.#live = new LiveCheck({
        mode: this.#check,
        options: this.#checkOptions,
        warn: this.#warn,
      });
    }
    for (const [name, type] of Object.entries(options.types ?? {})) this.registerType(name, type);
    for (const [name, text] of Object.entries(options.macros ?? {})) this.addMacro(name, text);
  }

  /**
   * Registers a result type by the name mapper files use (`resultType="User"`).
   *
   * @param name The name.
   * @param type The entity class.
   * @returns This configuration.
   *
   * @example
   * ```ts
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * class User { id = ""; }
   * assert.ok(new Configuration().registerType("com.example.User", User).hasType("com.example.User"));
   * ```
   */
  registerType(name: string, type: EntityClass): this {
    this.#registry.types.set(name, type);
    return this;
  }

  /**
   * Whether a result type name is registered.
   *
   * @param name The name.
   * @returns True when registered.
   *
   * @example
   * ```ts
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new Configuration().hasType("User"), false);
   * ```
   */
  hasType(name: string): boolean {
    return this.#registry.types.has(name);
  }

  /**
   * Adds a macro for `@{macro, name}` (sessions opened afterwards see it).
   *
   * @param name The macro name.
   * @param text Template text.
   * @returns This configuration.
   *
   * @example
   * ```ts
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const config = new Configuration().addMacro("adults", '{"range": {"age": {"gte": 18}}}');
   * const jdbc = config.newSession(new DataSource("http://127.0.0.1:9200")).jdbc();
   * assert.match(jdbc.bind('POST /u/_count {"query": @{macro, adults}}', {}).text, /"gte": ?18/);
   * ```
   */
  addMacro(name: string, text: string): this {
    this.#registry.macros.set(name, text);
    return this;
  }

  /**
   * Registers statements: a mapper file's (under its namespace) or an annotation mapper class's
   * (under its namespace, default the class name), so `session.executeStatement("ns.id")` finds
   * them. Conflicting ids are refused.
   *
   * @param source A parsed mapper file, or a mapper class.
   * @returns This configuration.
   *
   * @example
   * ```ts
   * import { Configuration, defineMapper } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * class Users {}
   * defineMapper(Users, { namespace: "users", methods: { all: { query: "POST /users/_search" } } });
   * assert.deepEqual(new Configuration().addMapper(Users).statementIds(), ["users.all"]);
   * ```
   *
   * @example Statements checked when registered
   * ```ts
   * import { Configuration, defineMapper } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * class Users {}
   * defineMapper(Users, { namespace: "users", methods: {
   *   find: { query: 'POST /users/_search {"query": {"trem": {"name": #{name}}}}' } } });
   * const strict = new Configuration({ check: "error" });
   * assert.throws(() => strict.addMapper(Users),
   *   /users\.find: error unknown-key: unknown query "trem"; did you mean "term"\?/);
   * assert.equal(strict.hasStatement("users.find"), false); // refused: nothing registered
   * const warnings: string[] = [];
   * new Configuration({ check: "warn", warn: (m) => warnings.push(m) }).addMapper(Users);
   * assert.equal(warnings.length, 1);
   * ```
   */
  addMapper(source: MapperFile | MapperClass): this {
    const mark = this.#registry.mark();
    if (typeof source === "function") this.#registry.compileMapper(source);
    else this.#registry.addFile(source);
    const added = this.#registry.ids().filter((id) => !mark.entries.has(id));
    try {
      const checked = checkStatements(this.#registry, added, {
        mode: this.#check,
        options: this.#checkOptions,
        warn: this.#warn,
        named: typeof source === "function",
      });
      for (const id of checked) this.#live?.registered.add(id);
    } catch (error) {
      this.#registry.undo(mark, typeof source === "function" ? source : undefined);
      throw error;
    }
    return this;
  }

  /**
   * Loads a mapper file from a URL (or through `options.loader`) and registers its statements.
   *
   * @param source The file's URL (relative ones resolve against `options.base`, by default the
   *   configuration's `mapperFiles.base`).
   * @param options `fetch`, `loader`, `base` and `maxLength`, as `loadMapperFile` takes them
   *   (default: the configuration's `mapperFiles`).
   * @returns The parsed file.
   * @throws {MapperLoadError} When the file cannot be read; XML and definition errors name the
   *   file, line and column.
   *
   * @example
   * ```ts
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * const xml = '<mapper namespace="users"><select id="all">POST /users/_search</select></mapper>';
   * const config = new Configuration();
   * const file = await config.loadMapper("mem:/users.xml", { loader: () => Promise.resolve(xml) });
   * assert.equal(file.namespace, "users");
   * assert.ok(config.hasStatement("users.all"));
   * ```
   */
  async loadMapper(source: string | URL, options?: LoadMapperOptions): Promise<MapperFile> {
    const file = await loadMapperFile(source, options ?? this.#registry.fileOptions);
    this.addMapper(file);
    return file;
  }

  /**
   * Whether a statement id is registered.
   *
   * @param id The statement id (`namespace.id`).
   * @returns True when registered.
   *
   * @example
   * ```ts
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new Configuration().hasStatement("users.byName"), false);
   * ```
   */
  hasStatement(id: string): boolean {
    return this.#registry.ids().includes(id);
  }

  /**
   * Every registered statement id.
   *
   * @returns The ids, in registration order.
   *
   * @example
   * ```ts
   * import { Configuration } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(new Configuration().statementIds(), []);
   * ```
   */
  statementIds(): string[] {
    return this.#registry.ids();
  }

  /**
   * Opens a session over a DataSource (a connection per call) or one Connection.
   *
   * @param source The data source or connection.
   * @returns The session.
   *
   * @example
   * ```ts
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Configuration, Session } from "@searchvisitor/searchvisitor/mapper";
   * import assert from "node:assert/strict";
   *
   * assert.ok(new Configuration().newSession(new DataSource("http://127.0.0.1:9200")) instanceof Session);
   * ```
   */
  newSession(source: DataSource | Connection): Session {
    const setup = {
      registry: this.#registry,
      writes: this.#writes,
      lambda: this.#lambda,
      ...(this.#live ? { check: this.#live } : {}),
    };
    return openWith(setup, () => new Session(source));
  }
}
