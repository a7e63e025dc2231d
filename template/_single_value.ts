// Reading one number from a result set: the COUNT column, or the only column of the only row.

import { DataAccessError, IncorrectResultSizeError, type ResultSet } from "../driver/mod.ts";

/** The single numeric value of a result set (null for no row); errors name the command. */
export function singleValue(rs: ResultSet, text: string): number | bigint | string | null {
  if (rs.rowCount > 1) throw new IncorrectResultSizeError(1, rs.rowCount, { command: text });
  if (!rs.next()) return null;
  const columns = rs.getColumns();
  const column = columns.includes("COUNT")
    ? "COUNT"
    : columns.length === 1
    ? columns[0]
    : undefined;
  if (column === undefined) {
    throw new DataAccessError(
      "MAPPING",
      `Expected one numeric column, got ${
        columns.join(", ")
      }; use _count, queryForList or a RowMapper: ${text}`,
      { command: text },
    );
  }
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
