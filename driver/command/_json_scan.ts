// The body scanner: one pass over a JSON (or NDJSON) body that validates it as JSON, strips
// whitespace and comments, turns Kibana triple-quoted strings into JSON strings and cuts the
// text into fixed chunks around `?` placeholders. It reads through the tokenizer's cursor: the
// cursor's `pos` is its only position (it starts where the cursor stands and leaves it just after
// the body), whitespace and comments are the cursor's strict skip, strings the lexer's ends.
// Internal.

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
  return shape === "ndjson" ? scanner.ndjson() : scanner.single();
}

class BodyScanner {
  readonly lexer: ConsoleLexer;
  readonly text: string;
  readonly n: number;
  readonly start: number;
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
    this.seg = start;
    this.open = start;
  }

  single(): ScannedBody {
    if (this.text.charCodeAt(this.lexer.pos) === QUESTION) {
      this.slot("body", this.lexer.pos);
      this.lexer.pos++;
    } else this.value();
    return this.finish(this.lexer.pos, "");
  }

  ndjson(): ScannedBody {
    const text = this.text;
    for (;;) {
      this.open = this.lexer.pos;
      if (text.charCodeAt(this.lexer.pos) === QUESTION) {
        this.slot("line", this.lexer.pos);
        this.lexer.pos++;
      } else this.value();
      const lexer = this.lexer;
      const end = lexer.pos;
      const next = lexer.skipTriviaStrict("stop");
      const c = text.charCodeAt(next);
      if (c !== LBRACE && c !== LBRACKET && c !== QUESTION) {
        lexer.pos = end;
        return this.finish(end, "\n");
      }
      // Keep a single "\n" between compact lines in the slice; otherwise write one.
      if (next !== end + 1 || text.charCodeAt(end) !== LF) {
        this.copy(end);
        this.out += "\n";
        this.seg = next;
      }
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

  /** Skips whitespace and comments where the cursor stands, dropping them from the output. */
  ws(): void {
    const lexer = this.lexer;
    const at = lexer.pos;
    if (TRIVIA_START[this.text.charCodeAt(at)] !== 1) return;
    const next = lexer.skipTriviaStrict("skip");
    if (next !== at) {
      this.copy(at);
      this.seg = next;
    }
  }

  value(): void {
    const c = this.text.charCodeAt(this.lexer.pos);
    if (c === LBRACE) this.object();
    else if (c === LBRACKET) this.array();
    else if (c === QUOTE) this.string();
    else if (c === MINUS || isDigit(c)) this.number();
    else if (c === QUESTION) {
      this.slot("value", this.lexer.pos);
      this.lexer.pos++;
    } else this.literal();
  }

  object(): void {
    const text = this.text;
    const open = this.lexer.pos++;
    if (++this.depth > MAX_DEPTH) {
      fail(text, open, `the body nests deeper than ${MAX_DEPTH} levels`);
    }
    if (text.startsWith("?}", this.lexer.pos)) {
      fail(text, open, "{?} binds a path or query-string value; in a body write ? for a value");
    }
    this.ws();
    if (text.charCodeAt(this.lexer.pos) === RBRACE) {
      this.lexer.pos++;
      this.depth--;
      return;
    }
    for (;;) {
      const k = text.charCodeAt(this.lexer.pos);
      if (k === QUOTE) this.string();
      else if (k === QUESTION) {
        this.slot("key", this.lexer.pos);
        this.lexer.pos++;
      } else this.unexpected("a quoted key or ? (a key placeholder)");
      this.ws();
      if (text.charCodeAt(this.lexer.pos) !== COLON) this.unexpected(": after the key");
      this.lexer.pos++;
      this.ws();
      this.value();
      if (this.closes(RBRACE, "}", "object")) return;
    }
  }

  array(): void {
    const text = this.text;
    const open = this.lexer.pos++;
    if (++this.depth > MAX_DEPTH) {
      fail(text, open, `the body nests deeper than ${MAX_DEPTH} levels`);
    }
    this.ws();
    if (text.charCodeAt(this.lexer.pos) === RBRACKET) {
      this.lexer.pos++;
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
    const c = text.charCodeAt(this.lexer.pos);
    if (c === COMMA) {
      this.lexer.pos++;
      this.ws();
      if (text.charCodeAt(this.lexer.pos) === close) {
        fail(text, this.lexer.pos, `trailing comma before ${closeText}; remove the comma`);
      }
      return false;
    }
    if (c !== close) this.unexpected(`, or ${closeText} in the ${where}`);
    this.lexer.pos++;
    this.depth--;
    return true;
  }

  string(): void {
    const text = this.text;
    const start = this.lexer.pos;
    if (text.charCodeAt(start + 1) !== QUOTE || text.charCodeAt(start + 2) !== QUOTE) {
      this.lexer.pos = jsonStringEnd(text, start);
      return;
    }
    // Kibana's """…""" becomes the JSON string of its text.
    const end = stringEnd(text, start, this.n, true);
    this.copy(start);
    this.out += JSON.stringify(text.slice(start + 3, end - 3));
    this.seg = end;
    this.lexer.pos = end;
  }

  number(): void {
    const text = this.text;
    const start = this.lexer.pos;
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
    this.lexer.pos = i;
  }

  literal(): void {
    const text = this.text;
    const i = this.lexer.pos;
    for (const word of LITERALS) {
      if (text.startsWith(word, i) && !isWordChar(text.charCodeAt(i + word.length))) {
        this.lexer.pos = i + word.length;
        return;
      }
    }
    this.unexpected("a JSON value (object, array, string, number, true, false, null or ?)");
  }

  /** Fails at `i`; at the end of the text or at a new command, the body is unterminated. */
  unexpected(expected: string): never {
    const text = this.text;
    const i = this.lexer.pos;
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
