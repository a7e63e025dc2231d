/**
 * The typed reads of a result-set cell (`getInt`, `getLong`, `getDouble`, `getBoolean`,
 * `getDate`) and the error a cell that does not fit gives.
 *
 * @module
 */

import { DataAccessError } from "../errors.ts";

/** The cell a {@linkcode ColumnTypeError} is about. */
export interface MisfitCell {
  /** The column label. */
  column: string;
  /** The 1-based row number. */
  row: number;
  /** The type asked for: `int`, `long`, `double`, `boolean` or `date`. */
  expected: string;
  /** The cell's value. */
  value: unknown;
  /** What is wrong and what to do. */
  hint: string;
}

/**
 * A cell could not be read as the type asked for: `getInt` on text, `getLong` on a fraction,
 * `getDate` on something that is no date. Says which column, which row, what it holds and what
 * to call instead.
 *
 * @example
 * ```ts
 * import { ColumnTypeError, ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const rs = new ResultSet(["name"], [["alice"]]);
 * rs.next();
 * assert.throws(() => rs.getInt("name"), (e: unknown) =>
 *   e instanceof ColumnTypeError && e.column === "name" && e.row === 1 && e.expected === "int");
 * ```
 */
export class ColumnTypeError extends DataAccessError {
  /** The column label. */
  readonly column: string;
  /** The 1-based row number. */
  readonly row: number;
  /** The type asked for: `int`, `long`, `double`, `boolean` or `date`. */
  readonly expected: string;

  /**
   * Creates the error.
   *
   * @param cell The column label, the 1-based row number, the type asked for, the cell's value
   *   and what is wrong and what to do.
   */
  constructor(cell: MisfitCell) {
    const { column, row, expected, value, hint } = cell;
    const shown = typeof value === "bigint" ? `${value}` : JSON.stringify(value) ?? String(value);
    super(
      "MAPPING",
      `Column "${column}" of row ${row} holds ${shown.slice(0, 60)}, which is not ${
        /^[aeiou]/.test(expected) ? "an" : "a"
      } ${expected}: ${hint}`,
    );
    this.column = column;
    this.row = row;
    this.expected = expected;
  }
}

/** The converted value, or (as a string) why the value does not fit and what to call instead. */
type Check<T> = (value: unknown) => T | string;

const INTEGER = /^\s*[-+]?\d+\s*$/;

export const toInt: Check<number> = (v) => {
  const n = typeof v === "string" && INTEGER.test(v)
    ? Number(v)
    : typeof v === "bigint"
    ? Number(v)
    : typeof v === "boolean"
    ? Number(v)
    : v;
  if (typeof n !== "number" || Number.isNaN(n)) return "read it with getString or getObject";
  if (!Number.isInteger(n)) return "it has a fraction; read it with getDouble";
  if (n < -(2 ** 31) || n >= 2 ** 31) return "it is outside the 32-bit range; read it with getLong";
  return n;
};

export const toLong: Check<bigint> = (v) => {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") {
    return Number.isInteger(v) ? BigInt(v) : "it has a fraction; read it with getDouble";
  }
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "string" && INTEGER.test(v)) return BigInt(v.trim());
  return "read it with getString or getObject";
};

export const toDouble: Check<number> = (v) => {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isNaN(n) ? "read it with getString or getObject" : n;
};

export const toBoolean: Check<boolean> = (v) => {
  if (typeof v === "boolean") return v;
  if (v === "true" || v === 1 || v === "1" || v === 1n) return true;
  if (v === "false" || v === 0 || v === "0" || v === 0n) return false;
  return 'only true/false, "true"/"false" and 1/0 are booleans; read it with getString';
};

export const toDate: Check<Date> = (v) => {
  let date: Date | undefined;
  if (v instanceof Date) date = v;
  else if (typeof v === "number" || typeof v === "bigint") date = new Date(Number(v));
  else if (typeof v === "string" && INTEGER.test(v)) date = new Date(Number(v));
  else if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v)) date = new Date(v);
  if (date === undefined) {
    return "give an ISO-8601 date text or epoch milliseconds, or read it with getString";
  }
  return Number.isNaN(date.getTime()) ? "it is not a valid date; read it with getString" : date;
};
