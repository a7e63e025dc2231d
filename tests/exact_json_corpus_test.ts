import assert from "node:assert/strict";
import {
  BAD_JSON_CORPUS,
  driverParse,
  engineParse,
  EXACT_JSON_CORPUS,
  parseWithFallback,
} from "./support/exact_json_corpus.ts";

/** JSON-like rendering that tells a bigint from a number and keeps own __proto__ keys. */
function show(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return `[${value.map(show).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${
      Object.keys(value).map((k) =>
        `${JSON.stringify(k)}:${show((value as Record<string, unknown>)[k])}`
      ).join(",")
    }}`;
  }
  return Object.is(value, -0) ? "-0" : JSON.stringify(value);
}

Deno.test("the driver's and the engine's exact-integer parsers read the shared corpus alike", () => {
  for (const text of EXACT_JSON_CORPUS) {
    const want = show(driverParse(text));
    assert.equal(show(parseWithFallback(text)), want, `driver fallback: ${text}`);
    assert.equal(show(engineParse(text)), want, `engine: ${text}`);
    assert.equal(show(engineParse(text, true)), want, `engine tagged: ${text}`);
  }
  // The corpus does reach past 2^53: some values are bigints, and the same as BigInt reads.
  assert.equal(driverParse("9223372036854775807"), 9223372036854775807n);
  assert.equal(typeof driverParse("9007199254740991"), "number");
});

Deno.test("both parsers refuse the same malformed texts with a SyntaxError", () => {
  for (const text of BAD_JSON_CORPUS) {
    for (
      const parse of [
        driverParse,
        parseWithFallback,
        engineParse,
        (t: string) => engineParse(t, true),
      ]
    ) {
      assert.throws(() => parse(text), SyntaxError, text);
    }
  }
});
