// Linear-time pattern matching for user patterns (Lucene regular expressions, wildcards): patterns
// become expression trees matched by derivatives, a lazily built DFA whose states are memoised
// and counted, so no input can make matching backtrack and no pattern can grow memory unbounded.

import { esError } from "../_errors.ts";
import { Builder, type Node, tooComplex } from "./pattern_nodes.ts";

export { Builder, tooComplex };

/** Lucene's `max_determinized_states` default. */
export const MAX_DETERMINIZED_STATES = 10000;

/**
 * States one search may determinize over all its patterns together (ten patterns at Lucene's
 * per-pattern default), so a request listing thousands of costly patterns is refused instead of
 * stalling the engine.
 */
export const MAX_REQUEST_STATES = 100_000;

/** A budget of determinized states and what has been spent of it. */
export interface PatternBudget {
  readonly max: number;
  used: number;
}

let effort: PatternBudget | null = null;

/**
 * Runs `fn` with a budget of `max` determinized states shared by every pattern it compiles; given
 * a {@link PatternBudget} instead, `fn` spends from it, so a request run in steps (a time-sliced
 * search) has one budget over all its steps.
 */
export function withPatternBudget<T>(max: number | PatternBudget, fn: () => T): T {
  const outer = effort;
  effort = typeof max === "number" ? { max, used: 0 } : max;
  try {
    return fn();
  } finally {
    effort = outer;
  }
}

function spend(states: number): void {
  if (!effort) return;
  effort.used += states;
  if (effort.used > effort.max) {
    throw esError(
      "too_complex_to_determinize_exception",
      `Determinizing the automata of this request would require more than ${effort.max} effort in total.`,
    );
  }
}

function inSet(ranges: number[], c: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (c >= ranges[i]! && c <= ranges[i + 1]!) return true;
  }
  return false;
}

function numValue(acc: string): number {
  return acc === "" ? 0 : Number(acc);
}

/** How an automaton matches and how large it may grow. */
export interface AutomatonOptions {
  /** Letters match either case (`case_insensitive`). */
  caseInsensitive?: boolean;
  /** The most states it may determinize to; {@link MAX_DETERMINIZED_STATES} by default. */
  maxStates?: number;
}

/** A compiled pattern: `test(text)` runs in time linear in the text, states memoised and bounded. */
export class Automaton {
  readonly #b: Builder;
  readonly #start: Node;
  readonly #caseInsensitive: boolean;
  readonly #maxStates: number;
  readonly #nullable = new Map<number, boolean>();
  readonly #next = new Map<number, Map<number, Node>>();

  constructor(b: Builder, start: Node, opts: AutomatonOptions = {}) {
    this.#b = b;
    this.#start = start;
    this.#caseInsensitive = opts.caseInsensitive ?? false;
    this.#maxStates = opts.maxStates ?? MAX_DETERMINIZED_STATES;
  }

  /**
   * Builds every state up front, as Lucene determinizes, so a pattern that needs more than the
   * allowed states fails before any matching, whatever the data.
   */
  determinize(): this {
    const alphabet = this.#b.representatives(this.#caseInsensitive);
    const seen = new Set<number>([this.#start.id]);
    const queue: Node[] = [this.#start];
    let transitions = 0;
    while (queue.length > 0) {
      const state = queue.pop()!;
      for (const c of alphabet) {
        const to = this.#derive(state, c);
        if (to.kind === "none") continue;
        transitions++;
        if (seen.has(to.id)) continue;
        seen.add(to.id);
        if (seen.size > this.#maxStates) throw tooComplex(seen.size, this.#maxStates, transitions);
        if (seen.size % 256 === 0) spend(256);
        queue.push(to);
      }
    }
    spend(seen.size % 256);
    return this;
  }

  /** True when the whole `text` matches. */
  test(text: string): boolean {
    let state = this.#start;
    for (let i = 0; i < text.length; i++) {
      const c = text.codePointAt(i)!;
      if (c > 0xffff) i++;
      state = this.#step(state, c);
      if (state.kind === "none") return false;
    }
    return this.#isNullable(state);
  }

  #step(state: Node, c: number): Node {
    let row = this.#next.get(state.id);
    if (!row) {
      const limit = 4 * this.#maxStates + 10_000;
      if (this.#next.size >= limit) throw tooComplex(this.#next.size, limit);
      row = new Map();
      this.#next.set(state.id, row);
    }
    let to = row.get(c);
    if (!to) {
      to = this.#derive(state, c);
      if (row.size < 4096) row.set(c, to);
    }
    return to;
  }

  #matches(n: Node & { kind: "set" }, c: number): boolean {
    let hit = inSet(n.ranges, c);
    if (!hit && this.#caseInsensitive) {
      const ch = String.fromCodePoint(c);
      for (const v of [ch.toLowerCase(), ch.toUpperCase()]) {
        if ([...v].length === 1 && inSet(n.ranges, v.codePointAt(0)!)) hit = true;
      }
    }
    return hit !== n.neg;
  }

  #isNullable(n: Node): boolean {
    const known = this.#nullable.get(n.id);
    if (known !== undefined) return known;
    let out: boolean;
    switch (n.kind) {
      case "eps":
        out = true;
        break;
      case "none":
      case "set":
        out = false;
        break;
      case "cat":
        out = this.#isNullable(n.a) && this.#isNullable(n.b);
        break;
      case "alt":
        out = n.items.some((m) => this.#isNullable(m));
        break;
      case "and":
        out = n.items.every((m) => this.#isNullable(m));
        break;
      case "not":
        out = !this.#isNullable(n.a);
        break;
      case "rep":
        out = n.min === 0 || this.#isNullable(n.a);
        break;
      case "num": {
        const v = numValue(n.acc);
        out = n.acc !== "" && v >= n.lo && v <= n.hi && (n.width === 0 || n.acc.length === n.width);
        break;
      }
    }
    this.#nullable.set(n.id, out);
    return out;
  }

  #derive(n: Node, c: number): Node {
    const b = this.#b;
    switch (n.kind) {
      case "none":
      case "eps":
        return b.none;
      case "set":
        return this.#matches(n, c) ? b.eps : b.none;
      case "cat": {
        const first = b.cat(this.#step(n.a, c), n.b);
        return this.#isNullable(n.a) ? b.alt([first, this.#step(n.b, c)]) : first;
      }
      case "alt":
        return b.alt(n.items.map((m) => this.#step(m, c)));
      case "and":
        return b.and(n.items.map((m) => this.#step(m, c)));
      case "not":
        return b.not(this.#step(n.a, c));
      case "rep": {
        const rest = b.rep(n.a, Math.max(n.min - 1, 0), n.max - 1);
        return b.cat(this.#step(n.a, c), rest);
      }
      case "num": {
        if (c < 48 || c > 57) return b.none;
        let acc = n.acc + String.fromCharCode(c);
        if (n.width > 0 && acc.length > n.width) return b.none;
        // Without a fixed width, leading zeros are free: keep the value, not the digits.
        if (n.width === 0) acc = acc.replace(/^0+(?=\d)/, "");
        if (numValue(acc) > n.hi) return b.none;
        return b.num(n.lo, n.hi, n.width, acc);
      }
    }
  }
}

/**
 * Compiles a Lucene wildcard pattern: `*` any string, `?` any one character, `\` makes the next
 * character literal; letters match either case with `caseInsensitive`.
 */
export function wildcardAutomaton(pattern: string, caseInsensitive = false): Automaton {
  const b = new Builder();
  const parts: Node[] = [];
  const cps = [...pattern];
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i]!;
    if (ch === "*") parts.push(b.anyString);
    else if (ch === "?") parts.push(b.any);
    else if (ch === "\\" && i + 1 < cps.length) {
      parts.push(b.char(cps[++i]!.codePointAt(0)!));
    } else parts.push(b.char(ch.codePointAt(0)!));
  }
  let node = b.eps;
  for (let i = parts.length - 1; i >= 0; i--) node = b.cat(parts[i]!, node);
  return new Automaton(b, node, { caseInsensitive });
}

/** The literal text before a wildcard pattern's first unescaped `*` or `?`, escapes removed. */
export function wildcardPrefix(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*" || ch === "?") break;
    if (ch === "\\" && i + 1 < pattern.length) out += pattern[++i];
    else out += ch;
  }
  return out;
}
