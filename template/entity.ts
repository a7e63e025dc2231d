// Entity metadata: the index, the class fields ↔ document fields, the key, declared
// types. Written by the TC39 standard decorators `@Table`/`@Column` or by `defineEntity`; read by
// the template, lambda and mapper layers through `getEntityMeta`.

// Standard decorator metadata needs Symbol.metadata; runtimes without it get the registered symbol
// TypeScript and Babel look for.
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for("Symbol.metadata");

import {
  checkFieldMapping,
  checkTableMapping,
  type FieldMapping,
  type SimpleFieldType,
  type TableMapping,
} from "./mapping_types.ts";

/**
 * The declared type of a field: values read from documents are converted to it.
 *
 * @example
 * ```ts
 * import { Column, type ColumnType, documentMapper } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const type: ColumnType = "date";
 * class Event { @Column({ type }) at: Date | null = null; }
 * assert.ok(documentMapper(Event)("1", '{"at":"2024-01-02T03:04:05Z"}').at instanceof Date);
 * ```
 */
export type ColumnType = "string" | "number" | "boolean" | "date" | "bigint" | "json";

/**
 * Options of a field: document field name, key flag, type, and whether writes include it.
 *
 * @example
 * ```ts
 * import { Column, type ColumnOptions, getEntityMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const options: ColumnOptions = { name: "user_name", update: false };
 * class User { @Column(options) name = ""; }
 * assert.equal(getEntityMeta(User).fields[0]!.update, false);
 * ```
 */
export interface ColumnOptions {
  /**
   * The document field name (default: the class field name). Dotted names are allowed; `_id`
   * on the key field names the document id itself (never written into `_source`).
   */
  name?: string;
  /** dbVisitor's spelling of {@linkcode ColumnOptions.name} (`@Column({ value: "user_id" })`). */
  value?: string;
  /** This field is the document `_id`. */
  primary?: boolean;
  /** Convert values read from documents to this type. */
  type?: ColumnType;
  /** Include the field in inserts (default true). */
  insert?: boolean;
  /** Include the field in updates (default true). */
  update?: boolean;
  /**
   * This field holds the document's version for optimistic concurrency: `true` for the sequence
   * number and primary term (one opaque text, `"seqNo:primaryTerm"`), `"external"` for an
   * external version number. Reads fill it from the hit's metadata; it is never stored in the
   * document.
   */
  version?: boolean | "external";
  /**
   * The field's index mapping (`mappingOf` and `indexOps` read it): a type name
   * (`"keyword"`) or a {@linkcode FieldMapping} with its options. A field without one is left to
   * dynamic mapping.
   */
  mapping?: SimpleFieldType | FieldMapping;
}

/**
 * One mapped field.
 *
 * @example
 * ```ts
 * import { defineEntity, type FieldMeta, getEntityMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class User { name = ""; }
 * defineEntity(User, { fields: { name: "user_name" } });
 * const field: FieldMeta = getEntityMeta(User).fields[0]!;
 * assert.deepEqual([field.field, field.column, field.primary], ["name", "user_name", false]);
 * ```
 */
export interface FieldMeta {
  /** The class field name. */
  readonly field: string;
  /** The document field name. */
  readonly column: string;
  /** Whether this field is the document `_id`. */
  readonly primary: boolean;
  /** The declared type, when declared. */
  readonly type?: ColumnType;
  /** Included in inserts. */
  readonly insert: boolean;
  /** Included in updates. */
  readonly update: boolean;
  /** Set on the version field: `"seq_no"` (sequence number and primary term) or `"external"`. */
  readonly version?: "seq_no" | "external";
  /** The declared index mapping (a type name expanded to `{ type }`), when declared. */
  readonly mapping?: FieldMapping;
}

/**
 * The metadata of an entity class.
 *
 * @example
 * ```ts
 * import { defineEntity, type EntityMeta, getEntityMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class User { id = ""; }
 * const meta: EntityMeta = getEntityMeta(defineEntity(User, { index: "users", key: "id" }));
 * assert.equal(meta.index, "users");
 * assert.equal(meta.key, "id");
 * ```
 */
export interface EntityMeta {
  /** The index name, when declared. */
  readonly index?: string;
  /** The declared fields, in declaration order. */
  readonly fields: readonly FieldMeta[];
  /** The class field that holds the document `_id`, when there is one. */
  readonly key?: string;
  /** The class field that holds the document's version, when there is one. */
  readonly version?: string;
  /** Index settings, `dynamic` and raw top-level mapping keys, when declared. */
  readonly table?: TableMapping;
}

/**
 * A class whose instances are entities (any class with a no-argument constructor).
 *
 * @example
 * ```ts
 * import { type EntityClass, getEntityMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class User { name = ""; }
 * const type: EntityClass<User> = User;
 * assert.deepEqual(getEntityMeta(type).fields, []);
 * ```
 */
// deno-lint-ignore no-explicit-any
export type EntityClass<T = unknown> = new (...args: any[]) => T;

interface RawMeta {
  index?: string;
  columns: Map<string, ColumnOptions>;
  key?: string;
  table?: TableMapping;
}

const RAW = Symbol.for("searchvisitor.entity");

const COLUMN_KEYS: ReadonlySet<string> = new Set([
  "name",
  "value",
  "primary",
  "type",
  "insert",
  "update",
  "version",
  "mapping",
]);
const DEFINITION_KEYS: ReadonlySet<string> = new Set([
  "index",
  "fields",
  "key",
  "version",
  "settings",
  "dynamic",
  "rawMappings",
]);
const TABLE_KEYS: ReadonlySet<string> = new Set(["index", "settings", "dynamic", "rawMappings"]);

function unknownKeys(value: object, known: ReadonlySet<string>): string[] {
  return Object.keys(value).filter((k) => !known.has(k));
}

/**
 * Checks column options where the entity is defined, so a misspelt or foreign option fails
 * loudly instead of being ignored; `value` (dbVisitor's name) becomes `name`.
 */
function columnOptions(where: string, spec: unknown): ColumnOptions {
  if (typeof spec === "string") return { name: spec };
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) {
    throw new TypeError(`${where}: column options must be a field name or an object`);
  }
  const unknown = unknownKeys(spec, COLUMN_KEYS);
  if (unknown.length > 0) {
    throw new TypeError(
      `${where}: unknown column option${unknown.length > 1 ? "s" : ""} ${
        unknown.map((k) => JSON.stringify(k)).join(", ")
      }; the options are ${[...COLUMN_KEYS].join(", ")}`,
    );
  }
  let options = spec as ColumnOptions;
  if (options.mapping !== undefined) {
    if (options.version) {
      throw new TypeError(`${where}: the version field is never stored, so it has no mapping`);
    }
    options = { ...options, mapping: checkFieldMapping(where, options.mapping) };
  }
  if (options.value !== undefined && options.name !== undefined && options.value !== options.name) {
    throw new TypeError(
      `${where}: name ${JSON.stringify(options.name)} and value ${
        JSON.stringify(options.value)
      } disagree; they are two spellings of the document field name, give one`,
    );
  }
  for (const key of ["name", "value"] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== "string" || v === "")) {
      throw new TypeError(`${where}: ${key} must be a non-empty field name`);
    }
  }
  if (options.value === undefined) return options;
  const { value, ...rest } = options;
  return { ...rest, name: value };
}
const defined = new WeakMap<object, RawMeta>();
const cache = new WeakMap<object, EntityMeta>();

function rawOf(metadata: DecoratorMetadataObject | undefined): RawMeta {
  if (!metadata) {
    throw new TypeError(
      "decorator metadata is unavailable: use TC39 standard decorators (no experimentalDecorators), or defineEntity()",
    );
  }
  const record = metadata as Record<symbol, RawMeta | undefined>;
  if (!Object.hasOwn(record, RAW)) {
    const parent = record[RAW];
    record[RAW] = {
      index: undefined,
      columns: new Map(parent?.columns),
      key: parent?.key,
      ...(parent?.table !== undefined ? { table: parent.table } : {}),
    };
  }
  return record[RAW]!;
}

/**
 * What `@Table` takes: the index and, for `mappingOf`/`indexOps`, settings, `dynamic` and raw
 * top-level mapping keys.
 *
 * @example
 * ```ts
 * import { mappingOf, Table, type TableOptions } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const options: TableOptions = { index: "logs", dynamic: "strict", settings: { number_of_shards: 1 } };
 * @Table(options)
 * class Log {}
 * assert.deepEqual(mappingOf(Log), { settings: { number_of_shards: 1 }, mappings: { dynamic: "strict", properties: {} } });
 * ```
 */
export interface TableOptions extends TableMapping {
  /** The index name. */
  index: string;
}

/**
 * Class decorator: the index the entity lives in.
 *
 * @param indexOrOptions The index name, or {@linkcode TableOptions}.
 * @returns The decorator.
 *
 * @example
 * ```ts
 * import { Column, getEntityMeta, Table } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * @Table("users")
 * class User {
 *   @Column({ primary: true }) id = "";
 *   @Column("user_name") name = "";
 * }
 * assert.equal(getEntityMeta(User).index, "users");
 * ```
 */
export function Table(
  indexOrOptions: string | TableOptions,
): (target: EntityClass, context: ClassDecoratorContext) => void {
  const index = typeof indexOrOptions === "string" ? indexOrOptions : indexOrOptions.index;
  const table = typeof indexOrOptions === "string" ? undefined : indexOrOptions;
  return (target, context) => {
    const raw = rawOf(context.metadata);
    raw.index = index;
    if (table !== undefined) {
      const { index: _, ...rest } = table;
      raw.table = checkTableMapping(`@Table on ${target.name}`, rest, TABLE_KEYS);
    }
  };
}

/**
 * Field decorator: maps a class field to a document field.
 *
 * @param nameOrOptions The document field name, or {@linkcode ColumnOptions}.
 * @returns The decorator.
 *
 * @example
 * ```ts
 * import { Column, getEntityMeta, Table } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * @Table({ index: "users" })
 * class User {
 *   @Column({ primary: true }) id = "";
 *   @Column("user_name") name = "";
 *   @Column({ type: "date" }) born: Date | null = null;
 * }
 * const meta = getEntityMeta(User);
 * assert.equal(meta.key, "id");
 * assert.deepEqual(meta.fields.map((f) => f.column), ["id", "user_name", "born"]);
 * ```
 */
export function Column(
  nameOrOptions: string | ColumnOptions = {},
): (value: undefined, context: ClassFieldDecoratorContext) => void {
  return (_value, context) => {
    const field = String(context.name);
    const options = columnOptions(`@Column on ${field}`, nameOrOptions);
    const raw = rawOf(context.metadata);
    raw.columns.set(field, options);
    if (options.primary) raw.key = field;
  };
}

/**
 * The description `defineEntity` takes.
 *
 * @example
 * ```ts
 * import { defineEntity, type EntityDefinition, getEntityMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const definition: EntityDefinition = { index: "cities", key: "id", fields: { code: { name: "country", type: "string" } } };
 * class City { id = ""; code = ""; }
 * assert.equal(getEntityMeta(defineEntity(City, definition)).fields[0]!.column, "country");
 * ```
 */
export interface EntityDefinition {
  /** The index name. */
  index?: string;
  /** Class field → document field name, or full column options. */
  fields?: Record<string, string | ColumnOptions>;
  /** The class field that holds the document `_id`. */
  key?: string;
  /** The class field that holds the sequence number and primary term (optimistic concurrency). */
  version?: string;
  /** Index settings for `mappingOf`/`indexOps`. */
  settings?: TableMapping["settings"];
  /** `dynamic` of the index's mapping. */
  dynamic?: TableMapping["dynamic"];
  /** Other top-level keys of the mapping. */
  rawMappings?: TableMapping["rawMappings"];
}

/**
 * Writes entity metadata without decorators (plain JavaScript); the same metadata as
 * `@Table`/`@Column`.
 *
 * @param type The class.
 * @param definition The index, fields and key.
 * @returns The class, for chaining.
 *
 * @example
 * ```ts
 * import { defineEntity, getEntityMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class City { id = ""; name = ""; country = ""; }
 * defineEntity(City, { index: "cities", key: "id", fields: { country: "country_code" } });
 * const meta = getEntityMeta(City);
 * assert.equal(meta.index, "cities");
 * assert.equal(meta.key, "id");
 * assert.equal(meta.fields.find((f) => f.field === "country")?.column, "country_code");
 * ```
 */
export function defineEntity<C extends EntityClass>(type: C, definition: EntityDefinition): C {
  const unknown = unknownKeys(definition ?? {}, DEFINITION_KEYS);
  if (unknown.length > 0) {
    throw new TypeError(
      `defineEntity(${type.name}): unknown option${unknown.length > 1 ? "s" : ""} ${
        unknown.map((k) => JSON.stringify(k)).join(", ")
      }; the options are ${[...DEFINITION_KEYS].join(", ")}`,
    );
  }
  const columns = new Map<string, ColumnOptions>();
  for (const [field, spec] of Object.entries(definition.fields ?? {})) {
    columns.set(field, columnOptions(`defineEntity(${type.name}) field ${field}`, spec));
  }
  let key = definition.key;
  for (const [field, options] of columns) if (options.primary) key ??= field;
  if (key !== undefined && !columns.has(key)) columns.set(key, { primary: true });
  const version = definition.version;
  if (version !== undefined) columns.set(version, { ...columns.get(version), version: true });
  const { settings, dynamic, rawMappings } = definition;
  const table = checkTableMapping(`defineEntity(${type.name})`, { settings, dynamic, rawMappings });
  defined.set(type, {
    index: definition.index,
    columns,
    key,
    ...(Object.keys(table).length > 0 ? { table } : {}),
  });
  cache.delete(type);
  return type;
}

/**
 * The metadata of an entity class: from `defineEntity`, else from its decorators; a class with
 * neither gets empty metadata (its documents map field by field under the same names).
 *
 * @param type The class.
 * @returns The metadata (cached).
 *
 * @example
 * ```ts
 * import { getEntityMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class Plain { a = 1; }
 * assert.deepEqual(getEntityMeta(Plain).fields, []);
 * ```
 */
export function getEntityMeta(type: EntityClass): EntityMeta {
  const hit = cache.get(type);
  if (hit) return hit;
  const metadata = (type as { [Symbol.metadata]?: Record<symbol, RawMeta | undefined> | null })[
    Symbol.metadata
  ];
  const raw = defined.get(type) ?? metadata?.[RAW];
  const fields: FieldMeta[] = [];
  let version: string | undefined;
  for (const [field, options] of raw?.columns ?? []) {
    if (options.version) version = field;
    fields.push(Object.freeze({
      field,
      column: options.name ?? field,
      primary: raw?.key === field,
      ...(options.type ? { type: options.type } : {}),
      insert: options.insert ?? true,
      update: options.update ?? true,
      ...(options.version
        ? { version: options.version === "external" ? "external" : "seq_no" }
        : {}),
      ...(options.mapping !== undefined ? { mapping: options.mapping as FieldMapping } : {}),
    }));
  }
  const meta: EntityMeta = Object.freeze({
    ...(raw?.index !== undefined ? { index: raw.index } : {}),
    fields: Object.freeze(fields),
    ...(raw?.key !== undefined ? { key: raw.key } : {}),
    ...(version !== undefined ? { version } : {}),
    ...(raw?.table !== undefined ? { table: raw.table } : {}),
  });
  cache.set(type, meta);
  return meta;
}

/**
 * Whether a class has entity metadata (decorators or `defineEntity`).
 *
 * @param type Any value.
 * @returns True for a class with declared metadata.
 *
 * @example
 * ```ts
 * import { defineEntity, isEntityClass } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class A { x = 0; }
 * assert.equal(isEntityClass(A), false);
 * defineEntity(A, { index: "a" });
 * assert.equal(isEntityClass(A), true);
 * ```
 */
export function isEntityClass(type: unknown): boolean {
  if (typeof type !== "function") return false;
  if (defined.has(type)) return true;
  const metadata =
    (type as { [Symbol.metadata]?: Record<symbol, unknown> | null })[Symbol.metadata];
  return metadata?.[RAW] !== undefined;
}
