import assert from "node:assert/strict";
import { dropDanglingCommas, splitOverrides, stripOverrides } from "./_json_members.ts";

Deno.test("dropDanglingCommas: leading, trailing, doubled and before-close commas go; white space stays", () => {
  const cases: [string, string][] = [
    [",a", "a"],
    ["a,", "a"],
    [" , a , , b , ", "  a ,  b  "],
    ["[,1,,2,]", "[1,2]"],
    ['{"a": 1, }', '{"a": 1 }'],
    ["{ , }", "{  }"],
    [",,,", ""],
    ["a", "a"],
  ];
  for (const [input, expected] of cases) assert.equal(dropDanglingCommas(input), expected, input);
});

Deno.test("dropDanglingCommas: strings, comments and placeholders are opaque", () => {
  const cases: [string, string][] = [
    ['",", ","', '",", ","'],
    ['"a\\",", ', '"a\\"," '],
    ['""",,""",', '""",,"""'],
    ["#{a, b},", "#{a, b}"],
    ['@{and, {"x": [1, ,2]}},', '@{and, {"x": [1, ,2]}}'],
    ["${a,b},", "${a,b}"],
    ["1, // c, ,\n2,", "1, // c, ,\n2"],
    ["1, /* , */ ,2", "1, /* , */ 2"],
    ["1, # c ,\n,2", "1, # c ,\n2"],
  ];
  for (const [input, expected] of cases) assert.equal(dropDanglingCommas(input), expected, input);
});

Deno.test("stripOverrides: every override at both ends, repeatedly, any case", () => {
  const comma = splitOverrides(",");
  assert.equal(stripOverrides("  , , a, b ,  ,", comma, comma), "a, b");
  assert.equal(stripOverrides("AND or a = 1", splitOverrides("and |or "), []), "a = 1");
  assert.equal(stripOverrides("a,", [], []), "a,");
  assert.equal(stripOverrides(" , ", comma, comma), "");
  assert.deepEqual(splitOverrides("AND |OR |").map((o) => o.text), ["AND ", "OR "]);
  assert.deepEqual(splitOverrides(undefined), []);
});
