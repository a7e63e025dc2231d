// The shapes JdbcTemplate and its callers share: arguments, commands, rows, row handlers, lists.

import type { ResultSet } from "../driver/mod.ts";
import type { BoundTemplate } from "./named_binding.ts";

/** Positional arguments (for `?`/`{?}`) or named arguments (for `#{…}`, `${…}`, rules). */
export type Args = readonly unknown[] | object;

/** A command: template text, or a command already bound by `bindTemplate`. */
export type Command = string | BoundTemplate;

/** One row as a map from column name (`_ID`, `_DOC`, `COUNT`, `STATUS`, …) to value. */
export type RowMap = Record<string, unknown>;

/** Turns the current row of a result set into a value. `rowNum` is 0-based. */
export type RowMapper<T> = (rs: ResultSet, rowNum: number) => T;

/** Reads a whole result set (it calls `rs.next()` itself). */
export type ResultSetExtractor<T> = (rs: ResultSet) => T | Promise<T>;

/** Sees each row in turn, returning nothing. `rowNum` is 0-based. */
export type RowCallback = (rs: ResultSet, rowNum: number) => void;

/** A real array that also carries the search's `total`, `took` and `aggregations` (not enumerable). */
export type QueryList<T> = T[] & {
  /** `hits.total` of a search, or null. */
  readonly total: { value: number; relation: "eq" | "gte" } | null;
  /** `took` in milliseconds, or null. */
  readonly took: number | null;
  /** The `aggregations` of a search, or undefined. */
  readonly aggregations: unknown;
};
