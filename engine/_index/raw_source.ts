// `_source` byte for byte: the text a document was sent as is remembered beside its parsed
// object, and responses put that text back where the whole source is returned (search hits,
// GET, `_source`, `_mget`), so key order, spacing and integers beyond 2^53 survive. A source
// that was filtered or changed (update, script) is written from its object as before.

import { replaceUnsafeIntegers } from "./exact_json.ts";

const texts = new WeakMap<object, string>();

/** Remembers the text a parsed source came from. */
export function keepSourceText(source: object, text: string): void {
  texts.set(source, text.trim());
}

/** The text a parsed source came from, when it was kept. */
export function sourceText(source: object): string | undefined {
  return texts.get(source);
}

/** A piece of JSON text that a reply carries as it is. */
export class RawJson {
  /** The JSON text. */
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** Inside `stringifyReply`, a placeholder for the text; elsewhere, the parsed value. */
  toJSON(): unknown {
    if (collected === null) return JSON.parse(this.text);
    collected.push(this.text);
    return MARK;
  }
}

/**
 * Marks a part of a reply whose numbers are doubles (metric values): written with
 * `stringifyReply`, a number beyond 2^53 in it comes out as a double, as Elasticsearch writes
 * `9.223372036854776E18`, so an exact reader does not take it for an exact integer. Bigints in
 * it (exact keys) keep their digits. The object is returned, unchanged for other readers.
 */
export function writtenAsDoubles<T extends object>(value: T): T {
  Object.defineProperty(value, "toJSON", {
    value: () => new RawJson(stringifyReply({ ...value }, undefined, true)).toJSON(),
    enumerable: false,
    configurable: true,
  });
  return value;
}

/**
 * The source to put in a reply: its original text when it has one, else the object (written
 * ahead as text when it holds an integer beyond 2^53, so that it stays an integer inside a part
 * of the reply that is written as doubles).
 */
export function sourceOut(source: unknown): unknown {
  if (source === null || typeof source !== "object") return source;
  const text = texts.get(source);
  if (text !== undefined) return new RawJson(text);
  return hasUnsafeInteger(source) ? new RawJson(JSON.stringify(source)) : source;
}

function hasUnsafeInteger(value: unknown): boolean {
  if (typeof value === "number") return !Number.isSafeInteger(value) && Number.isInteger(value);
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(hasUnsafeInteger);
  for (const key in value) {
    if (hasUnsafeInteger((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * What a RawJson (or a bigint) is written as while a reply is stringified: one string for every
 * place, put back in order (`JSON.stringify` asks for the values in the order it writes them).
 * 128 random bits, made once: no text a reply carries can hold it, since it never leaves the
 * process.
 */
const MARK = `\u0001raw${
  Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join("")
}`;
/** {@link MARK} as JSON writes it. */
const MARK_TEXT = JSON.stringify(MARK);

/** `text` with its i-th {@link MARK_TEXT} replaced by `parts[i]`. */
function putBack(text: string, parts: readonly string[]): string {
  let out = "";
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(MARK_TEXT, from);
    if (at < 0) break;
    out += text.slice(from, at) + part;
    from = at + MARK_TEXT.length;
  }
  return out + text.slice(from);
}

let collected: string[] | null = null;

/**
 * `JSON.stringify` of a reply, with every RawJson's text put back verbatim and every bigint
 * written as a number with its exact digits. With `doubles`, every other number beyond 2^53 is
 * written as the double it is (`9.223372036854776e+18`), not as digits that look exact.
 */
export function stringifyReply(body: unknown, indent?: number, doubles = false): string {
  const outer = collected; // a part written as doubles is a reply within the reply
  collected = [];
  try {
    let text: string;
    try {
      text = JSON.stringify(body, null, indent);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      // A bigint somewhere (an exact whole number beyond 2^53): write its digits as a number.
      collected = [];
      const parts = collected;
      text = JSON.stringify(body, (_key, value) => {
        if (typeof value !== "bigint") return value;
        parts.push(String(value));
        return MARK;
      }, indent);
    }
    if (doubles) text = replaceUnsafeIntegers(text, (literal) => Number(literal).toExponential());
    if (collected.length === 0) return text;
    return putBack(text, collected);
  } finally {
    collected = outer;
  }
}
