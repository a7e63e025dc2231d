// JSON parsing that keeps integer literals beyond 2^53 exact, for request bodies whose queries name
// such a `long` and for re-reading a stored source when its `long` fields are indexed. Texts
// without a run of 16 digits take `JSON.parse` as they are; in the others, each integer literal
// outside the safe range is first quoted with a random tag and the reviver turns it into a bigint.

const LONG_DIGITS = /\d{16}/;
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const INTEGER = /^-?\d+$/;

/**
 * Replaces each integer literal outside the safe range (±2^53 − 1) in JSON text, outside
 * strings, by what `replace` returns for it; the text is returned as it is when it has none.
 *
 * @param text JSON text.
 * @param replace The new text of a literal.
 * @returns The text.
 */
export function replaceUnsafeIntegers(text: string, replace: (literal: string) => string): string {
  if (!LONG_DIGITS.test(text)) return text;
  return text.replace(TOKENS, (token) => {
    if (token.length < 16 || token.charCodeAt(0) === 34 || !INTEGER.test(token)) return token;
    return Number.isSafeInteger(Number(token)) ? token : replace(token);
  });
}

/**
 * Parses valid JSON text like `JSON.parse`, except that an integer literal outside the safe range
 * (±2^53 − 1) becomes a `bigint` with its exact digits.
 *
 * @param text JSON text; invalid text throws the error `JSON.parse` throws for it.
 * @returns The value.
 */
export function parseExactJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const tag = `\u0001long${Math.random().toString(36).slice(2)}:`;
  const quoted = `"\\u0001${tag.slice(1)}`;
  let marked = false;
  const withTags = replaceUnsafeIntegers(text, (token) => {
    marked = true;
    return `${quoted}${token}"`;
  });
  if (!marked) return JSON.parse(text);
  try {
    return JSON.parse(
      withTags,
      (_key, value) =>
        typeof value === "string" && value.startsWith(tag)
          ? BigInt(value.slice(tag.length))
          : value,
    );
  } catch {
    return JSON.parse(text); // invalid text: fail with the positions of the text as given
  }
}
