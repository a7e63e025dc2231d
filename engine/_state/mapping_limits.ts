// Elasticsearch's mapping limits: `index.mapping.total_fields.limit`, `index.mapping.depth.limit`,
// `index.mapping.field_name_length.limit`, `index.mapping.nested_fields.limit` and
// `index.mapping.nested_objects.limit`. Index creation and put mapping check the whole mapping;
// dynamic mapping checks the mapping a document grows to (dynamic_mapping.ts).

import { illegalArgument } from "../_errors.ts";
import type { FieldMapping } from "../_index/types.ts";

/** The limits that apply to one index, read from its settings. */
export interface MappingLimits {
  totalFields: number;
  depth: number;
  fieldNameLength: number;
  nestedFields: number;
  nestedObjects: number;
}

/** Reads the limits from flat index settings, with Elasticsearch's defaults. */
export function mappingLimits(settings: Readonly<Record<string, unknown>>): MappingLimits {
  const int = (key: string, fallback: number): number => {
    const v = Number(settings[key] ?? fallback);
    return Number.isFinite(v) ? v : fallback;
  };
  return {
    totalFields: int("index.mapping.total_fields.limit", 1000),
    depth: int("index.mapping.depth.limit", 20),
    fieldNameLength: int("index.mapping.field_name_length.limit", Number.MAX_VALUE),
    nestedFields: int("index.mapping.nested_fields.limit", 50),
    nestedObjects: int("index.mapping.nested_objects.limit", 10000),
  };
}

function checkNameLength(name: string, limits: MappingLimits): void {
  if (name.length > limits.fieldNameLength) {
    throw illegalArgument(
      `Field name [${name}] is longer than the limit of [${limits.fieldNameLength}] characters`,
    );
  }
}

function isObjectMapping(f: FieldMapping): boolean {
  return f.type === undefined || f.type === "object" || f.type === "nested";
}

/**
 * Throws Elasticsearch's `illegal_argument_exception` when object fields nest deeper than the
 * depth limit, a field's own name (object, leaf or multi-field) is longer than the name length
 * limit, or there are more `nested` fields than allowed. Iterative, so any depth is safe.
 *
 * @example
 * ```ts
 * import { checkMappingLimits, mappingLimits } from "./mapping_limits.ts";
 * const limits = mappingLimits({ "index.mapping.field_name_length.limit": "3" });
 * checkMappingLimits({ abc: { type: "keyword" } }, limits);
 * let reason = "";
 * try {
 *   checkMappingLimits({ abcd: { type: "keyword" } }, limits);
 * } catch (e) {
 *   reason = (e as Error).message;
 * }
 * if (reason !== "Field name [abcd] is longer than the limit of [3] characters") {
 *   throw new Error(`unexpected: ${reason}`);
 * }
 * ```
 */
export function checkMappingLimits(
  props: Readonly<Record<string, FieldMapping>> | undefined,
  limits: MappingLimits,
): void {
  let nested = 0;
  const stack: Array<[Readonly<Record<string, FieldMapping>>, string, number]> = [];
  // An object field counts its own level and its children's: `a` at the root has depth 2.
  if (props) stack.push([props, "", 2]);
  while (stack.length > 0) {
    const [level, prefix, depth] = stack.pop()!;
    for (const [name, field] of Object.entries(level)) {
      checkNameLength(name, limits);
      for (const sub of Object.keys(field.fields ?? {})) checkNameLength(sub, limits);
      if (!isObjectMapping(field)) continue;
      const path = prefix ? `${prefix}.${name}` : name;
      if (depth > limits.depth) {
        throw illegalArgument(
          `Limit of mapping depth [${limits.depth}] has been exceeded due to object field [${path}]`,
        );
      }
      if (field.type === "nested" && ++nested > limits.nestedFields) {
        throw illegalArgument(`Limit of nested fields [${limits.nestedFields}] has been exceeded`);
      }
      if (field.properties) stack.push([field.properties, path, depth + 1]);
    }
  }
}

/** The error for a document with more nested objects than `index.mapping.nested_objects.limit`. */
export function nestedObjectsReason(limit: number): string {
  return `The number of nested documents has exceeded the allowed limit of [${limit}]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting.`;
}

/**
 * Number of field and object mappers (multi-fields included), as
 * `index.mapping.total_fields.limit` counts them.
 *
 * @example
 * ```ts
 * import { countFields } from "./mapping_limits.ts";
 * const text = { type: "text", fields: { raw: { type: "keyword" } } };
 * const n = countFields({ a: { properties: { b: text } } });
 * if (n !== 3) throw new Error(`an object, a field and a multi-field count 3, not ${n}`);
 * ```
 */
export function countFields(props: Readonly<Record<string, FieldMapping>>): number {
  let n = 0;
  const stack: Readonly<Record<string, FieldMapping>>[] = [props];
  while (stack.length > 0) {
    for (const field of Object.values(stack.pop()!)) {
      n += 1;
      if (field.properties) stack.push(field.properties);
      if (field.fields) stack.push(field.fields);
    }
  }
  return n;
}

/**
 * Checks a whole mapping as index creation and put mapping do, in Elasticsearch's order: total
 * fields (`Limit of total fields [n] has been exceeded`), then depth, name length and nested
 * fields ({@link checkMappingLimits}); each an `illegal_argument_exception`.
 */
export function checkWholeMapping(
  props: Readonly<Record<string, FieldMapping>> | undefined,
  limits: MappingLimits,
): void {
  if (props && countFields(props) > limits.totalFields) {
    throw illegalArgument(`Limit of total fields [${limits.totalFields}] has been exceeded`);
  }
  checkMappingLimits(props, limits);
}
