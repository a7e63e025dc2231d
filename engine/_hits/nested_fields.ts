// The `fields` option for fields of nested objects: grouped per object under the nested field, as
// Elasticsearch returns them (`"user": [{"first": ["John"]}, {"first": ["Alice"]}]`), with names
// relative to the object and deeper nested fields grouped again inside.

import type { FieldMap } from "../_index/field_map.ts";

type Fields = Record<string, unknown[]>;

/** The nested paths holding `path`, outermost first. */
function chainOf(fields: FieldMap, path: string): string[] {
  const chain: string[] = [];
  for (let p = fields.nestedPathOf(path); p !== ""; p = fields.nestedPathOf(p)) chain.unshift(p);
  return chain;
}

/** The objects at a relative dotted path of an object, arrays flattened, in source order. */
function objectsAt(value: unknown, parts: readonly string[]): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap((v) => objectsAt(v, parts));
  if (value === null || typeof value !== "object") return [];
  if (parts.length === 0) return [value as Record<string, unknown>];
  const o = value as Record<string, unknown>;
  return Object.hasOwn(o, parts[0]!) ? objectsAt(o[parts[0]!], parts.slice(1)) : [];
}

/** Relative name of `path` inside the scope `base` ("" for the root). */
function relative(path: string, base: string): string {
  return base === "" ? path : path.slice(base.length + 1);
}

/** How a hit's fields are read: its field map, and a leaf field's values in one object. */
export interface FieldReading {
  readonly fields: FieldMap;
  /** The values of the field at `path` in `object` (`relativeName` is its name inside it). */
  readonly read: (object: unknown, path: string, relativeName: string) => unknown[];
}

/** An object of a document's source and the scope it is an object of (`base`, "" for the root). */
export interface ScopedObject {
  readonly source: unknown;
  readonly base: string;
}

/**
 * Adds the values of `paths` (fields of nested objects) to `out`, grouped per object, reading
 * them in `at` by `reading`.
 */
export function nestedSourceFields(
  reading: FieldReading,
  at: ScopedObject,
  paths: readonly string[],
  out: Fields,
): void {
  const { fields, read } = reading;
  const { source, base } = at;
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const chain = chainOf(fields, path);
    const depth = base === "" ? 0 : chainOf(fields, base).length + 1;
    const child = chain[depth];
    if (child === undefined) {
      const values = read(source, path, relative(path, base));
      if (values.length) out[relative(path, base)] = values;
      continue;
    }
    let group = groups.get(child);
    if (!group) groups.set(child, group = []);
    group.push(path);
  }
  for (const [child, group] of groups) {
    const name = relative(child, base);
    const objects: Fields[] = [];
    for (const object of objectsAt(source, name.split("."))) {
      const inner: Fields = {};
      nestedSourceFields(reading, { source: object, base: child }, group, inner);
      if (Object.keys(inner).length) objects.push(inner);
    }
    if (objects.length) out[name] = objects;
  }
}
