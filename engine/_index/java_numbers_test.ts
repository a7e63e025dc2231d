import assert from "node:assert/strict";
import { javaDouble, javaFloat } from "./java_numbers.ts";

Deno.test("javaFloat writes floats as Java's Float.toString does", () => {
  assert.equal(javaFloat(-1), "-1.0");
  assert.equal(javaFloat(-0.1), "-0.1");
  assert.equal(javaFloat(0), "0.0");
  assert.equal(javaFloat(1.5e-7), "1.5E-7");
  assert.equal(javaFloat(12345678), "1.2345678E7");
  assert.equal(javaFloat(Number.NaN), "NaN");
});

Deno.test("javaDouble writes doubles as Java's Double.toString does", () => {
  assert.equal(javaDouble(-0), "-0.0");
  assert.equal(javaDouble(52.37), "52.37");
  assert.equal(javaDouble(1e7), "1.0E7");
  assert.equal(javaDouble(123e-9), "1.23E-7");
  assert.equal(javaDouble(-Infinity), "-Infinity");
});
