// Rows → entities and maps, entities → documents. The fast path parses each `_DOC` once and
// applies a rename plan computed once per class.

import { DataAccessError, readHitMeta, type ResultSet } from "../driver/mod.ts";
import { takeDocHits } from "../driver/internal.ts";
import { versionOf } from "./hit_meta.ts";
import {
  type ColumnType,
  type EntityClass,
  type FieldMeta,
  getEntityMeta,
  isEntityClass,
} from "./entity.ts";

/**
 * A row could not be mapped (a RowMapper threw, or `_DOC` is not JSON). `row` is the 0-based row
 * number; `cause` keeps the original error.
 *
 * @example
 * ```ts
 * import { RowMappingError } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const error = new RowMappingError(3, new Error("boom"));
 * assert.equal(error.row, 3);
 * assert.equal(error.code, "MAPPING");
 * assert.match(error.message, /row 3: boom/);
 * ```
 */
export class RowMappingError extends DataAccessError {
  /** The 0-based row number. */
  readonly row: number;

  /**
   * Creates the error for one row that could not be mapped.
   *
   * @param row The 0-based row number.
   * @param cause What went wrong.
   * @param command The command whose rows were mapped.
   */
  constructor(row: number, cause: unknown, command?: string) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super("MAPPING", `Cannot map row ${row}: ${reason}`, { cause, command });
    this.row = row;
  }
}

const CONVERT: Record<ColumnType, ((v: unknown) => unknown) | undefined> = {
  string: (v) => (v === null || typeof v === "object" ? v : String(v)),
  number: (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
  boolean: (v) => (v === "true" ? true : v === "false" ? false : v),
  date: (v) => (typeof v === "string" || typeof v === "number" ? new Date(v) : v),
  bigint: (v) => (typeof v === "number" || typeof v === "string" ? BigInt(v) : v),
  json: undefined,
};

interface Plan {
  readonly columns: readonly string[];
  readonly fields: readonly string[];
  readonly convert: readonly (((v: unknown) => unknown) | undefined)[];
  readonly nested: readonly (readonly string[] | undefined)[];
  readonly key?: string;
  readonly copyAll: boolean;
  readonly all: readonly FieldMeta[];
  readonly version?: FieldMeta;
}

const plans = new WeakMap<object, Plan>();

function planOf(type: EntityClass): Plan {
  const hit = plans.get(type);
  if (hit) return hit;
  const meta = getEntityMeta(type);
  const all: FieldMeta[] = [...meta.fields];
  const declared = new Set(all.map((f) => f.field));
  let sample: object = {};
  try {
    sample = new type() as object;
  } catch { /* a class that needs constructor arguments maps only its declared fields */ }
  for (const field of Object.keys(sample)) {
    if (!declared.has(field)) {
      all.push({ field, column: field, primary: false, insert: true, update: true });
    }
  }
  const version = all.find((f) => f.version !== undefined);
  const mapped = all.filter((f) => f.field !== meta.key && f !== version);
  const plan: Plan = {
    columns: mapped.map((f) => f.column),
    fields: mapped.map((f) => f.field),
    convert: mapped.map((f) => (f.type ? CONVERT[f.type] : undefined)),
    nested: mapped.map((f) => (f.column.includes(".") ? f.column.split(".") : undefined)),
    key: meta.key,
    copyAll: !isEntityClass(type),
    all: version ? all.filter((f) => f !== version) : all,
    version,
  };
  plans.set(type, plan);
  return plan;
}

/**
 * Builds a function that maps one search row (`_ID`, `_DOC` as text or parsed) to an instance of
 * `type`: the document is parsed once (when given as text), document fields are renamed to class fields, the key field takes
 * `_ID`. Classes without metadata receive every document field under its own name.
 *
 * @param type The entity class.
 * @returns `(id, doc) => entity`.
 *
 * @example
 * ```ts
 * import { Column, documentMapper, Table } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * @Table("users")
 * class User {
 *   @Column({ primary: true }) id = "";
 *   @Column("user_name") name = "";
 * }
 * const user = documentMapper(User)("7", '{"id":"7","user_name":"alice"}');
 * assert.ok(user instanceof User);
 * assert.deepEqual({ ...user }, { id: "7", name: "alice" });
 * ```
 */
export function documentMapper<T>(
  type: EntityClass<T>,
): (id: unknown, doc: string | object | null) => T {
  // One mapper per class, like its plan: the lists of every read use it, not a closure each.
  let map = mappers.get(type) as ((id: unknown, doc: string | object | null) => T) | undefined;
  if (map === undefined) mappers.set(type, map = makeMapper(type));
  return map;
}

const mappers = new WeakMap<object, (id: unknown, doc: string | object | null) => unknown>();

function makeMapper<T>(type: EntityClass<T>): (id: unknown, doc: string | object | null) => T {
  const plan = planOf(type);
  const { columns, fields, convert, nested, key, copyAll } = plan;
  const n = columns.length;
  return (id, text) => {
    const entity = new type() as Record<string, unknown>;
    const doc = typeof text === "string" ? JSON.parse(text) : text;
    if (doc !== null && typeof doc === "object") {
      if (copyAll) Object.assign(entity, doc);
      for (let i = 0; i < n; i++) {
        let v = doc[columns[i]!];
        if (v === undefined && nested[i] !== undefined) v = readNested(doc, nested[i]!);
        if (v === undefined) continue;
        const c = convert[i];
        entity[fields[i]!] = c === undefined || v === null ? v : c(v);
      }
    }
    if (key !== undefined && id !== undefined && id !== null) entity[key] = id;
    return entity as T;
  };
}

function readNested(doc: Record<string, unknown>, keys: readonly string[]): unknown {
  let v: unknown = doc;
  for (const k of keys) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/**
 * Maps every row of a result set to an entity (from the current position to the end). The
 * documents are read with `getJson`, so a search response is parsed only once.
 *
 * @param rs The result set (rows with `_ID` and `_DOC`).
 * @param type The entity class.
 * @param command The command, for error messages.
 * @returns The entities.
 *
 * @example
 * ```ts
 * import { mapResultSet } from "./internal.ts";
 * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * class City { name = ""; }
 * const rs = new ResultSet(["_ID", "_DOC"], [["1", '{"name":"Oslo"}']]);
 * assert.equal(mapResultSet(rs, City)[0]!.name, "Oslo");
 * ```
 */
export function mapResultSet<T>(rs: ResultSet, type: EntityClass<T>, command?: string): T[] {
  const map = documentMapper(type);
  const columns = rs.getColumns();
  const idAt = columns.indexOf("_ID") + 1;
  const docAt = columns.indexOf("_DOC") + 1;
  if (docAt === 0) {
    throw new DataAccessError(
      "MAPPING",
      `Cannot map rows to ${type.name}: the result has no _DOC column (columns: ${
        columns.join(", ")
      }); use queryForList without a type`,
      { command },
    );
  }
  const version = planOf(type).version;
  const out: T[] = [];
  const hits = takeDocHits(rs);
  if (hits !== undefined) {
    // A search's rows: read from the hits themselves, as the cursor loop below would read them.
    for (let row = 0; row < hits.length; row++) {
      const hit = hits[row]!;
      const id = hit._id;
      const source = hit._source;
      let entity: T;
      try {
        entity = map(
          id === undefined || id === null ? "" : String(id),
          source !== null && typeof source === "object" ? source : null,
        );
      } catch (error) {
        throw new RowMappingError(row, error, command);
      }
      if (version) {
        const value = versionOf(readHitMeta(hit), version.version);
        if (value !== undefined) (entity as Record<string, unknown>)[version.field] = value;
      }
      out.push(entity);
    }
    return out;
  }
  let row = 0;
  while (rs.next()) {
    let entity: T;
    try {
      entity = map(idAt === 0 ? null : rs.getObject(idAt), rs.getJson(docAt) as object | null);
    } catch (error) {
      throw new RowMappingError(row, error, command);
    }
    if (version) {
      const value = versionOf(rs.getHit(), version.version);
      if (value !== undefined) (entity as Record<string, unknown>)[version.field] = value;
    }
    out.push(entity);
    row++;
  }
  return out;
}

/**
 * Turns an entity into the document it is stored as: class fields renamed to document fields,
 * the key kept under its column name — unless that name is `_id`, which is the document's
 * metadata and never part of `_source` — and `undefined` fields left out. Objects that are not
 * entities are returned as they are.
 *
 * @param entity The entity.
 * @param purpose `"insert"` or `"update"` leaves out the fields declared with `insert: false` /
 *   `update: false`.
 * @returns The document.
 *
 * @example
 * ```ts
 * import { Column, Table } from "@searchvisitor/searchvisitor/template";
 * import { toDocument } from "./internal.ts";
 * import assert from "node:assert/strict";
 *
 * @Table("users")
 * class User {
 *   @Column({ primary: true }) id = "1";
 *   @Column("user_name") name = "alice";
 * }
 * assert.deepEqual(toDocument(new User()), { id: "1", user_name: "alice" });
 * ```
 */
export function toDocument(entity: object, purpose?: "insert" | "update"): Record<string, unknown> {
  const type = entity.constructor as EntityClass | undefined;
  if (!type || !isEntityClass(type)) return entity as Record<string, unknown>;
  const doc: Record<string, unknown> = {};
  const source = entity as Record<string, unknown>;
  for (const f of planOf(type).all) {
    if (purpose === "insert" && !f.insert) continue;
    if (purpose === "update" && !f.update) continue;
    if (f.column === "_id") continue;
    const v = source[f.field];
    if (v !== undefined) doc[f.column] = v;
  }
  return doc;
}

/** A bound value ready for the driver: entity instances (also inside arrays) become documents. */
export function prepareValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    return value.some((v) => v !== null && typeof v === "object" && isEntityClass(v.constructor))
      ? value.map(prepareValue)
      : value;
  }
  const type = value.constructor;
  return type !== Object && type !== undefined && isEntityClass(type) ? toDocument(value) : value;
}
