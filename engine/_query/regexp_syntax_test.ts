import assert from "node:assert/strict";
import { wildcardAutomaton, wildcardPrefix } from "../_index/automaton.ts";
import { compileRegexp, parseRegexpFlags } from "./regexp_syntax.ts";

const re = (p: string, flags?: string) => compileRegexp(p, { flags: parseRegexpFlags(flags) });

Deno.test("regexp: Lucene operators, anchored", () => {
  assert.ok(re("ab.*").test("abcde"));
  assert.ok(!re("abcd").test("abcde"));
  assert.ok(re("abc?").test("ab"));
  assert.ok(re("ab+").test("abbb"));
  assert.ok(!re("ab+").test("a"));
  assert.ok(re("a{2,3}").test("aaa"));
  assert.ok(!re("a{2,3}").test("aaaa"));
  assert.ok(re("a{2,}").test("aaaaa"));
  assert.ok(re("(abc|xyz)").test("xyz"));
  assert.ok(re("[a-c]x").test("bx"));
  assert.ok(!re("[^a-c]x").test("bx"));
  assert.ok(re('"a.b"').test("a.b"));
  assert.ok(!re('"a.b"').test("axb"));
  assert.ok(re("a\\.b").test("a.b"));
  assert.ok(re("\\d+").test("2024"));
  assert.ok(re("^x$").test("^x$"), "^ and $ are plain characters");
});

Deno.test("regexp: optional operators follow the flags", () => {
  assert.ok(re("aaa.+&.+bbb").test("aaabbb"));
  assert.ok(!re("aaa.+&.+bbb").test("aaabb"));
  assert.ok(re("a~bc").test("adc"));
  assert.ok(!re("a~bc").test("abc"));
  assert.ok(re("@&~(abc.+)").test("xyz"));
  assert.ok(!re("@&~(abc.+)").test("abcd"));
  assert.ok(re("foo<1-100>").test("foo42"));
  assert.ok(!re("foo<1-100>").test("foo101"));
  assert.ok(re("foo<01-100>").test("foo007"), "widths differ: any leading zeros");
  assert.ok(re("foo<001-100>").test("foo007"));
  assert.ok(!re("foo<001-100>").test("foo07"), "same width: fixed digits");
  assert.ok(re("a@", "NONE").test("a@"), "without ANYSTRING, @ is literal");
  assert.throws(() => parseRegexpFlags("BOGUS"), /Unknown regexp flag \[BOGUS\]/);
});

Deno.test("regexp: syntax errors are 400s", () => {
  for (const bad of ["(ab", "[ab", "a{2", "*a", "a{3,1}", "a)"]) {
    assert.throws(() => re(bad), (e: { status?: number }) => e.status === 400, bad);
  }
});

Deno.test("regexp: catastrophic patterns run in linear time", () => {
  const long = "a".repeat(50_000);
  assert.equal(re("(a+)+b").test(long), false);
  assert.equal(re("(a|aa)*c").test(long), false);
  assert.equal(re("(.*a){12}").test(long + "b"), false);
  assert.equal(re("(a*)*").test(long), true);
});

Deno.test("regexp: an exploding automaton is refused up front with a 400", () => {
  const tooComplex = (e: { status?: number; type?: string }) =>
    e.status === 400 && e.type === "too_complex_to_determinize_exception";
  assert.throws(() => compileRegexp("(.*a.{30})"), tooComplex);
  assert.throws(() => compileRegexp("[ab]*a[ab]{8}", { maxDeterminizedStates: 100 }), tooComplex);
  assert.ok(compileRegexp("[ab]*a[ab]{8}").test("ba" + "b".repeat(8)));
});

Deno.test("wildcard: \\ makes the next character literal", () => {
  assert.ok(wildcardAutomaton("a\\*b").test("a*b"));
  assert.ok(!wildcardAutomaton("a\\*b").test("axb"));
  assert.ok(wildcardAutomaton("a*b").test("axxb"));
  assert.ok(wildcardAutomaton("a?c").test("abc"));
  assert.ok(wildcardAutomaton("a\\?c").test("a?c"));
  assert.ok(!wildcardAutomaton("a\\?c").test("abc"));
  assert.ok(wildcardAutomaton("A*", true).test("abc"));
  assert.equal(wildcardPrefix("a\\*b*"), "a*b");
  assert.equal(wildcardPrefix("ab?c"), "ab");
  assert.equal(wildcardAutomaton("*a*a*a*a*a*a*a*a*b").test("a".repeat(20_000)), false);
});
