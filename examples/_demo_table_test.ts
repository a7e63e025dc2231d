import assert from "node:assert/strict";
import { formatTable } from "./_demo_table.ts";

Deno.test("formatTable aligns columns, right-aligns numbers and cuts long values", () => {
  const text = formatTable(
    [{ name: "Oslo", n: 1 }, { name: "A very long city name indeed", n: 123 }],
    ["name", "n"],
    10,
  );
  assert.equal(
    text,
    [
      "  | name       |   n |",
      "  |------------|-----|",
      "  | Oslo       |   1 |",
      "  | A very lo… | 123 |",
    ].join("\n"),
  );
  assert.equal(formatTable([]), "  (no rows)");
});
