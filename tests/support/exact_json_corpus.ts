// The shared corpus of the two exact-integer JSON parsers: the driver's (response bodies,
// driver/wire/_exact_json.ts) and the engine's (request bodies and stored sources,
// engine/_index/exact_json.ts). The engine may import nothing of the driver, so the parsers stay
// two; tests/exact_json_corpus_test.ts holds both, on every path each has, to these texts.

export { parseExactJson as driverParse, parseWithFallback } from "../../driver/wire/_exact_json.ts";
export { parseExactJson as engineParse } from "../../engine/_index/exact_json.ts";

/** JSON texts around the safe-integer edge, in strings, exponents, nesting and whitespace. */
export const EXACT_JSON_CORPUS: readonly string[] = [
  "0",
  "-0",
  "9007199254740991",
  "9007199254740992",
  "-9007199254740992",
  "9223372036854775807",
  "-9223372036854775808",
  "18446744073709551615",
  "1234567890123456789012345678901234567890",
  "12345678901234567.5",
  "1e20",
  "12345678901234567e2",
  '"12345678901234567890"',
  '{"a": 12345678901234567890, "b": "12345678901234567890", "c": [1, 2.5, -12345678901234567890]}',
  '{"nested": {"deep": [[[9007199254740993]]]}, "s": "x\\"12345678901234567890"}',
  '[1234567890123456, 12345678901234567, true, false, null, {"k\\u00e9": 1.0}]',
  ' \n\t{ "spaced" : 99999999999999999999 , "e" : 1E+2 } ',
  '{"__proto__": 12345678901234567890}',
  '{"a": 1, "a": 12345678901234567890}',
];

/** Texts both parsers refuse (each throws a SyntaxError). */
export const BAD_JSON_CORPUS: readonly string[] = [
  "",
  "{",
  "[12345678901234567890,]",
  '{"a": 012345678901234567}',
  "12345678901234567890x",
  '"unterminated 12345678901234567890',
];
