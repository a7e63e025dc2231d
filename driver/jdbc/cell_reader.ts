/**
 * The typed reads of a cell of the current row, shared by every result set: `getString`,
 * `getNumber`, `getBoolean`, `getInt`, `getLong` (exact, a `bigint`), `getDouble` and `getDate`,
 * each with a {@linkcode ColumnTypeError} for a value that does not fit.
 *
 * @module
 */

import { ColumnTypeError, toBoolean, toDate, toDouble, toInt, toLong } from "./cell_types.ts";

/**
 * A column given by its label (exact, then case-insensitive) or its 1-based index.
 *
 * @example
 * ```ts
 * import { type ColumnRef, ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const rs = new ResultSet(["COUNT"], [[5]]);
 * rs.next();
 * const refs: ColumnRef[] = ["COUNT", "count", 1];
 * assert.deepEqual(refs.map((c) => rs.getNumber(c)), [5, 5, 5]);
 * ```
 */
export type ColumnRef = string | number;

/**
 * The typed getters of a row cursor, on top of `getObject`. {@linkcode ResultSet} is the one to
 * use; this base class only holds what every typed read shares.
 *
 * @example
 * ```ts
 * import { CellReader, ResultSet } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const rs = new ResultSet(["n", "flag"], [["42", 1]]);
 * rs.next();
 * assert.ok(rs instanceof CellReader);
 * assert.equal(rs.getInt("n"), 42);
 * assert.equal(rs.getBoolean("flag"), true);
 * ```
 */
export abstract class CellReader {
  /**
   * Reads a cell of the current row as stored.
   *
   * @param column A label or a 1-based index.
   * @returns The cell as stored.
   */
  abstract getObject(column: ColumnRef): unknown;

  /**
   * Returns the column labels, in order.
   *
   * @returns The column labels.
   */
  abstract getColumns(): string[];

  /**
   * Returns the 1-based number of the current row.
   *
   * @returns The row number.
   */
  abstract getRowNumber(): number;

  /**
   * Reads a cell of the current row as text.
   *
   * @param column A label or a 1-based index.
   * @returns The cell as text (numbers and booleans converted, objects as JSON), or null.
   */
  getString(column: ColumnRef): string | null {
    const value = this.getObject(column);
    if (value === null || value === undefined) return null;
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  }

  /**
   * Reads a cell of the current row as a number.
   *
   * @param column A label or a 1-based index.
   * @returns The cell as a number, or null; text is converted, anything else is an error.
   */
  getNumber(column: ColumnRef): number | null {
    return this.#typed(column, "number", toDouble);
  }

  /**
   * Reads a cell of the current row as a boolean.
   *
   * @param column A label or a 1-based index.
   * @returns The cell as a boolean (`"true"`/`"false"` and 1/0 converted), or null.
   * @throws {ColumnTypeError} When the cell holds anything else.
   */
  getBoolean(column: ColumnRef): boolean | null {
    return this.#typed(column, "boolean", toBoolean);
  }

  /**
   * Reads a cell of the current row as a 32-bit integer (JDBC `getInt`).
   *
   * @param column A label or a 1-based index.
   * @returns The integer, or null.
   * @throws {ColumnTypeError} For text that is no integer, a fraction, or a value beyond 32 bits.
   *
   * @example
   * ```ts
   * import { ColumnTypeError, ResultSet } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const rs = new ResultSet(["a", "b", "c"], [[42, "7", 1.5]]);
   * rs.next();
   * assert.equal(rs.getInt("a"), 42);
   * assert.equal(rs.getInt("b"), 7);
   * assert.throws(() => rs.getInt("c"), ColumnTypeError);
   * ```
   */
  getInt(column: ColumnRef): number | null {
    return this.#typed(column, "int", toInt);
  }

  /**
   * Reads a cell of the current row as an exact 64-bit integer (JDBC `getLong`), a `bigint`:
   * integers beyond 2^53 in a response are kept exact, so ids and counters read back digit for
   * digit.
   *
   * @param column A label or a 1-based index.
   * @returns The integer as a bigint, or null.
   * @throws {ColumnTypeError} For a fraction or text that is no integer.
   *
   * @example
   * ```ts
   * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const rs = new ResultSet(["id", "n"], [[9007199254740993n, "18446744073709551615"]]);
   * rs.next();
   * assert.equal(rs.getLong("id"), 9007199254740993n);
   * assert.equal(rs.getLong("n"), 18446744073709551615n);
   * ```
   */
  getLong(column: ColumnRef): bigint | null {
    return this.#typed(column, "long", toLong);
  }

  /**
   * Reads a cell of the current row as a double (bigints and numeric text converted).
   *
   * @param column A label or a 1-based index.
   * @returns The number, or null.
   * @throws {ColumnTypeError} For text that is no number, or an object.
   */
  getDouble(column: ColumnRef): number | null {
    return this.#typed(column, "double", toDouble);
  }

  /**
   * Reads a cell of the current row as a date: ISO-8601 text or epoch milliseconds (epoch
   * seconds for the columns a server reports in seconds, such as `_cat/count`'s `EPOCH`).
   *
   * @param column A label or a 1-based index.
   * @returns The date, or null.
   * @throws {ColumnTypeError} For anything that is not a valid date.
   *
   * @example
   * ```ts
   * import { ResultSet } from "@searchvisitor/searchvisitor/driver";
   * import assert from "node:assert/strict";
   *
   * const rs = new ResultSet(["at", "ms"], [["2024-05-01T10:00:00Z", 0]]);
   * rs.next();
   * assert.equal(rs.getDate("at")?.toISOString(), "2024-05-01T10:00:00.000Z");
   * assert.equal(rs.getDate("ms")?.getTime(), 0);
   * ```
   */
  getDate(column: ColumnRef): Date | null {
    if (this.epochUnit(column) === "ms") return this.#typed(column, "date", toDate);
    return this.#typed(column, "date", (v) => {
      const n = typeof v === "string" && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : v;
      return toDate(typeof n === "number" || typeof n === "bigint" ? Number(n) * 1000 : v);
    });
  }

  /**
   * The unit `getDate` reads a number of this column in: epoch milliseconds, or seconds for
   * columns the server reports in seconds (`_cat`'s `EPOCH`).
   *
   * @param _column A label or a 1-based index.
   * @returns `"ms"` unless the column holds epoch seconds.
   */
  protected epochUnit(_column: ColumnRef): "s" | "ms" {
    return "ms";
  }

  #typed<T>(column: ColumnRef, expected: string, convert: (v: unknown) => T | string): T | null {
    const value = this.getObject(column);
    if (value === null || value === undefined) return null;
    const out = convert(value);
    if (typeof out === "string") {
      const label = typeof column === "number" ? this.getColumns()[column - 1] ?? "" : column;
      throw new ColumnTypeError(label, this.getRowNumber(), expected, value, out);
    }
    return out;
  }
}
