// Analyzers: turn a field value into the tokens the inverted index stores.

/** One token with its position in the token stream. */
export interface Token {
  /** The term text. */
  term: string;
  /** Position, used by phrase queries. */
  position: number;
}

/** An analyzer turns text into tokens. */
export type Analyzer = (text: string) => Token[];

const MAX_TOKEN_LENGTH = 255;
const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

const NON_ASCII = /[\u0080-\uffff]/;

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Whether the char at `i` joins the word around it (UAX#29 rules WB6/7 and WB11/12 for ASCII). */
function joins(text: string, i: number): boolean {
  const mid = text.charCodeAt(i);
  const prev = text.charCodeAt(i - 1);
  const next = text.charCodeAt(i + 1);
  // ':' is MidLetter; '.' and '\'' are MidNumLet; ',' and ';' are MidNum.
  if (isLetter(prev) && isLetter(next)) return mid === 58 || mid === 46 || mid === 39;
  if (isDigit(prev) && isDigit(next)) return mid === 44 || mid === 59 || mid === 46 || mid === 39;
  return false;
}

/**
 * Where streamed tokens go: spans of the text, lower-cased by the sink (no string per token). A
 * sink that records documents knows which one it is filling (see `TokenStream.doc`).
 */
export interface TermSink {
  /** One token: `text.slice(from, to)` lower-cased, at `position`. */
  addLowerAscii(text: string, from: number, to: number, position: number): void;
}

/**
 * The `standard` analyzer over pure-ASCII text, streamed into `sink` at positions from `base`
 * (Unicode word-break rules as Lucene's StandardTokenizer applies them to ASCII; tokens longer
 * than 255 chars split). Returns the token count, or -1 when the text is not pure ASCII: then
 * analyze it with {@link standardAnalyzer}.
 */
export function streamStandardAscii(text: string, sink: TermSink, base: number): number {
  if (NON_ASCII.test(text)) return -1;
  const n = text.length;
  let i = 0;
  let position = base;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (!(isLetter(c) || isDigit(c) || c === 95)) {
      i++;
      continue;
    }
    const start = i;
    let wordLike = false;
    for (;;) {
      while (i < n && (isLetter(c = text.charCodeAt(i)) || isDigit(c) || c === 95)) {
        if (c !== 95) wordLike = true;
        i++;
      }
      if (i + 1 < n && joins(text, i)) i++;
      else break;
    }
    if (!wordLike) continue;
    for (let from = start; from < i; from += MAX_TOKEN_LENGTH) {
      sink.addLowerAscii(text, from, Math.min(from + MAX_TOKEN_LENGTH, i), position++);
    }
  }
  return position - base;
}

/** Collects streamed tokens as {@link Token}s. */
class TokenList implements TermSink {
  constructor(readonly out: Token[]) {}
  addLowerAscii(text: string, from: number, to: number, position: number): void {
    this.out.push({ term: text.slice(from, to).toLowerCase(), position });
  }
}

function pushTerm(out: Token[], term: string, position: number): number {
  // Tokens longer than the limit are split, as Lucene's StandardTokenizer does.
  while (term.length > MAX_TOKEN_LENGTH) {
    out.push({ term: term.slice(0, MAX_TOKEN_LENGTH), position: position++ });
    term = term.slice(MAX_TOKEN_LENGTH);
  }
  out.push({ term, position });
  return position;
}

/**
 * The `standard` analyzer: Unicode word boundaries (a fast path for ASCII text, Intl.Segmenter
 * otherwise), lower-cased, tokens of at most 255 chars.
 */
export function standardAnalyzer(text: string): Token[] {
  const out: Token[] = [];
  if (streamStandardAscii(text, new TokenList(out), 0) >= 0) return out;
  let position = 0;
  for (const seg of segmenter.segment(text)) {
    if (!seg.isWordLike) continue;
    position = pushTerm(out, seg.segment.toLowerCase(), position) + 1;
  }
  return out;
}

/** The `keyword` analyzer: the whole value is one token. */
export function keywordAnalyzer(text: string): Token[] {
  return [{ term: text, position: 0 }];
}

/** The `whitespace` analyzer: split on whitespace, case kept. */
export function whitespaceAnalyzer(text: string): Token[] {
  return text.split(/\s+/u).filter((t) => t !== "").map((term, position) => ({ term, position }));
}

/** The `simple` analyzer: runs of letters, lower-cased. */
export function simpleAnalyzer(text: string): Token[] {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return words.map((term, position) => ({ term, position }));
}

const ANALYZERS: Record<string, Analyzer> = {
  standard: standardAnalyzer,
  default: standardAnalyzer,
  keyword: keywordAnalyzer,
  whitespace: whitespaceAnalyzer,
  simple: simpleAnalyzer,
};

/** The analyzer registered under `name`; unknown names fall back to `standard`. */
export function analyzerFor(name: string | undefined): Analyzer {
  return (name && ANALYZERS[name]) || standardAnalyzer;
}
