// Analysis chains as `_analyze` shows them: tokenizers that keep each token's offsets and type,
// token filters, and the built-in analyzers as tokenizer + filters. The standard tokenizer's word
// rules are the indexing analyzer's own (`streamStandardAscii`); only the bookkeeping is added.

import { streamStandardAscii, type TermSink } from "./analysis.ts";

/** One token with its place in the text, as `_analyze` prints it. */
export interface ChainToken {
  token: string;
  start_offset: number;
  end_offset: number;
  type: string;
  position: number;
}

/** A tokenizer: text → tokens with offsets, types and positions from 0. */
export type Tokenizer = (text: string) => ChainToken[];

/** A token filter: tokens → tokens (positions kept; a removed token leaves a gap). */
export type TokenFilter = (tokens: ChainToken[]) => ChainToken[];

const MAX_TOKEN_LENGTH = 255;
const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

/** Lucene's StandardTokenizer type of an ASCII token: `<NUM>` without letters. */
function asciiType(text: string, from: number, to: number): string {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) | 32;
    if ((c >= 97 && c <= 122) || text.charCodeAt(i) === 95) return "<ALPHANUM>";
  }
  return "<NUM>";
}

/** The StandardTokenizer type of a non-ASCII word, by script. */
function unicodeType(word: string): string {
  if (/^\p{Nd}[\p{Nd}.,]*$/u.test(word)) return "<NUM>";
  if (/\p{Script=Han}/u.test(word)) return "<IDEOGRAPHIC>";
  if (/\p{Script=Hiragana}/u.test(word)) return "<HIRAGANA>";
  if (/\p{Script=Katakana}/u.test(word)) return "<KATAKANA>";
  if (/\p{Script=Hangul}/u.test(word)) return "<HANGUL>";
  if (/[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u.test(word)) {
    return "<SOUTHEAST_ASIAN>";
  }
  return "<ALPHANUM>";
}

/** The `standard` tokenizer: Unicode word boundaries, case kept, tokens of at most 255 chars. */
export function standardTokenizer(text: string): ChainToken[] {
  const out: ChainToken[] = [];
  const sink: TermSink = {
    addLowerAscii(t, from, to, position) {
      out.push({
        token: t.slice(from, to),
        start_offset: from,
        end_offset: to,
        type: asciiType(t, from, to),
        position,
      });
    },
  };
  if (streamStandardAscii(text, sink, 0) >= 0) return out;
  let position = 0;
  const push = (word: string, at: number, type: string) => {
    for (let from = 0; from < word.length; from += MAX_TOKEN_LENGTH) {
      const piece = word.slice(from, from + MAX_TOKEN_LENGTH);
      out.push({
        token: piece,
        start_offset: at + from,
        end_offset: at + from + piece.length,
        type,
        position: position++,
      });
    }
  };
  for (const seg of segmenter.segment(text)) {
    if (!seg.isWordLike) continue;
    const type = unicodeType(seg.segment);
    if (type === "<IDEOGRAPHIC>" || type === "<HIRAGANA>") {
      // Lucene emits each ideograph and each hiragana character as a token of its own.
      let at = seg.index;
      for (const ch of seg.segment) {
        push(ch, at, unicodeType(ch));
        at += ch.length;
      }
    } else push(seg.segment, seg.index, type);
  }
  return out;
}

function runs(text: string, re: RegExp): ChainToken[] {
  const out: ChainToken[] = [];
  let position = 0;
  for (const m of text.matchAll(re)) {
    for (let from = 0; from < m[0].length; from += MAX_TOKEN_LENGTH) {
      const piece = m[0].slice(from, from + MAX_TOKEN_LENGTH);
      const start = m.index + from;
      out.push({
        token: piece,
        start_offset: start,
        end_offset: start + piece.length,
        type: "word",
        position: position++,
      });
    }
  }
  return out;
}

/** The `whitespace` tokenizer: runs of non-whitespace. */
export function whitespaceTokenizer(text: string): ChainToken[] {
  return runs(text, /\S+/gu);
}

/** The `letter` tokenizer: runs of letters. */
export function letterTokenizer(text: string): ChainToken[] {
  return runs(text, /\p{L}+/gu);
}

/** The `keyword` tokenizer: the whole text, one token (none for empty text). */
export function keywordTokenizer(text: string): ChainToken[] {
  return text === ""
    ? []
    : [{ token: text, start_offset: 0, end_offset: text.length, type: "word", position: 0 }];
}

/** Lucene's English stop words (`_english_`, the `stop` analyzer's default). */
export const ENGLISH_STOP_WORDS: readonly string[] = [
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "but",
  "by",
  "for",
  "if",
  "in",
  "into",
  "is",
  "it",
  "no",
  "not",
  "of",
  "on",
  "or",
  "such",
  "that",
  "the",
  "their",
  "then",
  "there",
  "these",
  "they",
  "this",
  "to",
  "was",
  "will",
  "with",
];

const FOLDED: Readonly<Record<string, string>> = {
  "ß": "ss",
  "æ": "ae",
  "Æ": "AE",
  "œ": "oe",
  "Œ": "OE",
  "ø": "o",
  "Ø": "O",
  "ł": "l",
  "Ł": "L",
  "đ": "d",
  "Đ": "D",
  "ð": "d",
  "Ð": "D",
  "þ": "th",
  "Þ": "TH",
  "ı": "i",
};

/** ASCII folding: accents dropped (`é` → `e`) and a few letters spelled out (`ß` → `ss`). */
export function foldAscii(s: string): string {
  if (!/[\u0080-\uffff]/.test(s)) return s;
  return s.normalize("NFD").replace(/\p{M}+/gu, "").replace(
    /[ßæÆœŒøØłŁđĐðÐþÞı]/g,
    (c) => FOLDED[c]!,
  )
    .normalize("NFC");
}

const map = (f: (t: string) => string): TokenFilter => (ts) =>
  ts.map((t) => ({ ...t, token: f(t.token) }));

/** The `lowercase` token filter. */
export const lowercaseFilter: TokenFilter = map((t) => t.toLowerCase());

/** A `stop` token filter over a word list; removed tokens leave their positions empty. */
export function stopFilter(words: readonly string[], ignoreCase = false): TokenFilter {
  const set = new Set(ignoreCase ? words.map((w) => w.toLowerCase()) : words);
  return (ts) => ts.filter((t) => !set.has(ignoreCase ? t.token.toLowerCase() : t.token));
}

/** A built-in analyzer as a chain: its tokenizer and filters. */
export interface Chain {
  tokenizer: { name: string; run: Tokenizer };
  filters: Array<{ name: string; run: TokenFilter }>;
}

/** The built-in tokenizers by name. */
export const TOKENIZERS: Readonly<Record<string, Tokenizer>> = {
  standard: standardTokenizer,
  whitespace: whitespaceTokenizer,
  letter: letterTokenizer,
  keyword: keywordTokenizer,
  lowercase: (text) => lowercaseFilter(letterTokenizer(text)),
};

/** The built-in token filters that take no parameters, by name. */
export const TOKEN_FILTERS: Readonly<Record<string, TokenFilter>> = {
  lowercase: lowercaseFilter,
  uppercase: map((t) => t.toUpperCase()),
  trim: map((t) => t.trim()),
  reverse: map((t) => [...t].reverse().join("")),
  stop: stopFilter(ENGLISH_STOP_WORDS),
  // Unlike `stop`, `unique` closes the gaps it leaves.
  unique: (ts) => {
    const seen = new Set<string>();
    let removed = 0;
    const out: ChainToken[] = [];
    for (const t of ts) {
      if (seen.has(t.token)) removed++;
      else {
        seen.add(t.token);
        out.push({ ...t, position: t.position - removed });
      }
    }
    return out;
  },
  asciifolding: map(foldAscii),
};

/** The built-in analyzers as chains (`default` is `standard`). */
export const ANALYZER_CHAINS: Readonly<Record<string, Chain>> = (() => {
  const tk = (name: string) => ({ name, run: TOKENIZERS[name]! });
  const tf = (name: string) => ({ name, run: TOKEN_FILTERS[name]! });
  const standard = { tokenizer: tk("standard"), filters: [tf("lowercase")] };
  return {
    standard,
    default: standard,
    simple: { tokenizer: tk("lowercase"), filters: [] },
    whitespace: { tokenizer: tk("whitespace"), filters: [] },
    keyword: { tokenizer: tk("keyword"), filters: [] },
    stop: { tokenizer: tk("lowercase"), filters: [tf("stop")] },
  };
})();
