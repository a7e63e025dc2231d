/**
 * Aligned text tables that fit a width: numbers right-aligned, `null` shown as `NULL`, and cells
 * too wide for their share of the width (a long `_DOC`) folded over several lines instead of cut.
 *
 * @module
 */

/** How {@linkcode formatTable} lays a table out. */
export interface TableOptions {
  /** The width to fit, in characters (the terminal's columns); 0 or absent = no limit. */
  width?: number;
  /** The narrowest a column is squeezed to before the table is allowed to overflow (default 8). */
  minColumnWidth?: number;
}

/**
 * Turns a cell value into its one-line text: strings as they are, objects as compact JSON,
 * `null`/`undefined` as `NULL`.
 *
 * @param value The cell.
 * @returns Its text.
 *
 * @example
 * ```ts
 * import { cellText } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * assert.equal(cellText(null), "NULL");
 * assert.equal(cellText({ a: [1, 2] }), '{"a":[1,2]}');
 * assert.equal(cellText("two\nlines"), "two\\nlines");
 * ```
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/\r?\n/g, "\\n").replace(/\t/g, " ");
}

/** Cuts text into pieces of at most `width` characters, preferring to break after `,` or space. */
function fold(text: string, width: number): string[] {
  const chars = [...text];
  if (chars.length <= width) return [text];
  const lines: string[] = [];
  let start = 0;
  while (chars.length - start > width) {
    let end = start + width;
    for (let k = end; k > start + Math.floor(width / 2); k--) {
      const c = chars[k - 1];
      if (c === "," || c === " ") {
        end = k;
        break;
      }
    }
    lines.push(chars.slice(start, end).join(""));
    start = end;
  }
  lines.push(chars.slice(start).join(""));
  return lines;
}

function length(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Narrows the widest columns until the table (with its ` | ` separators) fits `width`.
 *
 * @param natural Each column's natural width.
 * @param width The width to fit.
 * @param min The narrowest a column may become.
 * @returns The width of each column.
 */
function fit(natural: readonly number[], width: number, min: number): number[] {
  const widths = [...natural];
  const frame = 3 * widths.length + 1;
  let excess = widths.reduce((a, b) => a + b, frame) - width;
  while (excess > 0) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= min) break;
    // Take from the widest column, down to the second widest or as much as needed.
    const second = Math.max(min, ...widths.filter((_, i) => i !== widest));
    const take = Math.max(1, Math.min(excess, widths[widest]! - second));
    widths[widest] = Math.max(min, widths[widest]! - take);
    excess -= take;
  }
  return widths;
}

/**
 * One record per block, `column | value` lines, for tables too wide for the terminal even with
 * every column squeezed (psql's expanded display).
 */
function expanded(columns: readonly string[], rows: readonly string[][], width: number): string {
  const label = Math.max(...columns.map(length));
  const room = Math.max(10, width - label - 3);
  const out: string[] = [];
  rows.forEach((row, r) => {
    const title = `-[ RECORD ${r + 1} ]`;
    out.push(title + "-".repeat(Math.max(0, Math.min(width, label + 3 + room) - title.length)));
    columns.forEach((c, i) => {
      fold(row[i]!, room).forEach((piece, k) => {
        out.push(`${(k === 0 ? c : "").padEnd(label)} | ${piece}`);
      });
    });
  });
  return out.join("\n");
}

/**
 * Formats rows as an aligned table that fits `options.width`: a header, a rule, and each row,
 * long cells (and headers) folded onto continuation lines. When even the narrowest columns
 * cannot fit, each row is shown as a record of `column | value` lines instead.
 *
 * @param columns The column labels, in order.
 * @param rows The rows, one cell per column.
 * @param options The width to fit.
 * @returns The table's lines, joined with `\n` (no trailing newline).
 *
 * @example A long document folds to fit 40 columns
 * ```ts
 * import { formatTable } from "@searchvisitor/searchvisitor/cli";
 * import assert from "node:assert/strict";
 *
 * const doc = JSON.stringify({ name: "Ada Lovelace", born: 1815, field: "mathematics" });
 * const table = formatTable(["_ID", "_DOC"], [["1", doc], ["22", null]], { width: 40 });
 * assert.equal(table, [
 *   "| _ID | _DOC                           |",
 *   "|-----|--------------------------------|",
 *   '| 1   | {"name":"Ada Lovelace",        |',
 *   '|     | "born":1815,"field":"mathemati |',
 *   '|     | cs"}                           |',
 *   "| 22  | NULL                           |",
 * ].join("\n"));
 * ```
 */
export function formatTable(
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  options: TableOptions = {},
): string {
  const texts = rows.map((row) => columns.map((_, i) => cellText(row[i])));
  const natural = columns.map((c, i) => Math.max(length(c), ...texts.map((r) => length(r[i]!))));
  const numeric = columns.map((_, i) =>
    rows.length > 0 &&
    rows.every((r) => r[i] === null || r[i] === undefined || typeof r[i] === "number")
  );
  const limit = options.width && options.width > 0 ? options.width : Infinity;
  const min = options.minColumnWidth ?? 8;
  const narrowest = natural.reduce((sum, w) => sum + Math.min(w, min), 3 * columns.length + 1);
  if (narrowest > limit) return expanded(columns, texts, limit);
  const widths = fit(natural, limit, min);
  const pad = (text: string, i: number) => {
    const gap = " ".repeat(Math.max(0, widths[i]! - length(text)));
    return numeric[i] ? gap + text : text + gap;
  };
  const line = (cells: readonly string[]) => `| ${cells.map(pad).join(" | ")} |`;
  const block = (cells: readonly string[]) => {
    const pieces = cells.map((text, i) => fold(text, widths[i]!));
    const height = Math.max(...pieces.map((p) => p.length));
    for (let k = 0; k < height; k++) out.push(line(pieces.map((p) => p[k] ?? "")));
  };
  const out: string[] = [];
  block(columns);
  out.push(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of texts) block(row);
  return out.join("\n");
}
