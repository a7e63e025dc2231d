// An entity's declared index mapping as the JSON Elasticsearch and OpenSearch take, written in
// the form they return from `GET /{index}/_mapping` (so a declaration can be compared with a live
// mapping as data): `copy_to` as a list, `dynamic` as text, an object with properties without
// `"type": "object"`.

import { type EntityClass, getEntityMeta } from "./entity.ts";
import {
  type EntityRef,
  type FieldMapping,
  type IndexSettings,
  MappingDeclarationError,
  type MappingValue,
} from "./mapping_types.ts";

/**
 * One field of a mapping as JSON: its type, options, `properties` (objects) and `fields`
 * (multi-fields).
 *
 * @example
 * ```ts
 * import type { FieldMappingJson } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const field: FieldMappingJson = { type: "text", fields: { raw: { type: "keyword" } } };
 * assert.equal(field.fields?.raw?.type, "keyword");
 * ```
 */
export interface FieldMappingJson {
  /** The type (absent on an object that has properties). */
  readonly type?: string;
  /** The fields of an object or nested field. */
  readonly properties?: Readonly<Record<string, FieldMappingJson>>;
  /** Multi-fields. */
  readonly fields?: Readonly<Record<string, FieldMappingJson>>;
  /** The type's options. */
  readonly [option: string]: MappingValue | Readonly<Record<string, FieldMappingJson>> | undefined;
}

/**
 * The `mappings` of an index as JSON.
 *
 * @example
 * ```ts
 * import type { TypeMappingJson } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const mappings: TypeMappingJson = { dynamic: "strict", properties: { id: { type: "keyword" } } };
 * assert.equal(mappings.properties.id?.type, "keyword");
 * ```
 */
export interface TypeMappingJson {
  /** `dynamic`, when declared. */
  readonly dynamic?: string;
  /** The fields. */
  readonly properties: Readonly<Record<string, FieldMappingJson>>;
  /** Other top-level keys (`_source`, `_routing`, `dynamic_templates`, …). */
  readonly [key: string]: MappingValue | Readonly<Record<string, FieldMappingJson>> | undefined;
}

/**
 * What `mappingOf` gives: the body of `PUT /{index}` (settings when declared, and the mappings).
 *
 * @example
 * ```ts
 * import { Column, type IndexDefinition, mappingOf, Table } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * @Table("tags")
 * class Tag { @Column({ mapping: "keyword" }) name = ""; }
 * const body: IndexDefinition = mappingOf(Tag);
 * assert.deepEqual(body, { mappings: { properties: { name: { type: "keyword" } } } });
 * ```
 */
export interface IndexDefinition {
  /** The index settings, when the entity declares some. */
  readonly settings?: Readonly<Record<string, MappingValue>>;
  /** The mappings. */
  readonly mappings: TypeMappingJson;
}

type Mutable = Record<string, MappingValue>;

function classOf(ref: EntityRef): EntityClass {
  const fn = ref as { prototype?: unknown };
  return (fn.prototype === undefined ? (ref as () => EntityClass)() : ref) as EntityClass;
}

/** `dynamic` as servers return it (text). */
function dynamicText(value: unknown): string {
  return typeof value === "boolean" ? String(value) : value as string;
}

function fieldJson(where: string, m: FieldMapping, stack: EntityClass[]): Mutable {
  if (m.type === undefined) return { ...m.raw } as Mutable;
  const out: Mutable = {};
  let properties: Mutable | undefined;
  for (const [key, value] of Object.entries(m)) {
    if (value === undefined || key === "raw") continue;
    if (key === "copy_to") out.copy_to = typeof value === "string" ? [value] : value;
    else if (key === "dynamic") out.dynamic = dynamicText(value);
    else if (key === "entity") {
      const type = classOf(value as EntityRef);
      if (typeof type !== "function") {
        throw new MappingDeclarationError(`${where}: entity must be a class (or () => Class)`);
      }
      if (stack.includes(type)) {
        throw new MappingDeclarationError(
          `${where}: ${type.name} contains itself (${
            [...stack, type].map((c) => c.name).join(" → ")
          }); a mapping cannot recurse, so stop the chain with an object without entity`,
        );
      }
      properties = propertiesOf(type, [...stack, type]);
    } else if (key === "fields") {
      const fields: Mutable = {};
      for (const [name, sub] of Object.entries(value as Record<string, FieldMapping>)) {
        fields[name] = fieldJson(`${where} multi-field ${name}`, sub, stack);
      }
      out.fields = fields;
    } else out[key] = value as MappingValue;
  }
  Object.assign(out, m.raw);
  if (properties !== undefined && Object.keys(properties).length > 0) {
    if (out.type === "object") delete out.type;
    out.properties = properties;
  }
  return out;
}

/** The mapped fields of an entity class as `properties`; dotted column names become objects. */
function propertiesOf(type: EntityClass, stack: EntityClass[]): Mutable {
  const properties: Mutable = {};
  for (const field of getEntityMeta(type).fields) {
    if (field.mapping === undefined) continue;
    const where = `${type.name}.${field.field}`;
    const json = fieldJson(where, field.mapping, stack);
    const path = field.column.split(".");
    let into = properties;
    for (const part of path.slice(0, -1)) {
      let parent = into[part] as Mutable | undefined;
      if (parent === undefined) into[part] = parent = { properties: {} };
      else if (parent.properties === undefined) {
        if (parent.type !== "object" && parent.type !== "nested") {
          throw new MappingDeclarationError(
            `${where}: ${field.column} lies under ${part}, which is mapped as ${parent.type}`,
          );
        }
        if (parent.type === "object") delete parent.type;
        parent.properties = {};
      }
      into = parent.properties as Mutable;
    }
    const leaf = path[path.length - 1]!;
    if (into[leaf] !== undefined) {
      const existing = into[leaf] as Mutable;
      if (json.properties === undefined && existing.properties !== undefined) {
        // `address` declared as an object after `address.city`: keep both.
        Object.assign(existing, { ...json, properties: existing.properties });
        if (existing.type === "object") delete existing.type;
        continue;
      }
      throw new MappingDeclarationError(
        `${where}: ${field.column} is mapped twice in ${type.name}; map it on one field`,
      );
    }
    into[leaf] = json;
  }
  return properties;
}

function settingsJson(settings: IndexSettings): Mutable {
  const out: Mutable = {};
  for (const [key, value] of Object.entries(settings)) {
    if (value !== undefined && key !== "raw") out[key] = value as MappingValue;
  }
  return Object.assign(out, settings.raw);
}

/**
 * The index mapping an entity declares, as the JSON `PUT /{index}` takes: each `@Column` with a
 * `mapping` becomes a property (object and nested fields recursively from their entity, dotted
 * column names as objects), `@Table`'s `dynamic` and raw keys go to the top of `mappings`, and its
 * settings to `settings`. Fields without a mapping are left to dynamic mapping. The JSON is in the
 * form servers return from `GET /{index}/_mapping`.
 *
 * @param type The entity class (decorators or `defineEntity`).
 * @returns `{ settings?, mappings }`.
 * @throws {MappingDeclarationError} When an object field's entity contains itself, or a field is
 * mapped twice.
 *
 * @example
 * ```ts
 * import { Column, mappingOf, Table } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * class Address {
 *   @Column({ mapping: "keyword" }) city = "";
 *   @Column({ mapping: { type: "geo_point" } }) location = "";
 * }
 *
 * @Table({ index: "users", dynamic: "strict", settings: { number_of_shards: 1 } })
 * class User {
 *   @Column({ primary: true, mapping: "keyword" }) id = "";
 *   @Column({ mapping: { type: "text", analyzer: "english", fields: { raw: { type: "keyword" } } } })
 *   name = "";
 *   @Column({ name: "born_at", mapping: { type: "date", format: "yyyy-MM-dd" } }) born = "";
 *   @Column({ mapping: { type: "nested", entity: Address } }) addresses: Address[] = [];
 *   @Column() note = ""; // no mapping: left to dynamic mapping
 * }
 *
 * assert.deepEqual(mappingOf(User), {
 *   settings: { number_of_shards: 1 },
 *   mappings: {
 *     dynamic: "strict",
 *     properties: {
 *       id: { type: "keyword" },
 *       name: { type: "text", analyzer: "english", fields: { raw: { type: "keyword" } } },
 *       born_at: { type: "date", format: "yyyy-MM-dd" },
 *       addresses: {
 *         type: "nested",
 *         properties: { city: { type: "keyword" }, location: { type: "geo_point" } },
 *       },
 *     },
 *   },
 * });
 * ```
 */
export function mappingOf(type: EntityClass): IndexDefinition {
  const meta = getEntityMeta(type);
  const table = meta.table ?? {};
  const mappings: Mutable = {};
  if (table.dynamic !== undefined) mappings.dynamic = dynamicText(table.dynamic);
  Object.assign(mappings, table.rawMappings);
  mappings.properties = propertiesOf(type, [type]);
  return {
    ...(table.settings !== undefined ? { settings: settingsJson(table.settings) } : {}),
    mappings: mappings as unknown as TypeMappingJson,
  };
}
