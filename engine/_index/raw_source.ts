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
    return `${nonce}${collected.length - 1}`;
  }
}

/** The source to put in a reply: its original text when it has one, else the object. */
export function sourceOut(source: unknown): unknown {
  const text = source !== null && typeof source === "object" ? texts.get(source) : undefined;
  return text === undefined ? source : new RawJson(text);
}

let collected: string[] | null = null;
let nonce = "";

/**
 * `JSON.stringify` of a reply, with every RawJson's text put back verbatim and every bigint
 * written as a number with its exact digits.
 */
export function stringifyReply(body: unknown, indent?: number): string {
  const outer = collected;
  collected = [];
  nonce = `\u0001raw${Math.random().toString(36).slice(2)}:`;
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
        return `${nonce}${parts.length - 1}`;
      }, indent);
    }
    // A number beyond 2^53 here is a double (exact whole numbers are bigints, written below), so
    // it is written as one, like Elasticsearch's `9.223372036854776E18`, not as false digits.
    text = replaceUnsafeIntegers(text, (literal) => Number(literal).toExponential());
    if (collected.length === 0) return text;
    const parts = collected;
    const token = new RegExp(`"\\\\u0001raw${nonce.slice(4, -1)}:(\\d+)"`, "g");
    return text.replace(token, (_, i: string) => parts[Number(i)]!);
  } finally {
    collected = outer;
  }
}
