// What a builder works on: an index and, for an entity class, the class field → document field
// names and the key (the document `_id`).

import { type EntityClass, getEntityMeta } from "../template/mod.ts";

/** The index, entity class and field names a builder works on. */
export interface Target {
  /** The index name (or pattern, for reads). */
  readonly index: string;
  /** The entity class; undefined for a bare index name. */
  readonly type?: EntityClass;
  /** The class field holding the `_id`, and its document field name. */
  readonly key?: { readonly field: string; readonly column: string };
  /** Class field → document field (only the renamed ones). */
  readonly columns: ReadonlyMap<string, string>;
  /** The kind of the entity's version field, when it has one: reads ask for hit versions. */
  readonly version?: "seq_no" | "external";
}

const targets = new WeakMap<EntityClass, Target>();
/**
 * The targets of bare index names, kept as the entity classes' are (an app names the same few
 * indices again and again; bounded, as names may be endless). Shared, like those: frozen, and
 * their (empty) column map is only read.
 */
const indexTargets = new Map<string, Target>();
const NO_COLUMNS: ReadonlyMap<string, string> = new Map();

/** The target of an entity class or of a bare index name (both cached). */
export function targetOf(source: EntityClass | string): Target {
  if (typeof source === "string") {
    const known = indexTargets.get(source);
    if (known !== undefined) return known;
    if (source === "" || /[\s"\\/]/.test(source)) {
      throw new TypeError(
        `Invalid index name ${
          JSON.stringify(source)
        }: pass an index name or pattern without spaces, quotes, slashes or backslashes`,
      );
    }
    const target: Target = Object.freeze({ index: source, columns: NO_COLUMNS });
    if (indexTargets.size >= 256) indexTargets.clear();
    indexTargets.set(source, target);
    return target;
  }
  if (typeof source !== "function") {
    throw new TypeError("Pass an entity class or an index name");
  }
  const hit = targets.get(source);
  if (hit) return hit;
  const meta = getEntityMeta(source);
  if (meta.index === undefined) {
    throw new TypeError(
      `${source.name} has no index: declare one with @Table("name") or defineEntity(${source.name}, { index: "name" })`,
    );
  }
  const columns = new Map<string, string>();
  for (const f of meta.fields) if (f.column !== f.field) columns.set(f.field, f.column);
  const keyField = meta.fields.find((f) => f.primary);
  const version = meta.fields.find((f) => f.version !== undefined)?.version;
  const target: Target = Object.freeze({
    index: meta.index,
    type: source,
    columns,
    ...(keyField ? { key: Object.freeze({ field: keyField.field, column: keyField.column }) } : {}),
    ...(version ? { version } : {}),
  });
  targets.set(source, target);
  return target;
}

/**
 * The document field path of a builder field: the first segment of a dotted path is a class field
 * (renamed through the entity metadata), the rest is taken as written.
 */
export function columnOf(target: Target, field: string, method: string): string {
  if (typeof field !== "string" || field === "" || field.startsWith(".") || field.endsWith(".")) {
    throw new TypeError(
      `${method}(${JSON.stringify(field)}): a field name must be a non-empty name or dotted path`,
    );
  }
  if (target.columns.size === 0) return field;
  const dot = field.indexOf(".");
  const head = dot < 0 ? field : field.slice(0, dot);
  const column = target.columns.get(head);
  if (column === undefined) return field;
  return dot < 0 ? column : column + field.slice(dot);
}
