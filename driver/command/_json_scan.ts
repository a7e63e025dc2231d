// The body scanner: one pass over a JSON (or NDJSON) body that validates it as JSON, strips
// whitespace and comments, turns Kibana triple-quoted strings into JSON strings and cuts the
// text into fixed chunks around `?` placeholders. It reads through the tokenizer's cursor: it
// starts where the cursor stands, skips comments and reads strings with the lexer's readers, and
// leaves the cursor just after the body; its value loop keeps the offset in a field of its own
// between those calls (the bulk hot path). Internal.

import {
  APOSTROPHE,
  COLON,
  COMMA,
  type ConsoleLexer,
  CR,
  DIGIT_0,
  DOT,
  fail,
  FF,
  HASH,
  isDigit,
  isLineStart,
  isMethodAt,
  isWordChar,
  jsonStringEnd,
  LBRACE,
  LBRACKET,
  LF,
  LOWER_E,
  MINUS,
  PLUS,
  QUESTION,
  QUOTE,
  RBRACE,
  RBRACKET,
  SEMI,
  SLASH,
  SPACE,
  stringEnd,
  TAB,
  UPPER_E,
} from "./console_lexer.ts";

/** Where a body placeholder sits: a JSON value, an object key, the whole body, an NDJSON line. */
export type BodySlotKind = "value" | "key" | "body" | "line";

/** A placeholder found in a body: its kind and offset in the whole text. */
export interface BodySlot {
  kind: BodySlotKind;
  offset: number;
}

/** The scanned body: `chunks.length === slots.length + 1`. */
export interface ScannedBody {
  chunks: string[];
  slots: BodySlot[];
}

/** What a body is: one JSON value, or NDJSON (one value per line, for `_bulk`, `_msearch`, …). */
export type BodyShape = "json" | "ndjson";

const MAX_DEPTH = 512;
const LITERALS = ["true", "false", "null"] as const;

/** 1 for the characters that may start whitespace or a comment (a table beats a chain of ===). */
const TRIVIA_START = new Uint8Array(128);
for (const c of [SPACE, LF, CR, TAB, FF, SLASH, HASH]) TRIVIA_START[c] = 1;

/**
 * Scans one body where `lexer` stands (at a `{`, `[` or `?`) and leaves the lexer just after it.
 */
export function scanBody(lexer: ConsoleLexer, shape: BodyShape): ScannedBody {
  const scanner = new BodyScanner(lexer);
  const body = shape === "ndjson" ? scanner.ndjson() : scanner.single();
  lexer.pos = scanner.i;
  return body;
}

class BodyScanner {
  readonly lexer: ConsoleLexer;
  readonly text: string;
  readonly n: number;
  readonly start: number;
  i: number;
  /** Start of the raw text not yet copied into `out`. */
  seg: number;
  out = "";
  chunks: string[] = [];
  slots: BodySlot[] = [];
  depth = 0;
  /** Start of the current NDJSON line value (for the unterminated-body error). */
  open: number;

  constructor(lexer: ConsoleLexer) {
    const text = lexer.text;
    const start = lexer.pos;
    this.lexer = lexer;
    this.text = text;
    this.n = lexer.end;
    this.start = start;
    this.i = start;
    this.seg = start;
    this.open = start;
  }

  single(): ScannedBody {
    if (this.text.charCodeAt(this.i) === QUESTION) {
      this.slot("body", this.i);
      this.i++;
    } else this.value();
    return this.finish(this.i, "");
  }

  ndjson(): ScannedBody {
    const text = this.text;
    for (;;) {
      this.open = this.i;
      if (text.charCodeAt(this.i) === QUESTION) {
        this.slot("line", this.i);
        this.i++;
      } else this.value();
      const end = this.i;
      const lexer = this.lexer;
      lexer.pos = end;
      const next = lexer.skipTriviaStrict("stop");
      const c = text.charCodeAt(next);
      if (c !== LBRACE && c !== LBRACKET && c !== QUESTION) {
        this.i = end;
        return this.finish(end, "\n");
      }
      // Keep a single "\n" between compact lines in the slice; otherwise write one.
      if (next !== end + 1 || text.charCodeAt(end) !== LF) {
        this.copy(end);
        this.out += "\n";
        this.seg = next;
      }
      this.i = next;
    }
  }

  finish(end: number, tail: string): ScannedBody {
    this.copy(end);
    this.chunks.push(this.out + tail);
    return { chunks: this.chunks, slots: this.slots };
  }

  /** Appends the raw text from `seg` up to `to` to the current chunk. */
  copy(to: number): void {
    if (to > this.seg) this.out += this.text.slice(this.seg, to);
    this.seg = to;
  }

  slot(kind: BodySlotKind, at: number): void {
    this.copy(at);
    this.chunks.push(this.out);
    this.out = "";
    this.slots.push({ kind, offset: at });
    this.seg = at + 1;
  }

  /** Skips whitespace and comments at `i`, dropping them from the output. */
  ws(): void {
    if (TRIVIA_START[this.text.charCodeAt(this.i)] !== 1) return;
    const lexer = this.lexer;
    lexer.pos = this.i;
    const next = lexer.skipTriviaStrict("skip");
    if (next !== this.i) {
      this.copy(this.i);
      this.seg = next;
      this.i = next;
    }
  }

  value(): void {
    const c = this.text.charCodeAt(this.i);
    if (c === LBRACE) this.object();
    else if (c === LBRACKET) this.array();
    else if (c === QUOTE) this.string();
    else if (c === MINUS || isDigit(c)) this.number();
    else if (c === QUESTION) {
      this.slot("value", this.i);
      this.i++;
    } else this.literal();
  }

  object(): void {
    const text = this.text;
    const open = this.i++;
    if (++this.depth > MAX_DEPTH) {
      fail(text, open, `the body nests deeper than ${MAX_DEPTH} levels`);
    }
    if (text.startsWith("?}", this.i)) {
      fail(text, open, "{?} binds a path or query-string value; in a body write ? for a value");
    }
    this.ws();
    if (text.charCodeAt(this.i) === RBRACE) {
      this.i++;
      this.depth--;
      return;
    }
    for (;;) {
      const k = text.charCodeAt(this.i);
      if (k === QUOTE) this.string();
      else if (k === QUESTION) {
        this.slot("key", this.i);
        this.i++;
      } else this.unexpected("a quoted key or ? (a key placeholder)");
      this.ws();
      if (text.charCodeAt(this.i) !== COLON) this.unexpected(": after the key");
      this.i++;
      this.ws();
      this.value();
      if (this.closes(RBRACE, "}", "object")) return;
    }
  }

  array(): void {
    const text = this.text;
    const open = this.i++;
    if (++this.depth > MAX_DEPTH) {
      fail(text, open, `the body nests deeper than ${MAX_DEPTH} levels`);
    }
    this.ws();
    if (text.charCodeAt(this.i) === RBRACKET) {
      this.i++;
      this.depth--;
      return;
    }
    for (;;) {
      this.value();
      if (this.closes(RBRACKET, "]", "array")) return;
    }
  }

  /**
   * After a member or an element: consumes `,` (refusing a trailing comma before `close`) and
   * returns false, or consumes the closing bracket, leaves the level and returns true.
   */
  closes(close: number, closeText: string, where: string): boolean {
    const text = this.text;
    this.ws();
    const c = text.charCodeAt(this.i);
    if (c === COMMA) {
      this.i++;
      this.ws();
      if (text.charCodeAt(this.i) === close) {
        fail(text, this.i, `trailing comma before ${closeText}; remove the comma`);
      }
      return false;
    }
    if (c !== close) this.unexpected(`, or ${closeText} in the ${where}`);
    this.i++;
    this.depth--;
    return true;
  }

  string(): void {
    const text = this.text;
    const start = this.i;
    if (text.charCodeAt(start + 1) !== QUOTE || text.charCodeAt(start + 2) !== QUOTE) {
      this.i = jsonStringEnd(text, start);
      return;
    }
    // Kibana's """…""" becomes the JSON string of its text.
    const end = stringEnd(text, start, this.n, true);
    this.copy(start);
    this.out += JSON.stringify(text.slice(start + 3, end - 3));
    this.seg = end;
    this.i = end;
  }

  number(): void {
    const text = this.text;
    const start = this.i;
    let i = start;
    if (text.charCodeAt(i) === MINUS) i++;
    let c = text.charCodeAt(i);
    if (c === DIGIT_0) c = text.charCodeAt(++i);
    else if (c !== DIGIT_0 && isDigit(c)) {
      do c = text.charCodeAt(++i); while (isDigit(c));
    } else fail(text, start, "bad number: a digit must follow -");
    if (c === DOT) {
      c = text.charCodeAt(++i);
      if (!isDigit(c)) fail(text, i, "bad number: a digit must follow the decimal point");
      do c = text.charCodeAt(++i); while (isDigit(c));
    }
    if (c === LOWER_E || c === UPPER_E) {
      c = text.charCodeAt(++i);
      if (c === PLUS || c === MINUS) c = text.charCodeAt(++i);
      if (!isDigit(c)) fail(text, i, "bad number: a digit must follow the exponent");
      do c = text.charCodeAt(++i); while (isDigit(c));
    }
    if (isWordChar(c)) fail(text, start, "bad number; JSON numbers look like -12.5e3");
    this.i = i;
  }

  literal(): void {
    const text = this.text;
    const i = this.i;
    for (const word of LITERALS) {
      if (text.startsWith(word, i) && !isWordChar(text.charCodeAt(i + word.length))) {
        this.i = i + word.length;
        return;
      }
    }
    this.unexpected("a JSON value (object, array, string, number, true, false, null or ?)");
  }

  /** Fails at `i`; at the end of the text or at a new command, the body is unterminated. */
  unexpected(expected: string): never {
    const text = this.text;
    const i = this.i;
    if (i >= this.n || (isLineStart(text, i) && isMethodAt(text, i))) {
      const open = this.open;
      fail(
        text,
        open,
        `unterminated body: the ${text[open]} here is never closed; add the missing } or ]`,
      );
    }
    const c = text.charCodeAt(i);
    if (c === SEMI) fail(text, i, `expected ${expected} but found ";" inside the body`);
    let found = JSON.stringify(text[i]);
    if (isWordChar(c)) {
      let j = i;
      while (j < this.n && isWordChar(text.charCodeAt(j))) j++;
      found = `"${text.slice(i, j)}"`;
    } else if (c === APOSTROPHE) found = "' (JSON strings use double quotes)";
    fail(text, i, `expected ${expected} but found ${found}`);
  }
}
