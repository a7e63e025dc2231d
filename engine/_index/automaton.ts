// Linear-time pattern matching for user patterns (Lucene regular expressions, wildcards): patterns
// become expression trees matched by derivatives, a lazily built DFA whose states are memoised
// and counted, so no input can make matching backtrack and no pattern can grow memory unbounded.

import { EngineError } from "../_errors.ts";

/** Lucene's `max_determinized_states` default. */
export const MAX_DETERMINIZED_STATES = 10000;

type Node =
  | { id: number; kind: "none" | "eps" }
  | { id: number; kind: "set"; ranges: number[]; neg: boolean }
  | { id: number; kind: "cat"; a: Node; b: Node }
  | { id: number; kind: "alt" | "and"; items: Node[] }
  | { id: number; kind: "not"; a: Node }
  | { id: number; kind: "rep"; a: Node; min: number; max: number }
  | { id: number; kind: "num"; lo: number; hi: number; width: number; acc: string };

type Shape = Node extends infer N ? N extends Node ? Omit<N, "id"> : never : never;

/** 400 raised when a pattern needs more automaton states than allowed. */
export function tooComplex(states: number, max: number, transitions = states): EngineError {
  return new EngineError(
    400,
    "too_complex_to_determinize_exception",
    `Determinizing automaton with ${states} states and ${transitions} transitions would require more than ${max} effort.`,
  );
}

/** Expression trees with hash-consing: equal trees are the same object (and the same id). */
export class Builder {
  readonly #interned = new Map<string, Node>();
  readonly none: Node;
  readonly eps: Node;
  readonly any: Node;
  readonly anyString: Node;

  constructor(readonly maxNodes = 200_000) {
    this.none = this.#intern({ kind: "none" });
    this.eps = this.#intern({ kind: "eps" });
    this.any = this.set([0, 0x10ffff], false);
    this.anyString = this.rep(this.any, 0, Infinity);
  }

  get size(): number {
    return this.#interned.size;
  }

  /** One code point per class of characters that every character set treats alike. */
  representatives(caseInsensitive: boolean): number[] {
    const cuts = new Set<number>([0]);
    const cut = (lo: number, hi: number) => {
      cuts.add(lo);
      if (hi < 0x10ffff) cuts.add(hi + 1);
    };
    for (const n of this.#interned.values()) {
      if (n.kind === "num") { for (let d = 48; d <= 57; d++) cut(d, d); }
      if (n.kind !== "set") continue;
      for (let i = 0; i < n.ranges.length; i += 2) {
        const lo = n.ranges[i]!;
        const hi = n.ranges[i + 1]!;
        cut(lo, hi);
        if (caseInsensitive && hi - lo < 64) {
          for (let c = lo; c <= hi; c++) {
            const ch = String.fromCodePoint(c);
            for (const v of [ch.toLowerCase(), ch.toUpperCase()]) {
              const cp = v.codePointAt(0)!;
              if ([...v].length === 1) cut(cp, cp);
            }
          }
        }
      }
    }
    return [...cuts].sort((a, b) => a - b);
  }

  #intern(shape: Shape): Node {
    const key = keyOf(shape);
    let node = this.#interned.get(key);
    if (!node) {
      if (this.#interned.size >= this.maxNodes) {
        throw tooComplex(this.#interned.size, this.maxNodes);
      }
      node = { ...shape, id: this.#interned.size } as Node;
      this.#interned.set(key, node);
    }
    return node;
  }

  set(ranges: number[], neg: boolean): Node {
    return this.#intern({ kind: "set", ranges, neg });
  }

  char(c: number): Node {
    return this.set([c, c], false);
  }

  literal(text: string): Node {
    let out = this.eps;
    const cps = [...text].map((ch) => ch.codePointAt(0)!);
    for (let i = cps.length - 1; i >= 0; i--) out = this.cat(this.char(cps[i]!), out);
    return out;
  }

  cat(a: Node, b: Node): Node {
    if (a.kind === "none" || b.kind === "none") return this.none;
    if (a.kind === "eps") return b;
    if (b.kind === "eps") return a;
    if (a.kind === "cat") return this.cat(a.a, this.cat(a.b, b));
    return this.#intern({ kind: "cat", a, b });
  }

  alt(items: Node[]): Node {
    const flat = new Map<number, Node>();
    for (const n of items) {
      for (const m of n.kind === "alt" ? n.items : [n]) {
        if (m.kind === "none") continue;
        if (m === this.anyString) return m;
        flat.set(m.id, m);
      }
    }
    if (flat.size === 0) return this.none;
    if (flat.size === 1) return flat.values().next().value!;
    return this.#intern({ kind: "alt", items: [...flat.values()].sort((x, y) => x.id - y.id) });
  }

  and(items: Node[]): Node {
    const flat = new Map<number, Node>();
    for (const n of items) {
      for (const m of n.kind === "and" ? n.items : [n]) {
        if (m.kind === "none") return this.none;
        if (m === this.anyString) continue;
        flat.set(m.id, m);
      }
    }
    if (flat.size === 0) return this.anyString;
    if (flat.size === 1) return flat.values().next().value!;
    return this.#intern({ kind: "and", items: [...flat.values()].sort((x, y) => x.id - y.id) });
  }

  not(a: Node): Node {
    if (a.kind === "not") return a.a;
    return this.#intern({ kind: "not", a });
  }

  rep(a: Node, min: number, max: number): Node {
    if (max < min || a.kind === "none") return min === 0 ? this.eps : this.none;
    if (max === 0 || a.kind === "eps") return this.eps;
    if (min === 1 && max === 1) return a;
    if (a.kind === "rep" && a.min === 0 && a.max === Infinity && max === Infinity) return a;
    return this.#intern({ kind: "rep", a, min, max });
  }

  num(lo: number, hi: number, width: number, acc = ""): Node {
    return this.#intern({ kind: "num", lo, hi, width, acc });
  }
}

function keyOf(s: Shape): string {
  switch (s.kind) {
    case "none":
    case "eps":
      return s.kind;
    case "set":
      return `s${s.neg ? "^" : ""}${s.ranges.join(",")}`;
    case "cat":
      return `c${s.a.id},${s.b.id}`;
    case "alt":
    case "and":
      return `${s.kind}${s.items.map((n) => n.id).join(",")}`;
    case "not":
      return `n${s.a.id}`;
    case "rep":
      return `r${s.a.id},${s.min},${s.max}`;
    case "num":
      return `#${s.lo},${s.hi},${s.width},${s.acc}`;
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

/** A compiled pattern: `test(text)` runs in time linear in the text, states memoised and bounded. */
export class Automaton {
  readonly #b: Builder;
  readonly #start: Node;
  readonly #caseInsensitive: boolean;
  readonly #maxStates: number;
  readonly #nullable = new Map<number, boolean>();
  readonly #next = new Map<number, Map<number, Node>>();

  constructor(
    b: Builder,
    start: Node,
    caseInsensitive = false,
    maxStates = MAX_DETERMINIZED_STATES,
  ) {
    this.#b = b;
    this.#start = start;
    this.#caseInsensitive = caseInsensitive;
    this.#maxStates = maxStates;
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
        queue.push(to);
      }
    }
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
 * character literal.
 */
export function wildcardAutomaton(
  pattern: string,
  caseInsensitive = false,
  escapes = true,
): Automaton {
  const b = new Builder();
  const parts: Node[] = [];
  const cps = [...pattern];
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i]!;
    if (ch === "*") parts.push(b.anyString);
    else if (ch === "?") parts.push(b.any);
    else if (escapes && ch === "\\" && i + 1 < cps.length) {
      parts.push(b.char(cps[++i]!.codePointAt(0)!));
    } else parts.push(b.char(ch.codePointAt(0)!));
  }
  let node = b.eps;
  for (let i = parts.length - 1; i >= 0; i--) node = b.cat(parts[i]!, node);
  return new Automaton(b, node, caseInsensitive);
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
