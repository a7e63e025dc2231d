import assert from "node:assert/strict";
import { utf8Length } from "./_utf8.ts";

Deno.test("utf8Length is what TextEncoder writes, lone surrogates included", () => {
  const encoder = new TextEncoder();
  const texts = [
    "",
    "abc",
    "é",
    "€",
    "😀",
    "a😀b",
    "\ud83d", // a lone high surrogate at the end
    "\ud83dx", // a lone high surrogate before ASCII
    "\ud83d\ud83d\ude00", // a lone high surrogate, then a pair
    "\ude00", // a lone low surrogate
    "\ude00\ud83d", // low then high: two lone surrogates
    "x\udfff€\ud800",
  ];
  for (const text of texts) {
    assert.equal(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
  }
  // Every pair of code units around the surrogate range.
  const units = [0x41, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xffff];
  for (const a of units) {
    for (const b of units) {
      const text = String.fromCharCode(a, b);
      assert.equal(utf8Length(text), encoder.encode(text).length, `${a} ${b}`);
    }
  }
});
