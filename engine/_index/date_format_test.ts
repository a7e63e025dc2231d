import assert from "node:assert/strict";
import { formatWithPattern, parseWithPattern } from "./date_format.ts";
import { formatDateAt } from "./dates.ts";

Deno.test("date patterns: any count of y but two is the full year, padded to the count", () => {
  const ms = Date.UTC(2026, 0, 5);
  assert.equal(formatWithPattern(ms, "MM-yyy"), "01-2026");
  assert.equal(formatWithPattern(ms, "y/M/d"), "2026/1/5");
  assert.equal(formatWithPattern(ms, "yy"), "26");
  assert.equal(parseWithPattern("01-2026", "MM-yyy"), Date.UTC(2026, 0, 1));
  assert.equal(parseWithPattern("2026/1/5", "y/M/d"), ms);
});

Deno.test("date patterns: built-in names are not patterns; a field named twice parses nothing", () => {
  assert.ok(Number.isNaN(parseWithPattern("2020-01-01", "year_month_day")));
  assert.ok(Number.isNaN(parseWithPattern("2020 2020", "yyyy y")));
});

Deno.test("date patterns: iso8601 is a built-in name, written as ISO text", () => {
  assert.equal(
    formatDateAt(Date.UTC(2017, 9, 19, 4), { format: "iso8601" }),
    "2017-10-19T04:00:00.000Z",
  );
});
