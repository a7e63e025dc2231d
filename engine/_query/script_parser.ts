// Parser for the small, safe subset of Painless used in update scripts (no eval, no Function).

import { type EngineError, esError, illegalArgument } from "../_errors.ts";

/** A node of a parsed script. */
export type ScriptNode =
  | { k: "lit"; v: unknown }
  | { k: "var"; name: string }
  | { k: "member"; obj: ScriptNode; key: ScriptNode }
  | { k: "call"; obj: ScriptNode; method: string; args: ScriptNode[] }
  | { k: "list"; items: ScriptNode[] }
  | { k: "map"; entries: Array<[ScriptNode, ScriptNode]> }
  | { k: "bin"; op: string; l: ScriptNode; r: ScriptNode }
  | { k: "not"; e: ScriptNode }
  | { k: "neg"; e: ScriptNode }
  | { k: "assign"; op: string; target: ScriptNode; value: ScriptNode }
  | { k: "step"; op: "++" | "--"; target: ScriptNode }
  | { k: "if"; cond: ScriptNode; then: ScriptNode[]; else: ScriptNode[] }
  | { k: "fn"; name: string; args: ScriptNode[] }
  | { k: "cond"; test: ScriptNode; then: ScriptNode; else: ScriptNode }
  | { k: "ret"; e: ScriptNode };

/** Painless type names a local declaration may start with (`double d = ...`). */
const DECLARATION_TYPES = new Set(["def", "var", "double", "float", "int", "long", "boolean"]);

/** 400 `script_exception` with a `compile error` as Elasticsearch reports Painless parse failures. */
export function scriptError(source: string, reason: string, runtime = false): EngineError {
  return esError("script_exception", runtime ? "runtime error" : "compile error", {
    script_stack: [source],
    script: source,
    lang: "painless",
  }, illegalArgument(reason));
}

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?[LlFfDd]?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_]*)|(\+\+|--|\+=|-=|\*=|\/=|==|!=|<=|>=|&&|\|\||[-+*/%=.;,()[\]{}<>!:?]))/y;

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m) throw scriptError(source, `unexpected character [${source.slice(at).trim()[0]}]`);
    tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
  }
  return tokens;
}

const BINARY: Array<string[]> = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], [
  "*",
  "/",
  "%",
]];

class Parser {
  private at = 0;
  constructor(private readonly tokens: string[], private readonly source: string) {}

  private peek(): string | undefined {
    return this.tokens[this.at];
  }
  private next(): string {
    const t = this.tokens[this.at++];
    if (t === undefined) throw scriptError(this.source, "unexpected end of script.");
    return t;
  }
  private expect(t: string): void {
    const got = this.next();
    if (got !== t) throw scriptError(this.source, `invalid sequence of tokens near ['${got}'].`);
  }

  program(): ScriptNode[] {
    const out: ScriptNode[] = [];
    while (this.peek() !== undefined) {
      if (this.peek() === ";") {
        this.at++;
        continue;
      }
      out.push(this.statement());
    }
    return out;
  }

  private block(): ScriptNode[] {
    if (this.peek() !== "{") return [this.statement()];
    this.at++;
    const out: ScriptNode[] = [];
    while (this.peek() !== "}") {
      if (this.peek() === ";") this.at++;
      else out.push(this.statement());
    }
    this.at++;
    return out;
  }

  private statement(): ScriptNode {
    if (this.peek() === "return") {
      this.at++;
      return { k: "ret", e: this.expr(0) };
    }
    const declared = this.tokens[this.at + 1];
    if (
      DECLARATION_TYPES.has(this.peek() ?? "") && declared !== undefined &&
      /^[A-Za-z_]\w*$/.test(declared) && this.tokens[this.at + 2] === "="
    ) {
      this.at += 3;
      return { k: "assign", op: "=", target: { k: "var", name: declared }, value: this.expr(0) };
    }
    if (this.peek() === "if") {
      this.at++;
      this.expect("(");
      const cond = this.expr(0);
      this.expect(")");
      const then = this.block();
      let otherwise: ScriptNode[] = [];
      if (this.peek() === "else") {
        this.at++;
        otherwise = this.block();
      }
      return { k: "if", cond, then, else: otherwise };
    }
    const target = this.expr(0);
    const op = this.peek();
    if (op === "=" || op === "+=" || op === "-=" || op === "*=" || op === "/=") {
      this.at++;
      this.checkTarget(target);
      return { k: "assign", op, target, value: this.expr(0) };
    }
    if (op === "++" || op === "--") {
      this.at++;
      this.checkTarget(target);
      return { k: "step", op, target };
    }
    if (op !== undefined && op !== ";" && op !== "}") {
      throw scriptError(this.source, `invalid sequence of tokens near ['${op}'].`);
    }
    return target;
  }

  private checkTarget(node: ScriptNode): void {
    if (node.k !== "member" && node.k !== "var") {
      throw scriptError(this.source, "invalid assignment target");
    }
  }

  private expr(level: number): ScriptNode {
    if (level === 0) {
      const test = this.expr(1);
      if (this.peek() !== "?") return test;
      this.at++;
      const then = this.expr(0);
      this.expect(":");
      return { k: "cond", test, then, else: this.expr(0) };
    }
    // Level 0 is the conditional; binary operators bind from level 1 (`||`) inwards.
    const ops = BINARY[level - 1];
    if (ops === undefined) return this.unary();
    let left = this.expr(level + 1);
    while (ops.includes(this.peek() ?? "")) {
      const op = this.next();
      left = { k: "bin", op, l: left, r: this.expr(level + 1) };
    }
    return left;
  }

  private unary(): ScriptNode {
    if (this.peek() === "!") {
      this.at++;
      return { k: "not", e: this.unary() };
    }
    if (this.peek() === "-") {
      this.at++;
      return { k: "neg", e: this.unary() };
    }
    if (this.peek() === "++" || this.peek() === "--") {
      const op = this.next() as "++" | "--";
      return { k: "step", op, target: this.postfix() };
    }
    return this.postfix();
  }

  private postfix(): ScriptNode {
    let node = this.primary();
    for (;;) {
      const t = this.peek();
      if (t === ".") {
        this.at++;
        const name = this.next();
        if (!/^[A-Za-z_]\w*$/.test(name)) {
          throw scriptError(this.source, `invalid member name [${name}]`);
        }
        if (this.peek() === "(") {
          this.at++;
          const args: ScriptNode[] = [];
          while (this.peek() !== ")") {
            args.push(this.expr(0));
            if (this.peek() === ",") this.at++;
          }
          this.at++;
          node = { k: "call", obj: node, method: name, args };
        } else node = { k: "member", obj: node, key: { k: "lit", v: name } };
      } else if (t === "[") {
        this.at++;
        const key = this.expr(0);
        this.expect("]");
        node = { k: "member", obj: node, key };
      } else return node;
    }
  }

  private primary(): ScriptNode {
    const t = this.next();
    if (/^\d/.test(t)) return { k: "lit", v: Number(t.replace(/[LlFfDd]$/, "")) };
    if (t[0] === "'" || t[0] === '"') {
      return { k: "lit", v: t.slice(1, -1).replace(/\\(.)/g, "$1") };
    }
    if (t === "true" || t === "false") return { k: "lit", v: t === "true" };
    if (t === "null") return { k: "lit", v: null };
    if (t === "(") {
      const inner = this.expr(0);
      this.expect(")");
      return inner;
    }
    if (t === "[") return this.collection();
    if (/^[A-Za-z_]/.test(t) && this.peek() === "(") {
      this.at++;
      const args: ScriptNode[] = [];
      while (this.peek() !== ")") {
        args.push(this.expr(0));
        if (this.peek() === ",") this.at++;
        else if (this.peek() !== ")") this.expect(")");
      }
      this.at++;
      return { k: "fn", name: t, args };
    }
    if (/^[A-Za-z_]/.test(t)) return { k: "var", name: t };
    throw scriptError(this.source, `invalid sequence of tokens near ['${t}'].`);
  }

  private collection(): ScriptNode {
    if (this.peek() === ":") {
      this.at++;
      this.expect("]");
      return { k: "map", entries: [] };
    }
    const items: ScriptNode[] = [];
    const entries: Array<[ScriptNode, ScriptNode]> = [];
    while (this.peek() !== "]") {
      const item = this.expr(0);
      if (this.peek() === ":") {
        this.at++;
        entries.push([item, this.expr(0)]);
      } else items.push(item);
      if (this.peek() === ",") this.at++;
    }
    this.at++;
    return entries.length > 0 ? { k: "map", entries } : { k: "list", items };
  }
}

const CACHE = new Map<string, ScriptNode[]>();

/** Parses (and caches) a script's statements. */
export function parseScript(source: string): ScriptNode[] {
  let program = CACHE.get(source);
  if (!program) {
    program = new Parser(tokenize(source), source).program();
    if (CACHE.size > 500) CACHE.clear();
    CACHE.set(source, program);
  }
  return program;
}
