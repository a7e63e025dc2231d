import assert from "node:assert/strict";
import { parseCondition } from "./condition.ts";
import { ConditionError } from "./errors.ts";

// The language itself is tested beside it, in driver/expression; here: its errors in a file.

Deno.test("test language: syntax errors point at the column inside the expression", () => {
  const cases: [string, number, RegExp][] = [
    ["", 0, /empty/],
    ["a ==", 4, /ends early/],
    ["a = 1", 2, /use == to compare/],
    ["a & b", 2, /use &&/],
    ["(a == 1", 7, /expected \)/],
    ["a b", 2, /two values in a row/],
    ["'open", 0, /not closed/],
    ["'\\q'", 1, /unknown escape/],
    ["a.constructor", 2, /"constructor" is not reachable/],
    ["__proto__", 0, /not reachable/],
    ["a.prototype.x", 2, /not reachable/],
    ["a.toString()", 2, /only \.size\(\), \.length\(\) and \.isEmpty\(\)/],
    ["a.size(1)", 7, /takes no arguments/],
    ["[1, 2", 5, /expected , or \]/],
    ["a.", 2, /property name/],
    ["a == == b", 5, /unexpected "=="/],
    ["1 in", 4, /ends early/],
    ["a ; b", 2, /unexpected character ";"/],
  ];
  for (const [source, offset, message] of cases) {
    assert.throws(
      () => parseCondition(source),
      (e: unknown) =>
        e instanceof ConditionError && e instanceof SyntaxError &&
        e.code === "CONDITION" &&
        e.offset === offset && e.column === offset + 1 && message.test(e.message),
      `${source} → ${offset}`,
    );
  }
});

Deno.test("test language: file positions come from the caller's mapping", () => {
  assert.throws(
    () =>
      parseCondition("a ==", {
        position: (offset) => ({ file: "m.xml", line: 7, column: 20 + offset }),
      }),
    (e: unknown) =>
      e instanceof ConditionError && e.file === "m.xml" && e.line === 7 && e.column === 24 &&
      e.offset === 4,
  );
});
