import assert from "node:assert/strict";
import { analyzerFor, keywordAnalyzer, standardAnalyzer, streamStandardAscii } from "./analysis.ts";

Deno.test("standard analyzer lower-cases and splits on word boundaries", () => {
  const tokens = standardAnalyzer("The Quick-Brown fox, jumps! 42 times.");
  assert.deepEqual(tokens.map((t) => t.term), [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "42",
    "times",
  ]);
  assert.deepEqual(tokens.map((t) => t.position), [0, 1, 2, 3, 4, 5, 6]);
});

Deno.test("standard analyzer keeps unicode words", () => {
  assert.deepEqual(standardAnalyzer("Élan vital über").map((t) => t.term), [
    "élan",
    "vital",
    "über",
  ]);
});

Deno.test("standard analyzer splits tokens longer than 255 chars", () => {
  const tokens = standardAnalyzer("a".repeat(300));
  assert.deepEqual(tokens.map((t) => t.term.length), [255, 45]);
});

Deno.test("keyword analyzer keeps the whole value", () => {
  assert.deepEqual(keywordAnalyzer("New York"), [{ term: "New York", position: 0 }]);
});

Deno.test("analyzerFor knows whitespace and simple and falls back to standard", () => {
  assert.deepEqual(analyzerFor("whitespace")("A b").map((t) => t.term), ["A", "b"]);
  assert.deepEqual(analyzerFor("simple")("A1b").map((t) => t.term), ["a", "b"]);
  assert.deepEqual(analyzerFor("nope")("A b").map((t) => t.term), ["a", "b"]);
});

Deno.test("standard analyzer joins letters across . ' : and digits across . , like UAX#29", () => {
  assert.deepEqual(
    standardAnalyzer("U.S.A. don't foo_bar 3.14 1,000 a-b http://x.org").map((t) => t.term),
    [
      "u.s.a",
      "don't",
      "foo_bar",
      "3.14",
      "1,000",
      "a",
      "b",
      "http",
      "x.org",
    ],
  );
  assert.deepEqual(standardAnalyzer("_ __a").map((t) => t.term), ["__a"]);
});

Deno.test("streamStandardAscii gives the standard analyzer's tokens as spans, -1 beyond ASCII", () => {
  const got: Array<[string, number, number]> = [];
  const sink = {
    doc: 7,
    addLowerAscii(text: string, from: number, to: number, position: number) {
      got.push([text.slice(from, to).toLowerCase(), this.doc, position]);
    },
  };
  const text = "Hello, World's 3.14 __ a_b " + "x".repeat(300) + " end";
  assert.equal(streamStandardAscii(text, sink, 100), 7);
  assert.deepEqual(
    got,
    standardAnalyzer(text).map((t) => [t.term, 7, 100 + t.position]),
  );
  // A word over 255 chars splits into consecutive positions.
  assert.deepEqual(got.slice(4).map(([term, , p]) => [term.length, p]), [[255, 104], [45, 105], [
    3,
    106,
  ]]);
  assert.equal(streamStandardAscii("café", sink, 0), -1);
});
