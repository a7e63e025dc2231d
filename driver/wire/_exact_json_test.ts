import assert from "node:assert/strict";
import { hasLongDigits, parseExactJson, parseWithFallback } from "./_exact_json.ts";
import { prng } from "../../tests/support/prng.ts";

const TEXT =
  '{"id": 9007199254740993, "neg": -12345678901234567890, "safe": 9007199254740991, "f": 1.5e300, ' +
  '"s": "12345678901234567890", "a": [18446744073709551615, 0.1, true, null, {"x": "\\"\\u00e9"}]}';

Deno.test("integers beyond 2^53 become exact bigints; everything else is JSON.parse's value", () => {
  for (const parse of [parseExactJson, parseWithFallback]) {
    const v = parse(TEXT) as Record<string, unknown>;
    assert.equal(v.id, 9007199254740993n);
    assert.equal(v.neg, -12345678901234567890n);
    assert.equal(v.safe, 9007199254740991);
    assert.equal(v.f, 1.5e300);
    assert.equal(v.s, "12345678901234567890");
    assert.deepEqual(v.a, [18446744073709551615n, 0.1, true, null, { x: '"é' }]);
  }
});

Deno.test("the fallback parser agrees with JSON.parse on texts without big integers", () => {
  const samples = [
    "[]",
    "{}",
    ' { "a" : [ 1 , -0.5e-3 , "x\\ny" ] , "__proto__": {"b": false} } ',
    '"\\ud83d\\ude00"',
    "0",
  ];
  for (const text of samples) assert.deepEqual(parseWithFallback(text), JSON.parse(text), text);
  const protoKey = parseWithFallback('{"__proto__": 1}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(protoKey), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(protoKey, "__proto__")?.value, 1);
});

Deno.test("malformed JSON is a SyntaxError on both paths", () => {
  for (const text of ['{"a": 12345678901234567890,}', "[12345678901234567890", '{"a" 1}', "tru"]) {
    assert.throws(() => parseExactJson(text), SyntaxError, text);
    assert.throws(() => parseWithFallback(text), SyntaxError, text);
  }
});

Deno.test("hasLongDigits answers as /\\d{16}/ does, on every digit-run length and position", () => {
  const random = prng(18);
  const alphabet = '0123456789012345678901234567890123456789x"-.e ';
  let longs = 0;
  for (let round = 0; round < 20_000; round++) {
    const length = Math.floor(random() * 70);
    let text = "";
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    const expected = /\d{16}/.test(text);
    if (expected) longs++;
    assert.equal(hasLongDigits(text), expected, JSON.stringify(text));
  }
  assert.ok(longs > 100, `only ${longs} texts held a long run`);
  for (let at = 0; at < 40; at++) {
    for (const run of [15, 16, 17]) {
      const text = "a".repeat(at) + "7".repeat(run) + "b".repeat(at % 5);
      assert.equal(hasLongDigits(text), run >= 16, `${run} digits at ${at}`);
    }
  }
  assert.equal(hasLongDigits("١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧"), false); // \d is ASCII only
});
