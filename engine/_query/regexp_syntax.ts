// Lucene's regular expression syntax (the `regexp` query and `/…/` in `query_string`), parsed
// into the linear-time automaton. Always anchored; optional operators follow the `flags`.

import { type EngineError, illegalArgument } from "../_errors.ts";
import { Automaton, Builder, MAX_DETERMINIZED_STATES } from "../_index/automaton.ts";

/** Optional operators, as Lucene's RegExp flags. */
export const REGEXP_FLAGS: Readonly<Record<string, number>> = {
  INTERSECTION: 0x1,
  COMPLEMENT: 0x2,
  EMPTY: 0x4,
  ANYSTRING: 0x8,
  INTERVAL: 0x20,
  ALL: 0xff,
  NONE: 0,
};

/** Parses `flags` (`"INTERSECTION|COMPLEMENT"`, default ALL) into a bit set. */
export function parseRegexpFlags(flags: unknown): number {
  if (flags === undefined || flags === null || flags === "") return REGEXP_FLAGS.ALL!;
  if (typeof flags === "number") return flags;
  let out = 0;
  for (const name of String(flags).split("|")) {
    const bit = REGEXP_FLAGS[name.trim().toUpperCase()];
    if (bit === undefined) {
      throw illegalArgument(`Unknown regexp flag [${name}]`);
    }
    out |= bit;
  }
  return out;
}

type Node = ReturnType<Builder["char"]>;

const SHORTHAND: Record<string, [number[], boolean]> = {
  d: [[48, 57], false],
  D: [[48, 57], true],
  s: [[9, 13, 32, 32], false],
  S: [[9, 13, 32, 32], true],
  w: [[48, 57, 65, 90, 95, 95, 97, 122], false],
  W: [[48, 57, 65, 90, 95, 95, 97, 122], true],
};

function invalid(message: string): EngineError {
  return illegalArgument(message);
}

class Parser {
  readonly #cps: string[];
  #pos = 0;
  constructor(text: string, readonly b: Builder, readonly flags: number) {
    this.#cps = [...text];
  }

  parse(): Node {
    const node = this.#union();
    if (this.#pos < this.#cps.length) {
      throw invalid(`end-of-string expected at position ${this.#pos}`);
    }
    return node;
  }

  #peek(chars: string): boolean {
    const ch = this.#cps[this.#pos];
    return ch !== undefined && chars.includes(ch);
  }

  #match(ch: string): boolean {
    if (this.#cps[this.#pos] !== ch) return false;
    this.#pos++;
    return true;
  }

  #more(): boolean {
    return this.#pos < this.#cps.length;
  }

  #next(): string {
    const ch = this.#cps[this.#pos++];
    if (ch === undefined) throw invalid(`unexpected end-of-string`);
    return ch;
  }

  #has(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  #union(): Node {
    const items = [this.#inter()];
    while (this.#match("|")) items.push(this.#inter());
    return this.b.alt(items);
  }

  #inter(): Node {
    const items = [this.#concat()];
    while (this.#has(REGEXP_FLAGS.INTERSECTION!) && this.#match("&")) items.push(this.#concat());
    return this.b.and(items);
  }

  #concat(): Node {
    const parts: Node[] = [];
    while (
      this.#more() && !this.#peek(")|") &&
      !(this.#has(REGEXP_FLAGS.INTERSECTION!) && this.#peek("&"))
    ) {
      parts.push(this.#repeat());
    }
    let node = this.b.eps;
    for (let i = parts.length - 1; i >= 0; i--) node = this.b.cat(parts[i]!, node);
    return node;
  }

  #repeat(): Node {
    let node = this.#complement();
    while (this.#peek("?*+{")) {
      const op = this.#next();
      if (op === "?") node = this.b.rep(node, 0, 1);
      else if (op === "*") node = this.b.rep(node, 0, Infinity);
      else if (op === "+") node = this.b.rep(node, 1, Infinity);
      else {
        const min = this.#integer();
        let max = min;
        if (this.#match(",")) max = this.#peek("}") ? Infinity : this.#integer();
        if (!this.#match("}")) throw invalid(`expected '}' at position ${this.#pos}`);
        if (max < min) throw invalid(`invalid repetition {${min},${max}}`);
        node = this.b.rep(node, min, max);
      }
    }
    return node;
  }

  #integer(): number {
    const start = this.#pos;
    while (this.#peek("0123456789")) this.#pos++;
    if (start === this.#pos) throw invalid(`integer expected at position ${this.#pos}`);
    return Number(this.#cps.slice(start, this.#pos).join(""));
  }

  #complement(): Node {
    if (this.#has(REGEXP_FLAGS.COMPLEMENT!) && this.#match("~")) {
      return this.b.and([this.b.anyString, this.b.not(this.#complement())]);
    }
    return this.#charClassExp();
  }

  #charClassExp(): Node {
    if (!this.#match("[")) return this.#simple();
    const neg = this.#match("^");
    const ranges: number[] = [];
    while (this.#more() && !this.#peek("]")) {
      const shorthand = this.#shorthand();
      if (shorthand) {
        if (shorthand[1]) throw invalid(`negated shorthand classes are not allowed in [...]`);
        ranges.push(...shorthand[0]);
        continue;
      }
      const lo = this.#charExp();
      if (this.#peek("-") && this.#cps[this.#pos + 1] !== "]" && this.#pos + 1 < this.#cps.length) {
        this.#pos++;
        const hi = this.#charExp();
        if (hi < lo) throw invalid(`invalid range: from (${lo}) cannot be > to (${hi})`);
        ranges.push(lo, hi);
      } else ranges.push(lo, lo);
    }
    if (!this.#match("]")) throw invalid(`expected ']' at position ${this.#pos}`);
    return this.b.set(ranges, neg);
  }

  #shorthand(): [number[], boolean] | undefined {
    if (this.#cps[this.#pos] !== "\\") return undefined;
    const s = SHORTHAND[this.#cps[this.#pos + 1] ?? ""];
    if (s) this.#pos += 2;
    return s;
  }

  #charExp(): number {
    if (this.#match("\\")) return this.#next().codePointAt(0)!;
    return this.#next().codePointAt(0)!;
  }

  #simple(): Node {
    const b = this.b;
    if (this.#match(".")) return b.any;
    if (this.#has(REGEXP_FLAGS.EMPTY!) && this.#match("#")) return b.none;
    if (this.#has(REGEXP_FLAGS.ANYSTRING!) && this.#match("@")) return b.anyString;
    if (this.#match('"')) {
      const start = this.#pos;
      while (this.#more() && !this.#peek('"')) this.#pos++;
      if (!this.#match('"')) throw invalid(`expected '"' at position ${this.#pos}`);
      return b.literal(this.#cps.slice(start, this.#pos - 1).join(""));
    }
    if (this.#match("(")) {
      if (this.#match(")")) return b.eps;
      const inner = this.#union();
      if (!this.#match(")")) throw invalid(`expected ')' at position ${this.#pos}`);
      return inner;
    }
    if (this.#has(REGEXP_FLAGS.INTERVAL!) && this.#match("<")) return this.#interval();
    const shorthand = this.#shorthand();
    if (shorthand) return b.set(shorthand[0], shorthand[1]);
    if (this.#peek("*+?{")) throw invalid(`illegal repetition at position ${this.#pos}`);
    return b.char(this.#charExp());
  }

  #interval(): Node {
    const start = this.#pos;
    while (this.#more() && !this.#peek(">")) this.#pos++;
    const body = this.#cps.slice(start, this.#pos).join("");
    if (!this.#match(">")) throw invalid(`expected '>' at position ${this.#pos}`);
    const m = /^(\d+)-(\d+)$/.exec(body);
    if (!m) throw invalid(`interval syntax error at position ${this.#pos - 1}`);
    let lo = Number(m[1]);
    let hi = Number(m[2]);
    if (lo > hi) [lo, hi] = [hi, lo];
    const width = m[1]!.length === m[2]!.length ? m[1]!.length : 0;
    return this.b.num(lo, hi, width);
  }
}

/** Options for {@link compileRegexp}. */
export interface RegexpOptions {
  flags?: number;
  caseInsensitive?: boolean;
  maxDeterminizedStates?: number;
}

const compiled = new Map<string, Automaton>();

/**
 * Compiles a Lucene regular expression; a syntax error is a 400 `illegal_argument_exception`.
 * Recent patterns are kept compiled (a few dozen), so repeating one costs nothing.
 */
export function compileRegexp(pattern: string, options: RegexpOptions = {}): Automaton {
  const key = JSON.stringify([
    pattern,
    options.flags ?? null,
    options.caseInsensitive ?? false,
    options.maxDeterminizedStates ?? null,
  ]);
  const hit = compiled.get(key);
  if (hit) {
    compiled.delete(key);
    compiled.set(key, hit);
    return hit;
  }
  const automaton = build(pattern, options);
  if (compiled.size >= 32) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, automaton);
  return automaton;
}

function build(pattern: string, options: RegexpOptions): Automaton {
  const b = new Builder();
  const node = new Parser(pattern, b, options.flags ?? REGEXP_FLAGS.ALL!).parse();
  const max = options.maxDeterminizedStates ?? MAX_DETERMINIZED_STATES;
  return new Automaton(b, node, { caseInsensitive: options.caseInsensitive, maxStates: max })
    .determinize();
}
