import assert from "node:assert/strict";
import { parseExactJson, replaceUnsafeIntegers } from "./exact_json.ts";

for (const tagged of [false, true]) {
  const parse = (text: string) => parseExactJson(text, tagged);
  const how = tagged ? "tagging parser" : "reviver source";

  Deno.test(`parseExactJson (${how}): integer literals beyond 2^53 become exact bigints, nothing else changes`, () => {
    assert.deepEqual(
      parse(
        '{"a": 9007199254740993, "b": [-9223372036854775808, 18446744073709551615], "c": 9007199254740991}',
      ),
      {
        a: 9007199254740993n,
        b: [-9223372036854775808n, 18446744073709551615n],
        c: 9007199254740991,
      },
    );
    // Sixteen-digit literals that are safe, fractions, exponents and strings stay as JSON.parse reads them.
    const text =
      '{"safe": 1000000000000000, "f": 12345678901234567.5, "e": 12345678901234567e2, "s": "9007199254740993", "k\\"9007199254740993": 1}';
    assert.deepEqual(parse(text), JSON.parse(text));
    assert.deepEqual(parse('"a \\" 90071992547409930"'), 'a " 90071992547409930');
    assert.deepEqual(parse("[1, 2.5]"), [1, 2.5]);
  });

  Deno.test(`parseExactJson (${how}): invalid text fails with JSON.parse's own error for that text`, () => {
    for (const bad of ['{"a": 9007199254740993,}', '{"a": 9007199254740993', "[1,]"]) {
      let expected = "";
      try {
        JSON.parse(bad);
      } catch (e) {
        expected = (e as Error).message;
      }
      assert.throws(() => parse(bad), (e: Error) => e.message === expected);
    }
  });
}

Deno.test("replaceUnsafeIntegers rewrites only unsafe integer literals outside strings", () => {
  const seen: string[] = [];
  const out = replaceUnsafeIntegers(
    '{"x": 9223372036854776000, "y": "9223372036854776000", "z": 42, "w": 1.5e300}',
    (literal) => {
      seen.push(literal);
      return "0";
    },
  );
  assert.deepEqual(seen, ["9223372036854776000"]);
  assert.equal(out, '{"x": 0, "y": "9223372036854776000", "z": 42, "w": 1.5e300}');
  const plain = '{"n": 1}';
  assert.equal(replaceUnsafeIntegers(plain, () => "x"), plain);
});
