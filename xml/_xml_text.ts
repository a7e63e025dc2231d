// Character-level helpers of the XML reader: names, white space, allowed characters, references
// and the offset → line/column index. Internal.

/** An XML name at `lastIndex` (sticky). */
export const NAME: RegExp = /[A-Za-z_:\u00C0-\uFFFF][\w.:\-\u00B7\u00C0-\uFFFF]*/y;

// Control characters are what this pattern is for.
const FORBIDDEN_CHAR =
  // deno-lint-ignore no-control-regex
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The offset of the first character XML 1.0 does not allow, or -1. */
export function checkCharacters(text: string): number {
  const m = FORBIDDEN_CHAR.exec(text);
  return m ? m.index : -1;
}

/** The first offset at or after `p` that is not XML white space. */
export function skipSpace(text: string, p: number): number {
  let i = p;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** Attribute-value normalisation: each literal tab and line end becomes a space. */
export function normalizeAttribute(raw: string): string {
  return /[\t\n\r]/.test(raw) ? raw.replace(/[\t\n\r]/g, " ") : raw;
}

const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const LONGEST_REFERENCE = 12; // "&#x0010FFFF;" minus the ampersand

/** Reports a problem at an offset of the whole text; never returns. */
export type Fail = (problem: string, offset: number) => never;

function allowed(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/**
 * Decodes the five predefined entities and numeric character references of `raw`, which starts
 * at `base` in the whole text. Any other entity goes to `entityFail`, a bare `&` to `syntaxFail`.
 */
export function decodeReferences(
  raw: string,
  base: number,
  entityFail: Fail,
  syntaxFail: Fail,
): string {
  const out: string[] = [];
  let from = 0;
  let amp = raw.indexOf("&");
  while (amp >= 0) {
    out.push(raw.slice(from, amp));
    const semi = raw.indexOf(";", amp + 1);
    const name = semi < 0 || semi - amp > LONGEST_REFERENCE + 20 ? "" : raw.slice(amp + 1, semi);
    if (name.startsWith("#")) {
      const m = /^#(?:x([0-9a-fA-F]{1,8})|([0-9]{1,9}))$/.exec(name);
      const code = m ? (m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2])) : -1;
      if (!allowed(code)) {
        syntaxFail(`&${name}; is not a character XML allows`, base + amp);
      }
      out.push(String.fromCodePoint(code));
    } else if (Object.hasOwn(PREDEFINED, name)) {
      out.push(PREDEFINED[name] ?? "");
    } else if (/^[A-Za-z_:\u00C0-\uFFFF][\w.:\-\u00B7\u00C0-\uFFFF]*$/.test(name)) {
      entityFail(
        `the entity &${name}; is refused: only &lt; &gt; &amp; &quot; &apos; and numeric references are read`,
        base + amp,
      );
    } else {
      syntaxFail("a bare & in text; write &amp; (or use a CDATA section)", base + amp);
    }
    from = semi + 1;
    amp = raw.indexOf("&", from);
  }
  out.push(raw.slice(from));
  return out.join("");
}

/**
 * Turns offsets into 1-based lines and columns. Queries usually move forward, so it keeps a cursor
 * and the next line end; going backwards restarts from the top. Linear over a forward pass.
 */
export class LineIndex {
  readonly #text: string;
  #offset = 0;
  #line = 1;
  #lineStart = 0;
  #nextBreak: number;

  constructor(text: string) {
    this.#text = text;
    this.#nextBreak = text.indexOf("\n");
  }

  /** The line and column of `offset`. */
  position(offset: number): { line: number; column: number } {
    if (offset < this.#offset) {
      this.#offset = 0;
      this.#line = 1;
      this.#lineStart = 0;
      this.#nextBreak = this.#text.indexOf("\n");
    }
    while (this.#nextBreak >= 0 && this.#nextBreak < offset) {
      this.#line++;
      this.#lineStart = this.#nextBreak + 1;
      this.#nextBreak = this.#text.indexOf("\n", this.#lineStart);
    }
    this.#offset = offset;
    return { line: this.#line, column: offset - this.#lineStart + 1 };
  }
}
