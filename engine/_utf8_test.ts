import assert from "node:assert/strict";
import { utf8Length } from "./_utf8.ts";
import { Engine } from "./engine.ts";

Deno.test("utf8Length is what TextEncoder writes, pairs and lone surrogates included", () => {
  const encoder = new TextEncoder();
  const texts = [
    "",
    "ascii only",
    "é",
    "€uro",
    "😀",
    "a😀b",
    "\ud83d", // a lone high surrogate
    "\ude00", // a lone low surrogate
    "\ude00\ud83d", // reversed pair: two lone surrogates
    "x\ud83dy",
    "\u07ff\u0800\uffff",
  ];
  for (const text of texts) {
    assert.equal(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
  }
  // Every pair of code units around the boundaries, in both orders.
  const units = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000];
  for (const a of units) {
    for (const b of units) {
      const text = String.fromCharCode(a, b);
      assert.equal(utf8Length(text), encoder.encode(text).length, `${a} ${b}`);
    }
  }
});

Deno.test("an index name is measured in UTF-8 bytes: 128 two-byte letters are 256 bytes, too long", async () => {
  const engine = new Engine();
  const ok = await engine.fetch(`http://e/${encodeURIComponent("é".repeat(127))}`, {
    method: "PUT",
  });
  assert.equal(ok.status, 200);
  const long = await engine.fetch(`http://e/${encodeURIComponent("é".repeat(128))}`, {
    method: "PUT",
  });
  assert.equal(long.status, 400);
  assert.match((await long.json()).error.reason, /index name is too long, \(256 > 255\)/);
});
