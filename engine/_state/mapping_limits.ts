// Elasticsearch's mapping limits: `index.mapping.depth.limit`, `index.mapping.nested_fields.limit`
// and `index.mapping.nested_objects.limit` (total fields are counted by dynamic mapping).

import { illegalArgument } from "../_errors.ts";
import type { FieldMapping } from "../_index/types.ts";

/** The limits that apply to one index, read from its settings. */
export interface MappingLimits {
  depth: number;
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
    depth: int("index.mapping.depth.limit", 20),
    nestedFields: int("index.mapping.nested_fields.limit", 50),
    nestedObjects: int("index.mapping.nested_objects.limit", 10000),
  };
}

function isObjectMapping(f: FieldMapping): boolean {
  return f.type === undefined || f.type === "object" || f.type === "nested";
}

/**
 * Throws Elasticsearch's `illegal_argument_exception` when object fields nest deeper than the
 * depth limit or there are more `nested` fields than allowed. Iterative, so any depth is safe.
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
