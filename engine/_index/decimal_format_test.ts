import assert from "node:assert/strict";
import { decimalFormat } from "./decimal_format.ts";

Deno.test("decimalFormat: digits, fractions, grouping and literal text as DecimalFormat writes them", () => {
  assert.equal(decimalFormat(50, "Value is ##0.0"), "Value is 50.0");
  assert.equal(decimalFormat(0, "Value is ##0.0"), "Value is 0.0");
  assert.equal(decimalFormat(1234.5, "#,##0.00"), "1,234.50");
  assert.equal(decimalFormat(1234567, "#,###"), "1,234,567");
  assert.equal(decimalFormat(3.14159, "0.###"), "3.142");
  assert.equal(decimalFormat(3, "0.###"), "3");
  assert.equal(decimalFormat(0.5, "#.#"), ".5");
  assert.equal(decimalFormat(7, "000"), "007");
  assert.equal(decimalFormat(-2.5, "0.0"), "-2.5");
  assert.equal(decimalFormat(0.25, "#%"), "25%");
  assert.equal(decimalFormat(5, "'#'0"), "#5");
});

Deno.test("decimalFormat: exponents, NaN and infinities", () => {
  assert.equal(decimalFormat(12345, "0.00E0"), "1.23E4");
  assert.equal(decimalFormat(0.00012, "0.0E00"), "1.2E-04");
  assert.equal(decimalFormat(NaN, "0.0"), "NaN");
  assert.equal(decimalFormat(-Infinity, "0.0"), "-∞");
});
