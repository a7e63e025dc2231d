import assert from "node:assert/strict";
import { luceneWildcard } from "./term_queries.ts";

Deno.test("luceneWildcard: * and ? are wildcards, a backslash makes the next character literal", () => {
  const { re, literal } = luceneWildcard("a\\*b?c*");
  assert.equal(literal, "a*b");
  assert.ok(re.test("a*bXc") && re.test("a*bxcanything"));
  assert.ok(!re.test("aZbXc"), "an escaped * is not a wildcard");
  assert.ok(luceneWildcard("\\?").re.test("?") && !luceneWildcard("\\?").re.test("x"));
  assert.ok(luceneWildcard("x\\\\y").re.test("x\\y"));
  assert.ok(
    luceneWildcard("(a.b)[c]").re.test("(a.b)[c]") && !luceneWildcard("a.b").re.test("axb"),
  );
  assert.ok(luceneWildcard("A*", "i").re.test("abc"));
});
