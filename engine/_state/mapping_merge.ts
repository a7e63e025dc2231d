// Explicit mappings: validation and merging (PUT _mapping, index creation), with Elasticsearch's conflicts.

import { own, ownOrSet, setOwn } from "../_index/own.ts";
import { EngineError, esError, illegalArgument } from "../_errors.ts";
import type { FieldMapping, Mappings } from "../_index/types.ts";
import { NUMBER_TYPES } from "../_index/field_map.ts";
import {
  checkVectorUpdate,
  isVectorType,
  readVectorSpec,
  withVectorDefaults,
} from "../_index/vectors.ts";

const KNOWN_TYPES = new Set([
  "text",
  "keyword",
  ...NUMBER_TYPES,
  "boolean",
  "date",
  "date_nanos",
  "object",
  "nested",
  "flattened",
  "ip",
  "binary",
  "geo_point",
  "geo_shape",
  "completion",
  "search_as_you_type",
  "token_count",
  "alias",
  "wildcard",
  "constant_keyword",
  "match_only_text",
  "dense_vector",
  "knn_vector",
  "integer_range",
  "float_range",
  "long_range",
  "double_range",
  "date_range",
  "ip_range",
  "version",
  "rank_feature",
  "rank_features",
  "sparse_vector",
  "join",
  "percolator",
  "histogram",
]);

function mapperParsing(reason: string): EngineError {
  return esError("mapper_parsing_exception", reason);
}

/** Expands dotted field names (`a.b: {...}`) into object mappings, in place. */
function expandDots(props: Record<string, FieldMapping>): void {
  for (const name of Object.keys(props)) {
    if (!name.includes(".") || name.startsWith(".") || name.endsWith(".")) continue;
    const [head, ...rest] = name.split(".");
    const field = props[name];
    delete props[name];
    const parent = ownOrSet(props, head!, (): FieldMapping => ({}));
    parent.properties ??= {};
    setOwn(parent.properties, rest.join("."), field);
    expandDots(parent.properties);
  }
}

function validateProperties(props: unknown, prefix: string): void {
  if (props === null || typeof props !== "object" || Array.isArray(props)) {
    throw mapperParsing(
      `Expected map for property [properties] on field [${
        prefix || "_doc"
      }] but got a class java.lang.String`,
    );
  }
  expandDots(props as Record<string, FieldMapping>);
  for (const [name, raw] of Object.entries(props as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (name.trim() === "") {
      throw esError(
        "mapper_parsing_exception",
        "Failed to parse mapping: field name cannot be an empty string",
        {},
        illegalArgument("field name cannot be an empty string"),
      );
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw mapperParsing(
        `Expected map for property [fields] on field [${name}] but got a class java.lang.String`,
      );
    }
    const field = raw as FieldMapping;
    if (field.type !== undefined && !KNOWN_TYPES.has(String(field.type))) {
      throw mapperParsing(`No handler for type [${field.type}] declared on field [${name}]`);
    }
    if (isVectorType(field.type)) readVectorSpec(path, field);
    if (field.properties !== undefined) validateProperties(field.properties, path);
    if (field.fields !== undefined) validateProperties(field.fields, path);
  }
}

const ROOT_KEYS = new Set([
  "properties",
  "dynamic",
  "_source",
  "_routing",
  "_meta",
  "date_detection",
  "numeric_detection",
  "dynamic_templates",
  "dynamic_date_formats",
  "runtime",
  "enabled",
  "_field_names",
  "_size",
  "subobjects",
  "_data_stream_timestamp",
]);

/** A single unknown root key holding `properties`: a pre-7.0 mapping type such as `{"_doc": {...}}`. */
function looksLikeTypeName(key: string, value: unknown): boolean {
  return !ROOT_KEYS.has(key) && value !== null && typeof value === "object" &&
    (value as Mappings).properties !== undefined;
}

/**
 * Validates a mappings body (`{properties: {...}, dynamic: ...}`), throwing `mapper_parsing_exception`
 * (or `illegal_argument_exception` for a type name, worded for index creation or put mapping).
 */
export function validateMappings(
  mappings: unknown,
  context: "create" | "put" = "create",
): Mappings {
  if (mappings === null || mappings === undefined) return {};
  if (typeof mappings !== "object" || Array.isArray(mappings)) {
    throw mapperParsing("Failed to parse mapping: mappings must be an object");
  }
  const m = mappings as Mappings;
  const keys = Object.keys(m);
  if (
    keys.length === 1 && (keys[0] === "_doc" || looksLikeTypeName(keys[0]!, m[keys[0]!]))
  ) {
    throw illegalArgument(
      context === "put"
        ? "Types cannot be provided in put mapping requests"
        : `The mapping definition cannot be nested under a type [${
          keys[0]
        }] unless include_type_name is set to true.`,
    );
  }
  const unknown = keys.filter((k) => !ROOT_KEYS.has(k));
  if (unknown.length > 0) {
    throw mapperParsing(
      `Root mapping definition has unsupported parameters:  ${
        unknown.map((k) => `[${k} : ${JSON.stringify(m[k])}]`).join(" ")
      }`,
    );
  }
  if (m.properties !== undefined) validateProperties(m.properties, "");
  if (
    m.dynamic !== undefined &&
    !["true", "false", "strict", "runtime", "strict_allow_templates"].includes(String(m.dynamic))
  ) {
    throw mapperParsing(`Failed to parse mapping: Could not convert [dynamic] to boolean`);
  }
  return m;
}

const WRAP = "Failed to parse mapping: ";

/**
 * {@link validateMappings} with Elasticsearch's wrapping of a mapping it cannot parse, the same on
 * index creation and on put mapping: `mapper_parsing_exception` `Failed to parse mapping: …`,
 * caused by the parser's own exception. Merge conflicts and type names are not parse errors.
 */
export function parseMappings(mappings: unknown, context: "create" | "put" = "create"): Mappings {
  try {
    return validateMappings(mappings, context);
  } catch (e) {
    if (!(e instanceof EngineError) || e.type !== "mapper_parsing_exception") throw e;
    if (e.message.startsWith(WRAP)) throw e;
    throw esError("mapper_parsing_exception", WRAP + e.message, {}, e);
  }
}

function isObjectField(f: FieldMapping): boolean {
  return f.type === undefined || f.type === "object" || f.type === "nested";
}

function mergeProps(
  target: Record<string, FieldMapping>,
  incoming: Record<string, FieldMapping>,
  prefix: string,
): void {
  for (const [name, field] of Object.entries(incoming)) {
    const path = prefix ? `${prefix}.${name}` : name;
    const existing = own(target, name);
    if (!existing) {
      setOwn(target, name, structuredClone(field));
      continue;
    }
    if (isObjectField(existing) !== isObjectField(field)) {
      throw illegalArgument(
        isObjectField(existing)
          ? `can't merge a non object mapping [${path}] with an object mapping`
          : `can't merge a non object mapping [${path}] with an object mapping`,
      );
    }
    if (!isObjectField(existing) && existing.type !== field.type) {
      throw illegalArgument(
        `mapper [${path}] cannot be changed from type [${existing.type}] to [${field.type}]`,
      );
    }
    if (isVectorType(existing.type)) checkVectorUpdate(path, existing, field);
    for (const [key, value] of Object.entries(field)) {
      if (key === "properties" || key === "fields") continue;
      existing[key] = structuredClone(value);
    }
    if (field.properties) mergeProps(existing.properties ??= {}, field.properties, path);
    if (field.fields) mergeProps(existing.fields ??= {}, field.fields, path);
  }
}

/**
 * The mappings with the field defaults Elasticsearch fills in and prints (a `dense_vector`'s
 * `index`, `similarity` and `index_options`), at every depth; OpenSearch prints what it was given.
 */
export function withMappingDefaults(mappings: Mappings): Mappings {
  const walk = (props: Record<string, FieldMapping>): Record<string, FieldMapping> => {
    const out: Record<string, FieldMapping> = {};
    for (const [name, field] of Object.entries(props)) {
      let f = withVectorDefaults(field as Record<string, unknown>) as FieldMapping;
      if (f.properties) f = { ...f, properties: walk(f.properties) };
      if (f.fields) f = { ...f, fields: walk(f.fields) };
      setOwn(out, name, f);
    }
    return out;
  };
  return mappings.properties ? { ...mappings, properties: walk(mappings.properties) } : mappings;
}

/** Returns `current` merged with `incoming`; conflicting field types throw `illegal_argument_exception`. */
export function mergeMappings(current: Mappings, incoming: Mappings): Mappings {
  const next = structuredClone(current);
  for (const [key, value] of Object.entries(incoming)) {
    if (key === "properties") continue;
    next[key] = structuredClone(value);
  }
  if (incoming.properties) mergeProps(next.properties ??= {}, incoming.properties, "");
  return next;
}
