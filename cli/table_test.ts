import assert from "node:assert/strict";
import { cellText, formatTable } from "./table.ts";

Deno.test("formatTable: natural widths when there is room; numbers (and their header) right, text left", () => {
  assert.equal(
    formatTable(["name", "n"], [["Ada", 7], ["Grace", 1234]]),
    ["| name  |    n |", "|-------|------|", "| Ada   |    7 |", "| Grace | 1234 |"].join("\n"),
  );
});

Deno.test("formatTable: every line fits the width, and no character of a folded cell is lost", () => {
  const doc = JSON.stringify({ text: "x".repeat(300), tags: ["a", "b", "c"], n: 12345 });
  for (const width of [30, 41, 80, 120]) {
    const lines = formatTable(["_ID", "_DOC"], [["id-1", doc]], { width }).split("\n");
    for (const line of lines) assert.ok(line.length <= width, `${line.length} > ${width}`);
    const folded = lines.slice(2).map((l) => l.split("|")[2]!.slice(1, -1).trimEnd()).join("");
    assert.equal(folded, doc);
  }
});

Deno.test("formatTable: too many columns for the width squeeze to the minimum, then overflow", () => {
  const columns = Array.from({ length: 12 }, (_, i) => `column_${i}`);
  const lines = formatTable(columns, [columns.map(() => "value-value")], { width: 40 }).split("\n");
  assert.equal(lines[0]!.length, 12 * 11 + 1); // 8 wide each, plus frame
});

Deno.test("formatTable: no rows still prints the header", () => {
  assert.equal(formatTable(["_ID"], []), "| _ID |\n|-----|");
});

Deno.test("cellText: control characters never break a row", () => {
  assert.equal(cellText("a\r\nb\tc"), "a\\nb c");
  assert.equal(cellText(undefined), "NULL");
  assert.equal(cellText(true), "true");
});
