// JSON parsing that keeps integer literals beyond 2^53 exact, for request bodies whose queries name
// such a `long` and for re-reading a stored source when its `long` fields are indexed. Texts
// without a run of 16 digits take `JSON.parse` as they are; the others use the reviver's source
// text where the runtime gives it, else each integer literal outside the safe range is first
// quoted with a tag and the reviver turns it into a bigint.

const LONG_DIGITS = /\d{16}/;
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
// A JSON integer: no leading zero, so a malformed `012…` is left for JSON.parse to refuse.
const INTEGER = /^-?(?:0|[1-9]\d*)$/;
// Random per process, so no string a client sends can pass for a tagged literal.
const TAG = `\u0001long${Math.random().toString(36).slice(2)}:`;
const QUOTED = `"\\u0001${TAG.slice(1)}`;

type Reviver = (
  this: unknown,
  key: string,
  value: unknown,
  context?: { source?: string },
) => unknown;
type PlainReviver = (this: unknown, key: string, value: unknown) => unknown;

const hasSource = (() => {
  try {
    let seen: string | undefined;
    JSON.parse(
      "7",
      ((_k, v, c) => {
        seen = c?.source;
        return v;
      }) as Reviver as PlainReviver,
    );
    return seen === "7";
  } catch {
    return false;
  }
})();

const sourceReviver = ((_key, value, context) => {
  if (typeof value !== "number" || Number.isSafeInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && INTEGER.test(source) ? BigInt(source) : value;
}) as Reviver as PlainReviver;

const tagReviver: PlainReviver = (_key, value) =>
  typeof value === "string" && value.startsWith(TAG) ? BigInt(value.slice(TAG.length)) : value;

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
 * Parses JSON text like `JSON.parse`, except that an integer literal outside the safe range
 * (±2^53 − 1) becomes a `bigint` with its exact digits.
 *
 * @param text JSON text; invalid text throws the error `JSON.parse` throws for it.
 * @param tagged Use the tagging parser even where the runtime offers the reviver's source (tests).
 * @returns The value.
 */
export function parseExactJson(text: string, tagged = false): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  if (hasSource && !tagged) return JSON.parse(text, sourceReviver);
  let marked = false;
  const withTags = replaceUnsafeIntegers(text, (token) => {
    marked = true;
    return `${QUOTED}${token}"`;
  });
  if (!marked) return JSON.parse(text);
  try {
    return JSON.parse(withTags, tagReviver);
  } catch {
    return JSON.parse(text); // invalid text: fail with the positions of the text as given
  }
}
