// A tiny text-table printer for the demo: fixed columns, values cut to a width, numbers right-aligned.

/** Formats rows as a text table; `columns` picks and orders the columns (default: all keys). */
export function formatTable(
  rows: readonly Record<string, unknown>[],
  columns: readonly string[] = [...new Set(rows.flatMap((r) => Object.keys(r)))],
  maxWidth = 28,
): string {
  if (rows.length === 0) return "  (no rows)";
  const cell = (v: unknown): string => {
    const text = v === null || v === undefined
      ? ""
      : typeof v === "object"
      ? JSON.stringify(v)
      : String(v);
    return text.length > maxWidth ? text.slice(0, maxWidth - 1) + "…" : text;
  };
  const cells = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const numeric = columns.map((_, i) =>
    cells.every((row) => row[i] === "" || /^-?[\d.]+$/.test(row[i]!))
  );
  const line = (values: string[]) =>
    "  | " +
    values.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join(" | ") +
    " |";
  const rule = "  |" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|";
  return [line([...columns]), rule, ...cells.map(line)].join("\n");
}
