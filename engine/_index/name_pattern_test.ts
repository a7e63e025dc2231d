import assert from "node:assert/strict";
import { isPattern, matchPattern, nameMatcher } from "./name_pattern.ts";

Deno.test("a name without * matches only itself", () => {
  assert.ok(matchPattern("logs", "logs"));
  assert.ok(!matchPattern("logs", "logs2"));
  assert.ok(!isPattern("logs"));
  assert.ok(isPattern("logs-*"));
});

Deno.test("* stands for any run of characters, at either end or between parts", () => {
  const m = nameMatcher("user.*");
  assert.ok(m("user.name"));
  assert.ok(m("user."));
  assert.ok(!m("users"));
  assert.ok(nameMatcher("*")("__proto__"));
  assert.ok(matchPattern("*-2024-*", "logs-2024-01"));
  assert.ok(matchPattern("a*b*c", "abc"));
  assert.ok(matchPattern("a*b*c", "aXbYbZc"));
  assert.ok(!matchPattern("a*b*c", "acb"));
  assert.ok(matchPattern("a**b", "ab"));
});

Deno.test("the parts may not overlap: the prefix and suffix each need their own characters", () => {
  assert.ok(!matchPattern("ab*ba", "aba"));
  assert.ok(matchPattern("ab*ba", "abba"));
  assert.ok(!matchPattern("a*bc*c", "abc"));
});

Deno.test("? and other characters stand for themselves", () => {
  assert.ok(matchPattern("a?c*", "a?cd"));
  assert.ok(!matchPattern("a?c*", "abcd"));
  assert.ok(matchPattern("a.b*", "a.bc"));
  assert.ok(!matchPattern("a.b*", "axbc"));
});

Deno.test("long names are matched in linear time", () => {
  assert.equal(matchPattern("*a*a*a*a*a*a*a*a*b", "a".repeat(20_000)), false);
});
