import assert from "node:assert/strict";
import { halfFloat, precisionOf } from "./number_precision.ts";

Deno.test("halfFloat rounds like IEEE binary16", () => {
  assert.equal(halfFloat(184.4), 184.375);
  assert.equal(halfFloat(164.4), 164.375);
  assert.equal(halfFloat(1), 1);
  assert.equal(halfFloat(70000), Infinity);
});

Deno.test("precisionOf picks the rounding for a type", () => {
  assert.equal(precisionOf("float", undefined)!(0.1), Math.fround(0.1));
  assert.equal(precisionOf("scaled_float", 100)!(1.234), 1.23);
  assert.equal(precisionOf("long", undefined), null);
});
