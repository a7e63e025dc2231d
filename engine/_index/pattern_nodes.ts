// Pattern expression trees for the automaton: nodes with hash-consing (equal trees are one
// object with one id), so derivatives stay finite and states can be counted. Internal.

import { type EngineError, esError } from "../_errors.ts";

/** 400 raised when a pattern needs more automaton states than allowed. */
export function tooComplex(states: number, max: number, transitions = states): EngineError {
  return esError(
    "too_complex_to_determinize_exception",
    `Determinizing automaton with ${states} states and ${transitions} transitions would require more than ${max} effort.`,
  );
}

/** A node of a pattern's expression tree. */
export type Node =
  | { id: number; kind: "none" | "eps" }
  | { id: number; kind: "set"; ranges: number[]; neg: boolean }
  | { id: number; kind: "cat"; a: Node; b: Node }
  | { id: number; kind: "alt" | "and"; items: Node[] }
  | { id: number; kind: "not"; a: Node }
  | { id: number; kind: "rep"; a: Node; min: number; max: number }
  | { id: number; kind: "num"; lo: number; hi: number; width: number; acc: string };

type Shape = Node extends infer N ? N extends Node ? Omit<N, "id"> : never : never;

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
    this.any = this.set([0, 0x10ffff]);
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

  /** A character class: the code points in `ranges` (pairs, inclusive), or with `neg` all others. */
  set(ranges: number[], neg = false): Node {
    return this.#intern({ kind: "set", ranges, neg });
  }

  char(c: number): Node {
    return this.set([c, c]);
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
