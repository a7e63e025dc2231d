// Explicit mappings: validation and merging (PUT _mapping, index creation), with Elasticsearch's conflicts.

import { own, ownOrSet, setOwn } from "../_index/own.ts";
import { EngineError, esError, illegalArgument } from "../_errors.ts";
import type { FieldMapping, Mappings } from "../_index/types.ts";
import { NUMBER_TYPES, RANGE_TYPES } from "../_index/field_map.ts";
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
  ...RANGE_TYPES,
  "version",
  "rank_feature",
  "rank_features",
  "sparse_vector",
  "join",
  "percolator",
  "histogram",
]);

function mapperParsing(reason: string, cause?: EngineError): EngineError {
  return esError("mapper_parsing_exception", reason, {}, cause);
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

/** The engine a mapping is checked for: OpenSearch 3 and Elasticsearch 9 accept different keys. */
export type MappingFlavour = "elasticsearch" | "opensearch";

/** `dynamic` values each engine accepts (`runtime` is Elasticsearch's, `strict_allow_templates` OpenSearch's). */
const DYNAMIC_VALUES: Record<MappingFlavour, readonly string[]> = {
  elasticsearch: ["true", "false", "strict", "runtime"],
  opensearch: ["true", "false", "strict", "strict_allow_templates"],
};

/** Refuses a `dynamic` value the engine does not know, with its error and causes. */
function checkDynamic(value: unknown, flavour: MappingFlavour): void {
  if (value === undefined || DYNAMIC_VALUES[flavour].includes(String(value))) return;
  const reason = "Could not convert [dynamic.dynamic] to boolean";
  throw mapperParsing(
    reason,
    illegalArgument(
      reason,
      illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`),
    ),
  );
}

/** Text fields index positions unless `index_options` is `docs` or `freqs`. */
function checkPositions(name: string, field: FieldMapping): void {
  if (
    field.position_increment_gap !== undefined &&
    (field.type === "text" || field.type === "match_only_text") &&
    (field.index_options === "docs" || field.index_options === "freqs")
  ) {
    throw mapperParsing(
      `Cannot set position_increment_gap on field [${name}] without positions enabled`,
      illegalArgument(
        `Cannot set position_increment_gap on field [${name}] without positions enabled`,
      ),
    );
  }
}

function validateProperties(
  props: unknown,
  prefix: string,
  flavour: MappingFlavour,
  multiField = false,
): void {
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
    if (flavour === "opensearch" && name === "") {
      // OpenSearch 3.8.0 accepts a blank name and words an empty one its own way (bare on put
      // mapping, wrapped on index creation: see parseMappings).
      throw esError(
        "mapper_parsing_exception",
        "name cannot be empty string",
        {},
        illegalArgument("name cannot be empty string"),
      );
    }
    if (flavour === "elasticsearch" && name.trim() === "") {
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
    if (flavour === "opensearch" && field.subobjects !== undefined) {
      throw mapperParsing(
        `Mapping definition for [${name}] has unsupported parameters:  [subobjects : ${
          JSON.stringify(field.subobjects)
        }]`,
      );
    }
    if (isObjectField(field)) checkDynamic(field.dynamic, flavour);
    checkPositions(name, field);
    if (multiField && field.copy_to !== undefined) {
      throw illegalArgument(`[copy_to] may not be used to copy from a multi-field: [${path}]`);
    }
    if (field.properties !== undefined) validateProperties(field.properties, path, flavour);
    if (field.fields !== undefined) validateProperties(field.fields, path, flavour, true);
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
  flavour: MappingFlavour = "elasticsearch",
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
  const unknown = keys.filter((k) =>
    !ROOT_KEYS.has(k) || (flavour === "opensearch" && k === "subobjects")
  );
  if (unknown.length > 0) {
    throw mapperParsing(
      `Root mapping definition has unsupported parameters:  ${
        unknown.map((k) => `[${k} : ${JSON.stringify(m[k])}]`).join(" ")
      }`,
    );
  }
  if (m.properties !== undefined) validateProperties(m.properties, "", flavour);
  checkDynamic(m.dynamic, flavour);
  return m;
}

const WRAP = "Failed to parse mapping: ";

/**
 * {@link validateMappings} with Elasticsearch's wrapping of a mapping it cannot parse, the same on
 * index creation and on put mapping: `mapper_parsing_exception` `Failed to parse mapping: …`,
 * caused by the parser's own exception. Merge conflicts and type names are not parse errors.
 */
export function parseMappings(
  mappings: unknown,
  context: "create" | "put" = "create",
  flavour: MappingFlavour = "elasticsearch",
): Mappings {
  try {
    return validateMappings(mappings, context, flavour);
  } catch (e) {
    if (!(e instanceof EngineError) || e.type !== "mapper_parsing_exception") throw e;
    // A parser's own argument error travels as a mapper error of the same reason: the wrapper
    // below is caused by the argument error itself, as in both engines.
    const own =
      e.causedBy?.type === "illegal_argument_exception" && e.causedBy.message === e.message
        ? e.causedBy
        : undefined;
    const bare = e.message.startsWith(WRAP) ? e.message.slice(WRAP.length) : e.message;
    // OpenSearch 3.8 does not wrap on put mapping and names the type on index creation.
    if (flavour === "opensearch" && context === "put") {
      throw own ?? (bare === e.message ? e : esError(e.type, bare, {}, e.causedBy));
    }
    const wrap = flavour === "opensearch" ? "Failed to parse mapping [_doc]: " : WRAP;
    if (bare !== e.message) throw esError(e.type, wrap + bare, {}, e.causedBy);
    throw esError("mapper_parsing_exception", wrap + e.message, {}, own ?? e);
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
