import assert from "node:assert/strict";
import { wildcardAutomaton, wildcardPrefix } from "../_index/automaton.ts";

Deno.test("wildcard patterns: * and ? are wildcards, a backslash makes the next character literal", () => {
  const re = wildcardAutomaton("a\\*b?c*", false);
  assert.equal(wildcardPrefix("a\\*b?c*"), "a*b");
  assert.ok(re.test("a*bXc") && re.test("a*bxcanything"));
  assert.ok(!re.test("aZbXc"), "an escaped * is not a wildcard");
  assert.ok(
    wildcardAutomaton("\\?", false).test("?") && !wildcardAutomaton("\\?", false).test("x"),
  );
  assert.ok(wildcardAutomaton("x\\\\y", false).test("x\\y"));
  assert.ok(
    wildcardAutomaton("(a.b)[c]", false).test("(a.b)[c]") &&
      !wildcardAutomaton("a.b", false).test("axb"),
  );
  assert.ok(wildcardAutomaton("A*", true).test("abc"));
});
