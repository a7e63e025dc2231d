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

/** The `standard` analyzer: Unicode word boundaries, lower-cased, tokens of at most 255 chars. */
export function standardAnalyzer(text: string): Token[] {
  const out: Token[] = [];
  let position = 0;
  for (const seg of segmenter.segment(text)) {
    if (!seg.isWordLike) continue;
    let term = seg.segment.toLowerCase();
    // Long tokens are split like Lucene's StandardTokenizer does.
    while (term.length > MAX_TOKEN_LENGTH) {
      out.push({ term: term.slice(0, MAX_TOKEN_LENGTH), position: position++ });
      term = term.slice(MAX_TOKEN_LENGTH);
    }
    out.push({ term, position: position++ });
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
