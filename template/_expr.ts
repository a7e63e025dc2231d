// The small, safe test language of `@{if, expr, fragment}`: paths (`a.b`, `:a.b`), literals
// ('x', "x", 12, true, false, null), comparisons `== != > >= < <=`, `&& || !` (and `and or not`),
// parentheses. No eval, no calls, no coercion between strings and numbers.

import { type ArgPath, MISSING, parsePath, resolvePath } from "./_path.ts";

/** A parsed test expression. */
export type Expr =
  | { readonly kind: "path"; readonly path: ArgPath }
  | { readonly kind: "literal"; readonly value: unknown }
  | { readonly kind: "not"; readonly operand: Expr }
  | { readonly kind: "binary"; readonly op: string; readonly left: Expr; readonly right: Expr };

const TOKEN =
  /\s*(?:(&&|\|\||==|!=|>=|<=|>|<|!|\(|\))|'([^'\\]*)'|"([^"\\]*)"|(-?\d+(?:\.\d+)?)|:?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*))/y;
const WORDS: Record<string, string> = { and: "&&", or: "||", not: "!" };

type Token = { op?: string; value?: unknown; path?: string; at: number };

function tokenize(src: string): Token[] | number {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    if (/^\s*$/.test(src.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(src);
    if (!m) return at + (src.slice(at).length - src.slice(at).trimStart().length);
    const start = m.index + m[0].length - m[0].trimStart().length;
    if (m[1]) tokens.push({ op: m[1], at: start });
    else if (m[2] !== undefined) tokens.push({ value: m[2], at: start });
    else if (m[3] !== undefined) tokens.push({ value: m[3], at: start });
    else if (m[4] !== undefined) tokens.push({ value: Number(m[4]), at: start });
    else if (m[5]! in WORDS) tokens.push({ op: WORDS[m[5]!], at: start });
    else if (m[5] === "true" || m[5] === "false") {
      tokens.push({ value: m[5] === "true", at: start });
    } else if (m[5] === "null") tokens.push({ value: null, at: start });
    else tokens.push({ path: m[5], at: start });
  }
  return tokens;
}

/**
 * Parses an expression. On failure returns the offset (in `src`) and the problem.
 */
export function parseExpr(src: string): Expr | { error: string; at: number } {
  const tokens = tokenize(src);
  if (typeof tokens === "number") return { error: "unexpected character in the test", at: tokens };
  let k = 0;
  const fail = (problem: string): never => {
    throw { error: problem, at: tokens[k]?.at ?? src.length };
  };
  const primary = (): Expr => {
    const t = tokens[k++];
    if (!t) return fail("the test ends early: add a path or a value");
    if (t.op === "!") return { kind: "not", operand: primary() };
    if (t.op === "(") {
      const inner = or();
      if (tokens[k++]?.op !== ")") fail("missing )");
      return inner;
    }
    if (t.path !== undefined) {
      const path = parsePath(t.path);
      if (!path) {
        k--;
        return fail(`"${t.path}" is not an allowed path`);
      }
      return { kind: "path", path };
    }
    if (t.op !== undefined) {
      k--;
      return fail(`unexpected "${t.op}"`);
    }
    return { kind: "literal", value: t.value };
  };
  const compare = (): Expr => {
    const left = primary();
    const op = tokens[k]?.op;
    if (op && ["==", "!=", ">", ">=", "<", "<="].includes(op)) {
      k++;
      return { kind: "binary", op, left, right: primary() };
    }
    return left;
  };
  const and = (): Expr => {
    let left = compare();
    while (tokens[k]?.op === "&&") {
      k++;
      left = { kind: "binary", op: "&&", left, right: compare() };
    }
    return left;
  };
  const or = (): Expr => {
    let left = and();
    while (tokens[k]?.op === "||") {
      k++;
      left = { kind: "binary", op: "||", left, right: and() };
    }
    return left;
  };
  try {
    const expr = or();
    if (k < tokens.length) fail("unexpected text after the test");
    return expr;
  } catch (e) {
    return e as { error: string; at: number };
  }
}

/** Truthiness of tests: null, undefined, false, 0, NaN, "" and empty arrays are false. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

/** Evaluates an expression against the named arguments. */
export function evaluate(expr: Expr, args: unknown): unknown {
  switch (expr.kind) {
    case "literal":
      return expr.value;
    case "path": {
      const v = resolvePath(args, expr.path);
      return v === MISSING ? undefined : v;
    }
    case "not":
      return !truthy(evaluate(expr.operand, args));
    case "binary": {
      if (expr.op === "&&") {
        return truthy(evaluate(expr.left, args)) && truthy(evaluate(expr.right, args));
      }
      if (expr.op === "||") {
        return truthy(evaluate(expr.left, args)) || truthy(evaluate(expr.right, args));
      }
      return compare(expr.op, evaluate(expr.left, args), evaluate(expr.right, args));
    }
  }
}

function compare(op: string, a: unknown, b: unknown): boolean {
  const an = a ?? null;
  const bn = b ?? null;
  if (op === "==") return an === bn;
  if (op === "!=") return an !== bn;
  if (typeof a !== typeof b || (typeof a !== "number" && typeof a !== "string")) return false;
  const x = a as number | string;
  const y = b as number | string;
  return op === ">" ? x > y : op === ">=" ? x >= y : op === "<" ? x < y : x <= y;
}
