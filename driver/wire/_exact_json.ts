// JSON parsing that keeps integers beyond 2^53 exact: such an integer literal becomes a `bigint`
// (every other number stays a `number`). Texts without a run of 16 digits take `JSON.parse` as is;
// the others use the reviver's source text where the runtime gives it, else a small parser.

const INTEGER = /^-?\d+$/;

type Reviver = (
  this: unknown,
  key: string,
  value: unknown,
  context?: { source?: string },
) => unknown;

const hasSource = (() => {
  try {
    let seen: string | undefined;
    JSON.parse(
      "7",
      ((_k: string, v: unknown, c?: { source?: string }) => {
        seen = c?.source;
        return v;
      }) as Reviver as (k: string, v: unknown) => unknown,
    );
    return seen === "7";
  } catch {
    return false;
  }
})();

const exactReviver = ((_key: string, value: unknown, context?: { source?: string }) => {
  if (typeof value !== "number" || Number.isSafeInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && INTEGER.test(source) ? BigInt(source) : value;
}) as Reviver as (k: string, v: unknown) => unknown;

/**
 * Parses JSON text like `JSON.parse`, except that an integer literal outside the safe range
 * (±2^53 − 1) becomes a `bigint` with its exact digits.
 *
 * @param text JSON text.
 * @returns The value.
 */
export function parseExactJson(text: string): unknown {
  if (!hasLongDigits(text)) return JSON.parse(text);
  if (hasSource) return JSON.parse(text, exactReviver);
  return new Parser(text).document();
}

/**
 * True when `text` holds a run of 16 or more ASCII digits (what `/\d{16}/` tests), found by
 * looking at every 16th character only: any such run covers one of the looked-at positions.
 * On a search response it is several times faster than the regular expression.
 */
export function hasLongDigits(text: string): boolean {
  const n = text.length;
  let i = 15;
  // `(c - 48) >>> 0 > 9`: c is no ASCII digit (one unsigned comparison instead of two).
  while (i < n) {
    if ((text.charCodeAt(i) - 48) >>> 0 > 9) {
      i += 16;
      continue;
    }
    // A run of 16 digits through i reaches i - 8 or i + 8 (i is at least 15): when neither is a
    // digit, the run is at most 15 long, and a longer one after it covers a later probe. Most
    // numbers of an answer (scores, counts, ids) are told so with two reads, not a walk.
    if (
      (text.charCodeAt(i - 8) - 48) >>> 0 > 9 &&
      (i + 8 >= n || (text.charCodeAt(i + 8) - 48) >>> 0 > 9)
    ) {
      i += 16;
      continue;
    }
    let start = i;
    while (start > 0 && (text.charCodeAt(start - 1) - 48) >>> 0 <= 9) start--;
    let end = i;
    while (end + 1 < n && (text.charCodeAt(end + 1) - 48) >>> 0 <= 9) end++;
    if (end - start >= 15) return true;
    // end + 1 is not a digit: a run after it starts at end + 2 or later and covers end + 17.
    i = end + 17;
  }
  return false;
}

/** True when a parsed value holds a `bigint` anywhere. */
export function hasBigInt(value: unknown): boolean {
  if (typeof value === "bigint") return true;
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(hasBigInt);
  for (const key in value) {
    if (hasBigInt((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

// The fallback for runtimes without the reviver's source (Node 20): a strict recursive descent
// parser; JSON.parse still decides strings and numbers, so escapes and number syntax match it.
class Parser {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  document(): unknown {
    const value = this.#value();
    this.#space();
    if (this.#at < this.#text.length) this.#fail();
    return value;
  }

  #space(): void {
    const t = this.#text;
    while (this.#at < t.length) {
      const c = t.charCodeAt(this.#at);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      this.#at++;
    }
  }

  #fail(): never {
    // Let JSON.parse phrase the error exactly as it would have.
    JSON.parse(this.#text);
    throw new SyntaxError(`Unexpected token in JSON at position ${this.#at}`);
  }

  #value(): unknown {
    this.#space();
    const t = this.#text;
    const c = t[this.#at];
    if (c === "{") return this.#object();
    if (c === "[") return this.#array();
    if (c === '"') return this.#string();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)/.exec(
      t.slice(this.#at, this.#at + 400),
    );
    if (!m) this.#fail();
    const token = m[0];
    this.#at += token.length;
    if (token === "true") return true;
    if (token === "false") return false;
    if (token === "null") return null;
    const n = Number(token);
    return !Number.isSafeInteger(n) && INTEGER.test(token) ? BigInt(token) : n;
  }

  #string(): string {
    const t = this.#text;
    let i = this.#at + 1;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c)) this.#fail();
      if (c === 34) break;
      i += c === 92 ? 2 : 1;
    }
    const s = JSON.parse(t.slice(this.#at, i + 1)) as string;
    this.#at = i + 1;
    return s;
  }

  #array(): unknown[] {
    this.#at++;
    const out: unknown[] = [];
    this.#space();
    if (this.#text[this.#at] === "]") {
      this.#at++;
      return out;
    }
    for (;;) {
      out.push(this.#value());
      this.#space();
      const c = this.#text[this.#at++];
      if (c === "]") return out;
      if (c !== ",") this.#fail();
    }
  }

  #object(): Record<string, unknown> {
    this.#at++;
    const out: Record<string, unknown> = {};
    this.#space();
    if (this.#text[this.#at] === "}") {
      this.#at++;
      return out;
    }
    for (;;) {
      this.#space();
      if (this.#text[this.#at] !== '"') this.#fail();
      const key = this.#string();
      this.#space();
      if (this.#text[this.#at++] !== ":") this.#fail();
      const value = this.#value();
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.#space();
      const c = this.#text[this.#at++];
      if (c === "}") return out;
      if (c !== ",") this.#fail();
    }
  }
}

/** Exposed for tests: parse with the fallback parser even where the reviver has the source. */
export function parseWithFallback(text: string): unknown {
  return new Parser(text).document();
}
