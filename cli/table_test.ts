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

Deno.test("formatTable: no rows still prints the header", () => {
  assert.equal(formatTable(["_ID"], []), "| _ID |\n|-----|");
});

Deno.test("cellText: control characters never break a row", () => {
  assert.equal(cellText("a\r\nb\tc"), "a\\nb c");
  assert.equal(cellText(undefined), "NULL");
  assert.equal(cellText(true), "true");
});

Deno.test("formatTable: too wide even when squeezed, rows become records of column | value", () => {
  const columns = ["INDEX", "HEALTH", "STATUS", "UUID", "PRI", "PRI.STORE.SIZE", "DOCS.COUNT"];
  const row = ["people", "yellow", "open", "QZZDjqsb-O4W2I_ChD6niQ", "1", "10.5mb", 100000];
  const text = formatTable(columns, [row, row], { width: 40 });
  const lines = text.split("\n");
  assert.equal(lines[0], "-[ RECORD 1 ]---------------------------");
  assert.equal(lines[1], "INDEX          | people");
  assert.equal(lines[4], "UUID           | QZZDjqsb-O4W2I_ChD6niQ");
  assert.equal(lines[7], "DOCS.COUNT     | 100000");
  assert.equal(lines[8], "-[ RECORD 2 ]---------------------------");
  for (const line of lines) assert.ok(line.length <= 40, line);
});

Deno.test("formatTable: a header wider than its column folds too (nothing is cut)", () => {
  const text = formatTable(["_ID", "A_VERY_LONG_COLUMN_NAME"], [["1", "x".repeat(50)]], {
    width: 30,
  });
  const header = text.split("\n").slice(0, 2).map((l) => l.split("|")[2]!.trim()).join("");
  assert.equal(header, "A_VERY_LONG_COLUMN_NAME");
});
