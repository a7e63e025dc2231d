// Reading results for JdbcTemplate: lists with quiet metadata, row handlers, multi-command
// results, and the single number of queryForNumber/queryForLong.

import {
  DataAccessError,
  IncorrectResultSizeError,
  type ResultSet,
  type Statement,
} from "../driver/mod.ts";
import type { BoundTemplate } from "./named_binding.ts";
import type { EntityClass } from "./entity.ts";
import { documentMapper, RowMappingError } from "./row_mapping.ts";
import type {
  Hit,
  QueryList,
  ResultSetExtractor,
  RowCallback,
  RowMap,
  RowMapper,
} from "./types.ts";

/** One descriptor reused for every property (a fresh object per property costs more). */
const HIDDEN: PropertyDescriptor = { value: undefined, enumerable: false };

/**
 * Attaches a result set's `total`, `took`, `aggregations` and `raw` to an array as
 * non-enumerable properties, making it a {@linkcode QueryList}: the one way every list of the
 * template, the lambda and the mappers carries them. Each `defineProperty` is a runtime call
 * (~0.4 µs): `aggregations` is left off when there are none (reading it gives undefined all the
 * same).
 *
 * @param rows The rows read from `rs`.
 * @param rs The result set they were read from.
 * @returns `rows` itself.
 *
 * @example
 * ```ts
 * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import { withMeta } from "./internal.ts";
 * import assert from "node:assert/strict";
 *
 * const rs = new ResultSet(["n"], [[1]], { total: { value: 7, relation: "eq" }, took: 3 });
 * const list = withMeta(rs.toArray(), rs);
 * assert.equal(list.took, 3);
 * assert.deepEqual(list.total, { value: 7, relation: "eq" });
 * assert.equal(JSON.stringify(list), '[{"n":1}]');
 * ```
 */
export function withMeta<T>(rows: T[], rs: ResultSet): QueryList<T> {
  const d = HIDDEN;
  d.value = rs.total;
  Object.defineProperty(rows, "total", d);
  d.value = rs.took;
  Object.defineProperty(rows, "took", d);
  if (rs.aggregations !== undefined) {
    d.value = rs.aggregations;
    Object.defineProperty(rows, "aggregations", d);
  }
  d.value = rs.raw;
  Object.defineProperty(rows, "raw", d);
  d.value = undefined;
  return rows as QueryList<T>;
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

/** What a handler is and its function bound to it, or a TypeError naming the shapes accepted. */
function handlerOf(handler: unknown): { kind: Kind; fn: (rs: ResultSet, n: number) => unknown } {
  if (typeof handler === "function") {
    return { kind: "map", fn: handler as (rs: ResultSet, n: number) => unknown };
  }
  if (handler !== null && typeof handler === "object") {
    const record = handler as Record<string, unknown>;
    const found = HANDLER_KEYS.filter((k) => typeof record[k] === "function");
    if (found.length === 1) {
      const key = found[0]!;
      const method = record[key] as (rs: ResultSet, n: number) => unknown;
      return { kind: KIND_OF[key], fn: (rs, n) => method.call(handler, rs, n) };
    }
    if (found.length > 1) {
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
 * Runs a row handler over a result set: mapped rows, the extractor's result, or (for a row
 * callback) the row count. A throwing RowMapper/callback becomes a RowMappingError with its row.
 */
export async function readRows<T>(
  rs: ResultSet,
  handler: RowHandler<T>,
  text: string,
): Promise<T[] | T | number> {
  const { kind, fn: each } = handlerOf(handler);
  if (kind === "extract") return await (each(rs, 0) as T | Promise<T>);
  const callback = kind === "callback";
  const out: T[] = [];
  let n = 0;
  while (rs.next()) {
    try {
      const v = each(rs, n);
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
): Promise<(number | QueryList<RowMap>)[]> {
  const results: (number | QueryList<RowMap>)[] = [];
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
