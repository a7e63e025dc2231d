import assert from "node:assert/strict";
import { dropDanglingCommas } from "./dangling_commas.ts";

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

Deno.test("dropDanglingCommas: the template's vanished members (path commas and strings stay)", () => {
  assert.equal(dropDanglingCommas("[ , 1, , 2, ]"), "[  1,  2 ]");
  assert.equal(dropDanglingCommas('{"a": ",", , }'), '{"a": ","  }');
  assert.equal(dropDanglingCommas("GET /a,b/_search {, }"), "GET /a,b/_search { }");
  assert.equal(dropDanglingCommas('PUT /a/_doc/{?} {"x": ?, }\n'), 'PUT /a/_doc/{?} {"x": ? }\n');
});
