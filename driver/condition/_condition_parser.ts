// The lexer and recursive-descent parser of the condition language (grammar on
// ConditionExpression in condition_expression.ts).
// Produces frozen, `kind`-tagged nodes; evaluation lives in condition_expression.ts. Bounded: the
// expression's length and its nesting depth are limited, so no input can exhaust the stack.

/** A parsed expression node; `at`/`end` are offsets of its text in the expression. */
export type ExprNode =
  | { readonly kind: "literal"; readonly value: unknown; readonly at: number; readonly end: number }
  | { readonly kind: "name"; readonly name: string; readonly at: number; readonly end: number }
  | {
    readonly kind: "member";
    readonly object: ExprNode;
    readonly key: string | ExprNode;
    readonly at: number;
    readonly end: number;
  }
  | {
    readonly kind: "call";
    readonly object: ExprNode;
    readonly method: "size" | "length" | "isEmpty";
    readonly at: number;
    readonly end: number;
  }
  | {
    readonly kind: "list";
    readonly items: readonly ExprNode[];
    readonly at: number;
    readonly end: number;
  }
  | { readonly kind: "not"; readonly operand: ExprNode; readonly at: number; readonly end: number }
  | {
    readonly kind: "binary";
    readonly op: BinaryOp;
    readonly left: ExprNode;
    readonly right: ExprNode;
    readonly at: number;
    readonly end: number;
  };

/** The binary operators after word forms are folded (`and` → `&&`, `not in` → `!in`). */
export type BinaryOp = "&&" | "||" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "!in" | "+";

/** A parse problem at an offset of the expression. */
export class ParseProblem {
  /** What is wrong and what to do. */
  readonly problem: string;
  /** 0-based offset in the expression. */
  readonly offset: number;
  constructor(problem: string, offset: number) {
    this.problem = problem;
    this.offset = offset;
  }
}

/** The longest expression accepted. */
export const MAX_EXPRESSION_LENGTH = 10_000;
/**
 * The deepest nesting accepted: parentheses, brackets, `not`, and each link of a member chain or of
 * an operator chain count one level.
 */
export const MAX_EXPRESSION_DEPTH = 100;

type Token = {
  readonly t: string;
  readonly v?: unknown;
  readonly at: number;
  readonly end: number;
};

const UNREACHABLE = new Set(["__proto__", "constructor", "prototype"]);
const CALLABLE = new Set(["size", "length", "isEmpty"]);
const KEYWORDS: Record<string, Token["t"]> = { and: "&&", or: "||", not: "not", in: "in" };
const OPERATOR = /==|!=|<=|>=|&&|\|\||[<>!()[\].,+]/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w$])/y;
const IDENT = /[A-Za-z_$][\w$]*/y;
const ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  "/": "/",
};

function lex(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const parts: string[] = [];
      let j = i + 1;
      let from = j;
      for (; j < src.length && src[j] !== c; j++) {
        if (src[j] !== "\\") continue;
        parts.push(src.slice(from, j));
        const e = src[j + 1] ?? "";
        const u = e === "u" ? /^[0-9a-fA-F]{4}$/.exec(src.slice(j + 2, j + 6)) : null;
        if (u) {
          parts.push(String.fromCharCode(parseInt(u[0], 16)));
          j += 5;
        } else if (Object.hasOwn(ESCAPES, e)) {
          parts.push(ESCAPES[e] as string);
          j++;
        } else throw new ParseProblem("unknown escape in the string; use \\\\ for a backslash", j);
        from = j + 1;
      }
      if (j >= src.length) throw new ParseProblem(`the string is not closed with ${c}`, i);
      parts.push(src.slice(from, j));
      tokens.push({ t: "value", v: parts.join(""), at: i, end: j + 1 });
      i = j + 1;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(src);
    if (num) {
      tokens.push({ t: "value", v: Number(num[0]), at: i, end: i + num[0].length });
      i += num[0].length;
      continue;
    }
    // `:name` is the argument form of the template's rules: the same name.
    const colon = c === ":" ? 1 : 0;
    IDENT.lastIndex = i + colon;
    const id = IDENT.exec(src);
    if (id && colon === 1) {
      const end = i + 1 + id[0].length;
      tokens.push({ t: "name", v: id[0], at: i, end });
      i = end;
      continue;
    }
    if (id) {
      const word = id[0];
      const end = i + word.length;
      if (Object.hasOwn(KEYWORDS, word)) tokens.push({ t: KEYWORDS[word] as string, at: i, end });
      else if (word === "true" || word === "false") {
        tokens.push({ t: "value", v: word === "true", at: i, end });
      } else if (word === "null") tokens.push({ t: "value", v: null, at: i, end });
      else tokens.push({ t: "name", v: word, at: i, end });
      i = end;
      continue;
    }
    OPERATOR.lastIndex = i;
    const op = OPERATOR.exec(src);
    if (op) {
      tokens.push({ t: op[0], at: i, end: i + op[0].length });
      i += op[0].length;
      continue;
    }
    const hint = c === "=" ? "; use == to compare" : c === "&" || c === "|" ? `; use ${c}${c}` : "";
    throw new ParseProblem(`unexpected character "${c}"${hint}`, i);
  }
  return tokens;
}

/** Parses an expression into a node tree, or throws a {@linkcode ParseProblem}. */
export function parseNodes(src: string): ExprNode {
  if (src.length > MAX_EXPRESSION_LENGTH) {
    throw new ParseProblem(`the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`, 0);
  }
  const tokens = lex(src);
  if (tokens.length === 0) throw new ParseProblem("the expression is empty", 0);
  return new NodeParser(src, tokens).expression();
}

/**
 * The recursive descent over one expression's tokens, a method per level of the grammar, lowest
 * precedence first: `or`, `and`, `unary` (`!`, `not`), `comparison`, `sum` (`+`), `postfix`
 * (`.name`, `.size()`, `[index]`), `primary`. Every nesting counts against
 * {@link MAX_EXPRESSION_DEPTH}.
 */
class NodeParser {
  readonly #src: string;
  readonly #tokens: Token[];
  #k = 0;
  #depth = 0;

  constructor(src: string, tokens: Token[]) {
    this.#src = src;
    this.#tokens = tokens;
  }

  /** The whole expression: an `or`, and no token left over. */
  expression(): ExprNode {
    const node = this.#or();
    if (this.#k < this.#tokens.length) {
      const t = this.#peek()?.t;
      this.#fail(
        t === "name" || t === "value"
          ? "two values in a row; join them with and / or or an operator"
          : `unexpected "${t}"`,
      );
    }
    return node;
  }

  #peek(): Token | undefined {
    return this.#tokens[this.#k];
  }

  #fail(problem: string): never {
    throw new ParseProblem(problem, this.#tokens[this.#k]?.at ?? this.#src.length);
  }

  #enter(): void {
    if (++this.#depth > MAX_EXPRESSION_DEPTH) {
      this.#fail(`the expression nests deeper than ${MAX_EXPRESSION_DEPTH} levels`);
    }
  }

  #expect(t: string, problem: string): Token {
    const token = this.#peek();
    if (token?.t !== t) this.#fail(problem);
    this.#k++;
    return token as Token;
  }

  /** A name the expression may not reach (`__proto__`, ...), refused at the current token. */
  #refuseUnreachable(name: string): void {
    if (!UNREACHABLE.has(name)) return;
    this.#k--;
    this.#fail(`"${name}" is not reachable in a test`);
  }

  #primary(): ExprNode {
    const token = this.#peek();
    if (!token) return this.#fail("the expression ends early: add a name or a value");
    this.#k++;
    if (token.t === "value") {
      return { kind: "literal", value: token.v, at: token.at, end: token.end };
    }
    if (token.t === "name") {
      const name = token.v as string;
      this.#refuseUnreachable(name);
      return { kind: "name", name, at: token.at, end: token.end };
    }
    if (token.t === "(") {
      this.#enter();
      const inner = this.#or();
      this.#expect(")", "expected ) to close the (");
      this.#depth--;
      return inner;
    }
    if (token.t === "[") {
      this.#enter();
      const items: ExprNode[] = [];
      if (this.#peek()?.t !== "]") {
        items.push(this.#or());
        while (this.#peek()?.t === ",") {
          this.#k++;
          items.push(this.#or());
        }
      }
      const close = this.#expect("]", "expected , or ] in the list");
      this.#depth--;
      return { kind: "list", items, at: token.at, end: close.end };
    }
    this.#k--;
    return this.#fail(
      `unexpected "${token.t === "!in" ? "not in" : token.t}"; expected a name or a value`,
    );
  }

  #postfix(): ExprNode {
    let node = this.#primary();
    const start = this.#depth;
    while (this.#peek()?.t === "." || this.#peek()?.t === "[") {
      this.#enter();
      node = this.#peek()?.t === "." ? this.#member(node) : this.#index(node);
    }
    this.#depth = start;
    return node;
  }

  /** `.name` or `.size()` after `node` (the current token is the `.`). */
  #member(node: ExprNode): ExprNode {
    this.#k++;
    const name = this.#expect("name", "expected a property name after .");
    const key = name.v as string;
    this.#refuseUnreachable(key);
    if (this.#peek()?.t !== "(") {
      return { kind: "member", object: node, key, at: node.at, end: name.end };
    }
    if (!CALLABLE.has(key)) {
      this.#k--;
      this.#fail(`only .size(), .length() and .isEmpty() can be called, not .${key}()`);
    }
    this.#k++;
    const close = this.#expect(")", `.${key}() takes no arguments`);
    return { kind: "call", object: node, method: key as "size", at: node.at, end: close.end };
  }

  /** `[index]` after `node` (the current token is the `[`). */
  #index(node: ExprNode): ExprNode {
    this.#k++;
    const key = this.#or();
    // `user['constructor']` is `user.constructor` written with a string: refused alike.
    if (key.kind === "literal" && typeof key.value === "string" && UNREACHABLE.has(key.value)) {
      throw new ParseProblem(`"${key.value}" is not reachable in a test`, key.at);
    }
    const close = this.#expect("]", "expected ] after the index");
    return { kind: "member", object: node, key, at: node.at, end: close.end };
  }

  /** Operands joined by `op`, grouped from the left (`a + b + c` is `(a + b) + c`). */
  #chain(op: "+" | "&&" | "||", operand: () => ExprNode): ExprNode {
    let left = operand();
    const start = this.#depth;
    while (this.#peek()?.t === op) {
      this.#k++;
      this.#enter();
      const right = operand();
      left = { kind: "binary", op, left, right, at: left.at, end: right.end };
    }
    this.#depth = start;
    return left;
  }

  #sum(): ExprNode {
    return this.#chain("+", () => this.#postfix());
  }

  #comparison(): ExprNode {
    const left = this.#sum();
    let t = this.#peek()?.t;
    if (t === "not" && this.#tokens[this.#k + 1]?.t === "in") {
      this.#k++;
      t = "!in";
    }
    if (
      t === "==" || t === "!=" || t === "<" || t === "<=" || t === ">" || t === ">=" ||
      t === "in" || t === "!in"
    ) {
      this.#k++;
      const right = this.#sum();
      return { kind: "binary", op: t, left, right, at: left.at, end: right.end };
    }
    return left;
  }

  #unary(): ExprNode {
    const token = this.#peek();
    if (token?.t === "!" || token?.t === "not") {
      this.#k++;
      this.#enter();
      const operand = this.#unary();
      this.#depth--;
      return { kind: "not", operand, at: token.at, end: operand.end };
    }
    return this.#comparison();
  }

  #and(): ExprNode {
    return this.#chain("&&", () => this.#unary());
  }

  #or(): ExprNode {
    return this.#chain("||", () => this.#and());
  }
}
