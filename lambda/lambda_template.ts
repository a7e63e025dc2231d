// LambdaTemplate: the entry point. Opens typed builders for an entity class or a bare index name,
// and holds what they share when they run: the JdbcTemplate, the refresh policy and the cached
// field types of each index.

import {
  type Connection,
  type DataSource,
  ResponseError,
  UnsupportedFeatureError,
} from "../driver/mod.ts";
import { mappingEpoch, serverProduct } from "../driver/internal.ts";
import { type EntityClass, JdbcTemplate } from "../template/mod.ts";
import { AS_WRITTEN, type ExactResolver, type SortKey } from "./compiler.ts";
import { exactField, type FieldTypes, readFieldTypes } from "./field_types.ts";
import type { ConditionNode } from "./nodes.ts";
import { DeleteBuilder } from "./delete_builder.ts";
import { InsertBuilder } from "./insert_builder.ts";
import { QueryBuilder } from "./query_builder.ts";
import { UpdateBuilder } from "./update_builder.ts";
import { exactFields, type ExactNeeds, type Runtime } from "./_runtime.ts";
import { targetOf } from "./target.ts";
import { hasVectorCondition, type VectorDialect } from "./vectors.ts";
import { type CachedTypes, MappingCache, sharedMappingCache } from "./_mapping_cache.ts";

/**
 * A document of a bare index: its fields (plus `_id` when read).
 *
 * @example
 * ```ts
 * import type { Doc } from "@searchvisitor/searchvisitor/lambda";
 * import assert from "node:assert/strict";
 *
 * const doc: Doc = { _id: "1", name: "ann" };
 * assert.equal(doc.name, "ann");
 * ```
 */
export type Doc = Record<string, unknown>;

/**
 * Options of a {@linkcode LambdaTemplate}.
 *
 * @example
 * ```ts
 * import { LambdaTemplate, type LambdaOptions } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const options: LambdaOptions = { refresh: false, fieldTypes: "as-written" };
 * assert.ok(new LambdaTemplate(new DataSource("http://127.0.0.1:9200"), options));
 * ```
 */
export interface LambdaOptions {
  /**
   * Default true: every write resolves only once reads can see it (`refresh=true` on inserts,
   * updates and deletes), and `_update_by_query`/`_delete_by_query` refresh the index first so
   * their counts cover every acknowledged write. Turn off for bulk loads or busy indices, where
   * near-real-time visibility is fine.
   */
  readonly refresh?: boolean;
  /**
   * `"mapping"` (default): read each index's mapping once (cached) so exact conditions on a text
   * field use its keyword sub-field. `"as-written"`: never read mappings; fields are used as named.
   */
  readonly fieldTypes?: "mapping" | "as-written";
  /**
   * Where read mappings are kept: `"data-source"` (default) — one cache per data source (or
   * connection), shared by every LambdaTemplate and session over it, so an app that opens a
   * session per request reads each index's mapping once; `"template"` — this template's own.
   * Either way a mapping change sent through the same data source (`PUT /i/_mapping`, creating
   * or deleting the index, aliases — see `mappingEpoch`) makes the next command read it again.
   */
  readonly mappingCache?: "data-source" | "template";
  /** How many indices' mappings the cache keeps, least recently used out first (default 1000). */
  readonly maxCachedMappings?: number;
  /**
   * How orders by vector similarity are sent. `"auto"` (default) asks the server once (`GET /`):
   * Elasticsearch 8+ gets the `knn` section, OpenSearch its `knn` query, older versions an exact
   * `script_score`. Where `GET /` is refused, Elasticsearch's `X-Elastic-Product` header on the
   * refusal says Elasticsearch (`knn`); where nothing tells, set this option. A field whose mapped similarity ranks differently from the order's metric
   * always gets the exact `script_score` (OpenSearch's `knn_score` script there).
   */
  readonly vectorDialect?: VectorDialect;
}

/** How long a cached mapping is trusted for fields it does not know yet (they may be new). */
const UNKNOWN_FIELD_RECHECK_MS = 1000;

/**
 * The resolver of a read mapping, one per mapping (and its OpenSearch form, one per resolver):
 * the same mapping gives the same resolver object, which a query's kept command is checked by.
 * Weak: a mapping read again (a new object) leaves its old resolver to the collector.
 */
const resolvers = new WeakMap<FieldTypes, ExactResolver>();
const openSearchResolvers = new WeakMap<ExactResolver, ExactResolver>();
/** The `dense_vector` fields of a read mapping, computed once per mapping. */
const vectorFieldsOf = new WeakMap<FieldTypes, readonly string[]>();

function resolverFor(types: FieldTypes): ExactResolver {
  let r = resolvers.get(types);
  if (r === undefined) {
    resolvers.set(
      types,
      r = (field, method) => exactField(types, field, method),
    );
  }
  return r;
}

function openSearchFor(exact: ExactResolver): ExactResolver {
  let r = openSearchResolvers.get(exact);
  if (r === undefined) {
    r = Object.assign((f: string, m: string) => exact(f, m), { openSearch: true });
    openSearchResolvers.set(exact, r);
  }
  return r;
}

function vectorFieldsIn(types: FieldTypes): readonly string[] {
  let out = vectorFieldsOf.get(types);
  if (out === undefined) {
    const found: string[] = [];
    for (const [field, t] of types) if (t.type === "dense_vector") found.push(field);
    vectorFieldsOf.set(types, out = Object.freeze(found));
  }
  return out;
}

/** The fields of a command whose conditions or sort keys need an exact form (no metadata). */
function exactFieldsOf(where: ConditionNode | null, sort: readonly SortKey[]): Set<string> {
  const fields = exactFields(where);
  for (const s of sort) fields.add(s.field);
  for (const meta of ["_id", "_index", "_routing"]) fields.delete(meta);
  return fields;
}

const NO_FIELDS: readonly string[] = Object.freeze([]);

function isJdbcTemplate(source: unknown): source is JdbcTemplate {
  return source instanceof JdbcTemplate;
}

/**
 * The LambdaTemplate: typed, fluent insert/query/update/delete compiled to Query DSL.
 *
 * `query`, `insert`, `update` and `delete` take an entity class (`@Table`/`@Column` or
 * `defineEntity`; field names are checked by the compiler) or a bare index name (documents as
 * maps — what dbVisitor calls the "freedom" forms). Builders are immutable; `toCommand()` shows the
 * command without any I/O. Values are always bound as arguments, never spliced into the text.
 *
 * `eq`, `ne`, `in`, `notIn`, ranges, `like` and `orderBy` are exact: on a `text` field they use its
 * keyword sub-field, found in the index mapping (read once per index and cached); a text field
 * without one is an error that says what to do.
 *
 * @example
 * ```ts
 * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
 * import { defineEntity } from "@searchvisitor/searchvisitor/template";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { Engine } from "@searchvisitor/searchvisitor/engine";
 * import assert from "node:assert/strict";
 *
 * class User { id = ""; name = ""; age = 0; }
 * defineEntity(User, { index: "users", key: "id" });
 * const engine = new Engine();
 * const lambda = new LambdaTemplate(new DataSource({ nodes: ["http://es.local"], fetch: engine.fetch, indexRefresh: true }));
 *
 * await lambda.insert(User).applyEntity([
 *   Object.assign(new User(), { id: "1", name: "ann", age: 31 }),
 *   Object.assign(new User(), { id: "2", name: "bob", age: 17 }),
 * ]).executeSumResult();
 * const adults = await lambda.query(User).ge("age", 18).queryForList();
 * assert.deepEqual(adults.map((u) => u.name), ["ann"]);
 * assert.equal(await lambda.update(User).eq("id", "2").updateTo("age", 18).doUpdate(), 1);
 * assert.equal(await lambda.query(User).ge("age", 18).queryForCount(), 2);
 * assert.equal(await lambda.delete(User).lt("age", 20).doDelete(), 1);
 * ```
 */
export class LambdaTemplate {
  /** The JdbcTemplate every command runs through. */
  readonly jdbc: JdbcTemplate;
  readonly #refresh: boolean;
  readonly #readMappings: boolean;
  readonly #types: MappingCache;
  readonly #source: DataSource | Connection;
  readonly #runtime: Runtime;
  readonly #vectorDialect: VectorDialect;
  #serverDialect: Promise<Exclude<VectorDialect, "auto">> | undefined;

  /**
   * A LambdaTemplate over a data source, a connection or an existing JdbcTemplate.
   *
   * @param source A DataSource (a connection per command), a Connection, or a JdbcTemplate.
   * @param options Refresh and mapping policy.
   */
  constructor(source: DataSource | Connection | JdbcTemplate, options: LambdaOptions = {}) {
    this.jdbc = isJdbcTemplate(source) ? source : new JdbcTemplate(source);
    this.#refresh = options.refresh ?? true;
    this.#readMappings = (options.fieldTypes ?? "mapping") === "mapping";
    this.#vectorDialect = options.vectorDialect ?? "auto";
    this.#source = this.jdbc.source;
    const max = options.maxCachedMappings ?? 1000;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxCachedMappings must be a positive integer, got ${max}`);
    }
    this.#types = options.mappingCache === "template"
      ? new MappingCache(max)
      : sharedMappingCache(this.#source, max);
    this.#runtime = {
      jdbc: this.jdbc,
      refresh: this.#refresh,
      knownTypes: (index) => this.#known(index),
      resolver: (index, where, sort) => this.#resolver(index, where, sort),
      resolverNow: (index, needs) => this.#resolverNow(index, needs),
      vectorFieldsNow: (index) => this.#vectorFieldsNow(index),
      vectorPlan: (index, field) => this.#vectorPlan(index, field),
      vectorFields: (index) => this.#vectorFields(index),
    };
  }

  /** A query on the entity class's index; rows are entities. */
  query<T>(type: EntityClass<T>): QueryBuilder<T>;
  /** A query on an index (name or pattern); rows are documents with `_id`. */
  query(index: string): QueryBuilder<Doc>;
  query<T>(source: EntityClass<T> | string): QueryBuilder<T | Doc> {
    return new QueryBuilder<T | Doc>(this.#runtime, targetOf(source));
  }

  /** Inserts entities of the class (`applyEntity`) or document maps (`applyMap`). */
  insert<T>(type: EntityClass<T>): InsertBuilder<T>;
  /** Inserts document maps into an index (`applyMap`). */
  insert(index: string): InsertBuilder<Doc>;
  insert<T>(source: EntityClass<T> | string): InsertBuilder<T | Doc> {
    return new InsertBuilder<T | Doc>(this.#runtime, targetOf(source));
  }

  /** Updates documents of the entity class's index. */
  update<T>(type: EntityClass<T>): UpdateBuilder<T>;
  /** Updates documents of an index. */
  update(index: string): UpdateBuilder<Doc>;
  update<T>(source: EntityClass<T> | string): UpdateBuilder<T | Doc> {
    return new UpdateBuilder<T | Doc>(this.#runtime, targetOf(source));
  }

  /** Deletes documents of the entity class's index. */
  delete<T>(type: EntityClass<T>): DeleteBuilder<T>;
  /** Deletes documents of an index. */
  delete(index: string): DeleteBuilder<Doc>;
  delete<T>(source: EntityClass<T> | string): DeleteBuilder<T | Doc> {
    return new DeleteBuilder<T | Doc>(this.#runtime, targetOf(source));
  }

  /**
   * The field types of an index (or pattern) as read from its mapping; read once and cached.
   * Pass them to `toCommand({ mapping })` to see exactly what a command will send.
   *
   * @param index The index name or pattern.
   * @returns Field path → type (and keyword sub-field for text).
   */
  fieldTypes(index: string): Promise<FieldTypes> {
    return this.#cached(index).types;
  }

  /**
   * Forgets the cached mapping of one index, or of all; the next command reads it again.
   *
   * @param index The index name or pattern; all when omitted.
   */
  clearFieldTypes(index?: string): void {
    if (index === undefined) this.#types.clear();
    else this.#types.drop(index);
  }

  /** The index's mapping as cached, read when it is not (or no longer current). */
  #cached(index: string): CachedTypes {
    return this.#types.get(index, mappingEpoch(this.#source)) ?? this.#read(index);
  }

  /** Reads the index's mapping afresh and caches it. */
  #read(index: string): CachedTypes {
    const epoch = mappingEpoch(this.#source);
    const types = this.jdbc.query({ text: "GET /{?}/_mapping", args: [index] }, undefined, {
      extractor: (rs) => readFieldTypes(rs.raw),
    });
    const entry: CachedTypes = { types, at: Date.now(), epoch };
    this.#types.set(index, entry);
    types.then((read) => {
      entry.resolved = read;
    }, () => this.#types.drop(index, entry));
    return entry;
  }

  /**
   * The `dense_vector` fields of an index, from its mapping (read once and cached; none with
   * `fieldTypes: "as-written"`). Elasticsearch 9 leaves vector values out of `_source` unless a
   * read names them, so entity reads name these beside `*` in `_source` (understood by every
   * backend, where `_source_exclude_vectors` is a 400 on OpenSearch and Elasticsearch 8).
   *
   * @param index The index.
   * @returns The field paths, in mapping order.
   *
   * @example
   * ```ts
   * import { LambdaTemplate } from "@searchvisitor/searchvisitor/lambda";
   * import { DataSource } from "@searchvisitor/searchvisitor/driver";
   * import { Engine } from "@searchvisitor/searchvisitor/engine";
   * import assert from "node:assert/strict";
   *
   * const engine = new Engine();
   * const lambda = new LambdaTemplate(new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }));
   * await lambda.jdbc.execute("PUT /docs ?", [{
   *   mappings: { properties: { emb: { type: "dense_vector", dims: 2 }, title: { type: "text" } } },
   * }]);
   * assert.deepEqual(await lambda.vectorFields("docs"), ["emb"]);
   * engine.close();
   * ```
   */
  vectorFields(index: string): Promise<readonly string[]> {
    return this.#vectorFields(index);
  }

  async #vectorFields(index: string): Promise<readonly string[]> {
    if (!this.#readMappings) return [];
    return [...vectorFieldsIn(await this.#cached(index).types)];
  }

  #vectorFieldsNow(index: string): readonly string[] | undefined {
    if (!this.#readMappings) return NO_FIELDS;
    const types = this.#known(index);
    return types === undefined ? undefined : vectorFieldsIn(types);
  }

  /** The mapping of an index when it is cached, read and still current (for `toCommand()`). */
  #known(index: string): FieldTypes | undefined {
    if (!this.#readMappings) return undefined;
    return this.#types.get(index, mappingEpoch(this.#source))?.resolved;
  }

  async #vectorPlan(
    index: string,
    field: string,
  ): Promise<{ dialect: Exclude<VectorDialect, "auto">; similarity?: string }> {
    // The mapping first: its answer names the product, which spares Elasticsearch a `GET /`.
    const types = this.#readMappings ? await this.#cached(index).types : undefined;
    const dialect = this.#vectorDialect === "auto"
      ? await (this.#serverDialect ??= this.#askDialect())
      : this.#vectorDialect;
    if (types === undefined || dialect === "script") return { dialect };
    const similarity = types.get(field)?.similarity;
    return similarity === undefined ? { dialect } : { dialect, similarity };
  }

  /**
   * The dialect of the server, asked once (a failure is asked again next time). An answer that
   * named `X-Elastic-Product: Elasticsearch` (every answer of Elasticsearch 7.14+) means the `knn`
   * section with no request at all (Elasticsearch 7, which has none, needs
   * `vectorDialect: "script"`). Otherwise the answer to `GET /` names the flavour and version; where `GET /` is refused (405 on Elasticsearch builds
   * without the root module, 403 for a role without `monitor`) Elasticsearch still sends
   * `X-Elastic-Product: Elasticsearch`, which is enough: the `knn` section. Where neither tells,
   * the error says to set `vectorDialect`.
   */
  #askDialect(): Promise<Exclude<VectorDialect, "auto">> {
    // Elasticsearch names itself on every answer (the mapping read before this one, say): no
    // `GET /` is needed then. OpenSearch never does, so only then is the root asked.
    if (serverProduct(this.#source) === "Elasticsearch") return Promise.resolve("knn");
    const asked = this.jdbc.query({ text: "GET /", args: [] }, undefined, {
      extractor: (rs) => {
        const version = (rs.raw as { version?: { number?: unknown; distribution?: unknown } })
          ?.version;
        if (version?.distribution === "opensearch") return "opensearch" as const;
        const major = Number(String(version?.number ?? "0").split(".")[0]);
        return major >= 8 ? "knn" as const : "script" as const;
      },
    }).catch((error: unknown) => {
      if (error instanceof ResponseError && error.product === "Elasticsearch") {
        return "knn" as const;
      }
      if (!(error instanceof ResponseError)) throw error;
      throw new UnsupportedFeatureError(
        `telling the server's flavour for a vector query: GET / was refused (HTTP ${error.status}) ` +
          "without an X-Elastic-Product header; set the LambdaTemplate option vectorDialect " +
          '("knn" for Elasticsearch 8+, "opensearch" for OpenSearch\'s knn query, "script" for ' +
          "an exact script_score anywhere)",
        { cause: error, command: "GET /" },
      );
    });
    asked.catch(() => {
      this.#serverDialect = undefined;
    });
    return asked;
  }

  async #resolver(
    index: string,
    where: ConditionNode | null,
    sort: readonly SortKey[],
  ): Promise<ExactResolver> {
    const exact = await this.#exactResolver(index, where, sort);
    if (!hasVectorCondition(where)) return exact;
    // Vector thresholds take OpenSearch's own form there.
    const dialect = this.#vectorDialect === "auto"
      ? await (this.#serverDialect ??= this.#askDialect())
      : this.#vectorDialect;
    if (dialect !== "opensearch") return exact;
    return openSearchFor(exact);
  }

  /** `#resolver` without I/O, or undefined when it needs some (see `Runtime.resolverNow`). */
  #resolverNow(index: string, needs: ExactNeeds): ExactResolver | undefined {
    const exact = this.#exactNow(index, needs.fields);
    if (exact === undefined || !needs.vector) return exact;
    // The dialect of an "auto" template is asked of the server: the async path.
    if (this.#vectorDialect === "auto") return undefined;
    return this.#vectorDialect === "opensearch" ? openSearchFor(exact) : exact;
  }

  #exactNow(index: string, fields: readonly string[]): ExactResolver | undefined {
    if (!this.#readMappings || fields.length === 0) return AS_WRITTEN;
    const entry = this.#types.get(index, mappingEpoch(this.#source));
    const types = entry?.resolved;
    if (types === undefined) return undefined;
    // A field the mapping does not know, once the recheck is due: the async path reads again.
    for (const f of fields) {
      if (!f.startsWith("_") && !types.has(f)) {
        if (Date.now() - entry!.at > UNKNOWN_FIELD_RECHECK_MS) return undefined;
        break;
      }
    }
    return resolverFor(types);
  }

  async #exactResolver(
    index: string,
    where: ConditionNode | null,
    sort: readonly SortKey[],
  ): Promise<ExactResolver> {
    if (!this.#readMappings) return AS_WRITTEN;
    const fields = exactFieldsOf(where, sort);
    if (fields.size === 0) return AS_WRITTEN;
    let entry = this.#cached(index);
    let types = await entry.types;
    // A field the cached mapping does not know may be new (dynamic mapping): read it again, at
    // most once a second. Metadata fields (`_index`, `_routing`, …) are never in a mapping.
    const unknown = [...fields].some((f) => !f.startsWith("_") && !types.has(f));
    if (unknown && Date.now() - entry.at > UNKNOWN_FIELD_RECHECK_MS) {
      entry = this.#read(index);
      types = await entry.types;
    }
    return resolverFor(types);
  }
}
