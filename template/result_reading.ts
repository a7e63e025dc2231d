// Reading results for JdbcTemplate: lists and their metadata (listMeta), row handlers, multi-command
// results, and the single number of queryForNumber/queryForLong.

import {
  DataAccessError,
  type HitMeta,
  IncorrectResultSizeError,
  readHitMeta,
  ResultSet,
  type Statement,
} from "../driver/mod.ts";
import { rowOfHit, takeDocHits } from "../driver/internal.ts";
import type { BoundTemplate } from "./named_binding.ts";
import type { EntityClass } from "./entity.ts";
import { documentMapper, RowMappingError } from "./row_mapping.ts";
import type { Hit, ListMeta, ResultSetExtractor, RowCallback, RowMap, RowMapper } from "./types.ts";

/** A constructor that returns the object it is given: its subclass's fields land on that object. */
class OnObject {
  constructor(target: object) {
    return target;
  }
}

/**
 * Holds a list's metadata in a private field of the list itself. A private field is added by
 * the class's constructor (given the list through `OnObject`) as a plain store — about 15 ns on
 * Deno 2.9, where each `Object.defineProperty` of a non-enumerable property costs about 200 ns —
 * and it is seen by nothing but this class: not by `Object.keys`, spreads, `JSON.stringify` or
 * `node:assert`'s `deepEqual`, and the list's prototype stays `Array.prototype`. No other field
 * may be declared here: it would become an enumerable property of the list.
 */
class MetaSlot extends OnObject {
  /** The metadata, or the result set it is read from when first asked for (see `of`). */
  #meta: ListMeta | ResultSet;

  private constructor(list: object, meta: ListMeta | ResultSet) {
    super(list);
    this.#meta = meta;
  }

  /**
   * Gives `list` its metadata (replacing any it had): a result set's is read from it when first
   * asked for, so a list whose metadata is never read costs no object for them.
   */
  static attach(list: object, meta: ListMeta | ResultSet): void {
    if (#meta in list) (list as MetaSlot).#meta = meta;
    else new MetaSlot(list, meta);
  }

  /** The metadata given to `list`, or undefined. */
  static of(list: object): ListMeta | undefined {
    if (!(#meta in list)) return undefined;
    const slot = list as MetaSlot;
    const meta = slot.#meta;
    return meta instanceof ResultSet ? slot.#meta = new ResultMeta(meta) : meta;
  }
}

/** A result set's metadata, read once. */
class ResultMeta implements ListMeta {
  readonly total: ListMeta["total"];
  readonly took: number | null;
  readonly aggregations: ListMeta["aggregations"];
  readonly raw: unknown;

  constructor(rs: ResultSet) {
    this.total = rs.total;
    this.took = rs.took;
    this.aggregations = rs.aggregations;
    this.raw = rs.raw;
  }
}

/**
 * Gives a list of rows the metadata of the result set it was read from — `hits.total`, `took`,
 * `aggregations`, `raw` — for {@linkcode listMeta}: the one way every list of the template, the
 * lambda and the mappers carries them. The list stays a plain array.
 *
 * @param rows The rows read from `rs`.
 * @param rs The result set they were read from.
 * @returns `rows` itself.
 *
 * @example
 * ```ts
 * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import { listMeta } from "@searchvisitor/searchvisitor/template";
 * import { withMeta } from "./internal.ts";
 * import assert from "node:assert/strict";
 *
 * const rs = new ResultSet(["n"], [[1]], { total: { value: 7, relation: "eq" }, took: 3 });
 * const list = withMeta(rs.toArray(), rs);
 * assert.deepEqual(list, [{ n: 1 }]);
 * assert.equal(listMeta(list).took, 3);
 * assert.deepEqual(listMeta(list).total, { value: 7, relation: "eq" });
 * ```
 */
export function withMeta<T>(rows: T[], rs: ResultSet): T[] {
  MetaSlot.attach(rows, rs);
  return rows;
}

/**
 * The metadata of a list a read returned — `queryForList`, `queryForHits` and
 * `multipleExecute` of `JdbcTemplate` (and its tagged commands), the lambda's `queryForList`,
 * a mapper's list: `hits.total`, `took`, typed `aggregations` and the `raw` response. The list
 * itself is a plain array of rows (`assert.deepEqual(rows, [...])` compares the rows alone);
 * a copy of it (`slice`, `map`, a spread) carries no metadata.
 *
 * @param list A list returned by a read.
 * @returns Its metadata.
 * @throws {TypeError} When `list` was not returned by a read (a copy, or an array of your own).
 *
 * @example
 * ```ts
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import { JdbcTemplate, listMeta } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const answer = { took: 2, hits: { total: { value: 1, relation: "eq" }, hits: [{ _id: "1", _source: { name: "ann" } }] } };
 * const fetch = () => Promise.resolve(Response.json(answer));
 * const jdbc = new JdbcTemplate(new DataSource({ nodes: ["http://es.local"], fetch }));
 * const rows = await jdbc.queryForList('POST /users/_search {"query": {"match_all": {}}}');
 * assert.deepEqual(rows, [{ _ID: "1", _DOC: '{"name":"ann"}' }]);
 * const { total, took } = listMeta(rows);
 * assert.deepEqual([total?.value, took], [1, 2]);
 * assert.throws(() => listMeta(rows.slice()), TypeError);
 * ```
 */
export function listMeta(list: readonly unknown[]): ListMeta {
  const meta = list !== null && typeof list === "object" ? MetaSlot.of(list) : undefined;
  if (meta === undefined) {
    throw new TypeError(
      "listMeta(): this array was not returned by a read (queryForList, queryForHits, multipleExecute, a lambda or mapper list); copies of a list (slice, map, spread) carry no metadata",
    );
  }
  return meta;
}

/**
 * Reads the rows of a result set (from the cursor on) as hits: the row map or the entity as
 * `doc`, with the hit's metadata beside it.
 */
export function readHits<T>(
  rs: ResultSet,
  type: EntityClass<T> | undefined,
  text: string,
): Hit<T | RowMap>[] {
  const map = type === undefined ? undefined : documentMapper(type);
  const columns = rs.getColumns();
  const hasId = columns.includes("_ID");
  const hasDoc = columns.includes("_DOC");
  if (map !== undefined && !hasDoc) {
    throw new DataAccessError(
      "MAPPING",
      `Cannot map rows to ${type!.name}: the result has no _DOC column (columns: ${
        columns.join(", ")
      }); use queryForHits without a type`,
      { command: text },
    );
  }
  const out: Hit<T | RowMap>[] = [];
  const hits = takeDocHits(rs);
  if (hits !== undefined) {
    // A search's rows: each hit read once, its metadata object given the row as `doc`.
    for (let row = 0; row < hits.length; row++) {
      const hit = hits[row]!;
      let doc: T | RowMap;
      try {
        if (map === undefined) doc = rowOfHit(hit);
        else {
          const id = hit._id;
          const source = hit._source;
          doc = map(
            id === undefined || id === null ? "" : String(id),
            source !== null && typeof source === "object" ? source : null,
          );
        }
      } catch (error) {
        throw new RowMappingError(row, error, text);
      }
      const meta = readHitMeta(hit) as HitMeta & { doc?: T | RowMap };
      meta.doc = doc;
      out.push(meta as Hit<T | RowMap>);
    }
    return out;
  }
  for (let row = 0; rs.next(); row++) {
    try {
      const doc = map === undefined
        ? rs.currentRow()
        : map(hasId ? rs.getObject("_ID") : null, rs.getJson("_DOC") as object | null);
      out.push({ ...rs.getHit(), doc });
    } catch (error) {
      throw new RowMappingError(row, error, text);
    }
  }
  return out;
}

/** The method word of a command text, for messages. */
export function verb(text: string): string {
  return text.trimStart().split(/\s/, 1)[0] ?? "";
}

/**
 * The row handlers `JdbcTemplate.query` takes: a RowMapper function, or an object with one of
 * `rowMapper` / `extractor` / `rowCallback`, or Spring's method names `mapRow` (RowMapper),
 * `extractData` (ResultSetExtractor) and `processRow` (RowCallbackHandler), called as methods.
 */
export type RowHandler<T> =
  | RowMapper<T>
  | { rowMapper: RowMapper<T> }
  | { extractor: ResultSetExtractor<T> }
  | { rowCallback: RowCallback }
  | { mapRow(rs: ResultSet, rowNum: number): T }
  | { extractData(rs: ResultSet): T | Promise<T> }
  | { processRow(rs: ResultSet): void };

const HANDLER_KEYS = [
  "rowMapper",
  "mapRow",
  "extractor",
  "extractData",
  "rowCallback",
  "processRow",
] as const;

type Kind = "map" | "extract" | "callback";
const KIND_OF: Record<(typeof HANDLER_KEYS)[number], Kind> = {
  rowMapper: "map",
  mapRow: "map",
  extractor: "extract",
  extractData: "extract",
  rowCallback: "callback",
  processRow: "callback",
};

/**
 * The key of an object handler's one function (`rowMapper`, `mapRow`, …), or a TypeError naming
 * the shapes accepted. Looked up without a list or a closure: it runs on every `query` call.
 */
function handlerKey(handler: unknown): (typeof HANDLER_KEYS)[number] {
  if (handler !== null && typeof handler === "object") {
    // Each name read as itself (one shape per call site), not through a key in a loop.
    const h = handler as Partial<Record<(typeof HANDLER_KEYS)[number], unknown>>;
    let key: (typeof HANDLER_KEYS)[number] | undefined;
    let count = 0;
    if (typeof h.rowMapper === "function") {
      key ??= "rowMapper";
      count++;
    }
    if (typeof h.mapRow === "function") {
      key ??= "mapRow";
      count++;
    }
    if (typeof h.extractor === "function") {
      key ??= "extractor";
      count++;
    }
    if (typeof h.extractData === "function") {
      key ??= "extractData";
      count++;
    }
    if (typeof h.rowCallback === "function") {
      key ??= "rowCallback";
      count++;
    }
    if (typeof h.processRow === "function") {
      key ??= "processRow";
      count++;
    }
    if (count === 1) return key!;
    if (count > 1) {
      const record = handler as Record<string, unknown>;
      const found = HANDLER_KEYS.filter((k) => typeof record[k] === "function");
      throw new TypeError(
        `query(): the handler has ${
          found.join(" and ")
        }; give exactly one, so it is clear whether rows are mapped, extracted or seen`,
      );
    }
  }
  const shape = handler !== null && typeof handler === "object"
    ? `an object with ${
      Object.keys(handler).length === 0
        ? "no keys"
        : `keys ${
          Object.keys(handler).map((k) => JSON.stringify(k)).join(", ")
        } but no function under a known name`
    }`
    : `${handler === null ? "null" : typeof handler}`;
  throw new TypeError(
    `query(): the handler is ${shape}; pass a RowMapper function (rs, rowNum) => row, or an object with one function: rowMapper or mapRow (each row), extractor or extractData (the whole result set), rowCallback or processRow (each row, no result)`,
  );
}

/**
 * Runs a row handler over a result set: mapped rows, the extractor's result (a promise when the
 * extractor gives one: no await of its own), or (for a row callback) the row count. A throwing
 * RowMapper/callback becomes a RowMappingError with its row; it is thrown here, and the caller's
 * promise rejects with it. An object's function is called as its method.
 */
export function readRows<T>(
  rs: ResultSet,
  handler: RowHandler<T>,
  text: string,
): T[] | T | number | Promise<T> {
  let kind: Kind;
  let each: (this: unknown, rs: ResultSet, n: number) => unknown;
  let self: unknown;
  if (typeof handler === "function") {
    kind = "map";
    each = handler as (rs: ResultSet, n: number) => unknown;
  } else {
    const key = handlerKey(handler);
    kind = KIND_OF[key];
    each = (handler as Record<string, (rs: ResultSet, n: number) => unknown>)[key]!;
    self = handler;
  }
  if (kind === "extract") return each.call(self, rs, 0) as T | Promise<T>;
  const callback = kind === "callback";
  const out: T[] = [];
  let n = 0;
  while (rs.next()) {
    try {
      const v = each.call(self, rs, n);
      if (!callback) out.push(v as T);
    } catch (error) {
      throw new RowMappingError(n, error, text);
    }
    n++;
  }
  return callback ? n : out;
}

/** Runs a multi-command text: one update count or list of row maps per command. */
export async function readAllResults(
  stmt: Statement,
  bound: BoundTemplate,
): Promise<(number | RowMap[])[]> {
  const results: (number | RowMap[])[] = [];
  let isRows = await stmt.execute(bound.text, bound.args);
  for (;;) {
    const rs = isRows ? stmt.getResultSet() : null;
    if (rs) results.push(withMeta(rs.toArray(), rs));
    else {
      const count = stmt.getUpdateCount();
      if (count === -1) break;
      results.push(count);
    }
    isRows = stmt.getMoreResults();
  }
  return results;
}

/**
 * Moves to the only row and names the single column to read: `COUNT`, or the only column.
 * Undefined for no row; more than one row, or several columns, is an error naming the command.
 */
export function singleColumn(rs: ResultSet, text: string, what = "numeric"): string | undefined {
  if (rs.rowCount > 1) throw new IncorrectResultSizeError(1, rs.rowCount, { command: text });
  if (!rs.next()) return undefined;
  const columns = rs.getColumns();
  const column = columns.includes("COUNT")
    ? "COUNT"
    : columns.length === 1
    ? columns[0]
    : undefined;
  if (column === undefined) {
    throw new DataAccessError(
      "MAPPING",
      `Expected one ${what} column, got ${
        columns.join(", ")
      }; use _count, queryForList or a RowMapper: ${text}`,
      { command: text },
    );
  }
  return column;
}

/** The single numeric value of a result set (null for no row); errors name the command. */
export function singleValue(rs: ResultSet, text: string): number | bigint | string | null {
  const column = singleColumn(rs, text);
  if (column === undefined) return null;
  const value = rs.getObject(column);
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "bigint") return value;
  if (typeof value === "string" && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value.trim())) {
    return value.includes(".") || /e/i.test(value) ? Number(value) : value.trim();
  }
  throw new DataAccessError(
    "MAPPING",
    `Column ${column} holds ${JSON.stringify(value)}, which is not a number: ${text}`,
    { command: text },
  );
}
