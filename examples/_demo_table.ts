// The demo's tables: the console's table printer (cli/table.ts), with long values cut to a width so
// that every row of the tour stays on one line, and an indent.
import { cellText, formatTable as consoleTable } from "../cli/mod.ts";

/** Formats rows as a text table; `columns` picks and orders the columns (default: all keys). */
export function formatTable(
  rows: readonly Record<string, unknown>[],
  columns: readonly string[] = [...new Set(rows.flatMap((r) => Object.keys(r)))],
  maxWidth = 28,
): string {
  if (rows.length === 0) return "  (no rows)";
  const cut = (v: unknown): unknown => {
    if (typeof v === "number") return v;
    if (v === null || v === undefined) return "";
    const text = cellText(v);
    return text.length > maxWidth ? text.slice(0, maxWidth - 1) + "…" : text;
  };
  const table = consoleTable(columns, rows.map((r) => columns.map((c) => cut(r[c]))));
  return table.split("\n").map((line) => "  " + line).join("\n");
}
