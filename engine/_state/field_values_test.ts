import assert from "node:assert/strict";
import { checkValue, plainIsoMillis } from "./field_values.ts";

Deno.test("the plain ISO form is taken only where Date.parse takes it", () => {
  assert.equal(plainIsoMillis("2024-05-01T10:20:30.456Z"), true);
  for (
    const text of [
      "2024-13-01T00:00:00.000Z",
      "2024-00-01T00:00:00.000Z",
      "2024-01-32T00:00:00.000Z",
      "2024-01-00T00:00:00.000Z",
      "2024-01-01T24:00:00.000Z",
      "2024-01-01T23:60:00.000Z",
      "2024-01-01T23:59:60.000Z",
      "2024-01-01T23:59:59.000+",
      "2024-01-01 23:59:59.000Z",
      "2024-01-01T23:59:59.00Z",
      "2O24-01-01T23:59:59.000Z",
    ]
  ) assert.equal(plainIsoMillis(text), false, text);
  // Random texts of the shape, each part anywhere in 00–99: never taken where Date.parse fails,
  // and checkValue's answer is the one Date.parse gives.
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const two = () => String(next(100)).padStart(2, "0");
  let taken = 0;
  for (let i = 0; i < 20_000; i++) {
    const text = `${
      String(next(10000)).padStart(4, "0")
    }-${two()}-${two()}T${two()}:${two()}:${two()}.${String(next(1000)).padStart(3, "0")}Z`;
    const parses = !Number.isNaN(Date.parse(text));
    if (plainIsoMillis(text)) {
      taken++;
      assert.ok(parses, text);
    }
    assert.equal(checkValue("date", text) === undefined, parses, text);
  }
  assert.ok(taken > 20, `${taken} taken`);
});
