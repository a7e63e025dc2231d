import assert from "node:assert/strict";
import { decodeNorm, encodeNorm } from "./norms.ts";

Deno.test("short field lengths are encoded exactly", () => {
  for (let i = 0; i < 24; i++) assert.equal(decodeNorm(encodeNorm(i)), i);
});

Deno.test("long field lengths are rounded down and monotonic", () => {
  assert.equal(decodeNorm(encodeNorm(100)), 96);
  let last = 0;
  for (let i = 0; i < 5000; i += 7) {
    const d = decodeNorm(encodeNorm(i));
    assert.ok(d <= i && d >= last);
    last = d;
  }
});
