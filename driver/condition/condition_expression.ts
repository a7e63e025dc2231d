// The one condition language of the project: the template's `@{if, test, fragment}` and
// the mapper files' `test="…"` / `<bind value="…">`. Parsed once into nodes (_condition_parser.ts),
// compiled into closures, evaluated against variables by own properties only, with no coercion
// between types. The grammar and the rules are documented on ConditionExpression below.

import { BindError, CommandSyntaxError } from "../input_errors.ts";
import { positionOf } from "../input_errors.ts";
import { type ExprNode, parseNodes, ParseProblem } from "./_condition_parser.ts";
import { compareOrder, contains, equal, kindOf, member, sizeOf } from "./_values.ts";

/** Reads a variable by name; `undefined` when there is none. */
export type VariableLookup = (name: string) => unknown;

/** Options of {@linkcode ConditionExpression.parse}. */
export interface ConditionParseOptions {
  /** Where the expression stands (`users.xml, line 4, column 15`), for evaluation errors. */
  where?: string;
  /**
   * Reports a syntax error at a 0-based offset of the expression, by throwing the caller's own
   * error (positioned in its file). Without it, a `CommandSyntaxError` inside the expression.
   */
  syntaxError?: (problem: string, offset: number) => never;
}

type Eval = (lookup: VariableLookup) => unknown;

/**
 * A parsed, compiled condition: the one small, safe expression language of the project,
 * used by the template's `@{if, test, fragment}` rule and by mapper files' `test="…"`,
 * `collection="…"` and `<bind value="…">`. Evaluating it calls no method of the arguments.
 *
 * Grammar (whitespace between tokens is free; keywords are lower case):
 *
 * ```text
 * expression := or
 * or         := and { ("or" | "||") and }
 * and        := unary { ("and" | "&&") unary }
 * unary      := ("not" | "!") unary | comparison
 * comparison := sum [ ("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in") sum ]
 * sum        := postfix { "+" postfix }
 * postfix    := primary { "." name | "." ("size" | "length" | "isEmpty") "()" | "[" expression "]" }
 * primary    := [":"] name | string | number | "true" | "false" | "null" | "(" expression ")"
 *             | "[" [ expression { "," expression } ] "]"
 * string     := '…' | "…"        (escapes \\ \' \" \n \t \r \b \f \/ \uXXXX)
 * number     := -?digits[.digits][e±digits]
 * ```
 *
 * | Rule | Meaning |
 * |---|---|
 * | names and `.name`, `[index]` | own data properties only (`Object.hasOwn`), Map entries by key, a string's `length` and indices; `__proto__`, `constructor`, `prototype` and inherited members (methods, class getters) are unreachable (written as a name, `.name` or a string index such as `['constructor']` they are a syntax error; an index computed at run time reads them as missing); a missing step gives a missing value, not an error; `:name` is the same as `name` (the argument form of `@{}` rules) |
 * | `== !=` | no coercion: equal only with the same type (`"1" == 1` is false, `0 == ""` is false, `true == 1` is false); numbers and bigints by value; dates by time; missing equals `null` |
 * | `< <= > >=` | numbers with numbers, strings with strings, dates with dates; `null`/missing on either side is false; other pairs are a `BindError` |
 * | `in`, `not in` | membership in an array, Set or list literal (by `==`), a Map's keys or an object's own keys; a null container is false |
 * | `+` | two strings joined or two numbers added; anything else is a `BindError` |
 * | `.size()` `.length()` `.isEmpty()` | the size of a string, array, Map, Set or object (own keys); on null/missing they give a missing value |
 * | `and or not`, a test's result | `true`/`false`; `null`/missing count as false; any other value is a `BindError` that says to compare it (`name != null`) — no truthiness surprises |
 *
 * No `eval`, no `Function`. The expression is at most 10,000 characters and 100 levels deep.
 * Errors never show argument values (they may be secrets), only their kinds.
 *
 * @example
 * ```ts
 * import { ConditionExpression } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const e = new ConditionExpression("name != null and tags.size() > 0");
 * assert.equal(e.test({ name: "a", tags: ["x"] }), true);
 * assert.equal(e.test({ tags: ["x"] }), false);
 * assert.equal(new ConditionExpression("'1' == 1").test({}), false);
 * assert.equal(new ConditionExpression("status in ['open', 'held']").test({ status: "open" }), true);
 * assert.equal(new ConditionExpression("'*' + :q + '*'").value({ q: "ab" }), "*ab*");
 * // The prototype chain is out of reach, however the member is written.
 * assert.throws(() => new ConditionExpression("user.constructor"), /not reachable/);
 * assert.throws(() => new ConditionExpression("user['constructor']"), /not reachable/);
 * assert.throws(() => new ConditionExpression('user["__proto__"] != null'), /not reachable/);
 * assert.equal(new ConditionExpression("user[k] == null").test({ user: {}, k: "constructor" }), true);
 * ```
 */
export class ConditionExpression {
  /** The expression's text. */
  readonly source: string;
  readonly #run: Eval;
  readonly #where: string;

  /**
   * Parses and compiles an expression once; evaluate it with `test` or `value` as often as
   * needed.
   *
   * @param source The expression.
   * @param options Where it stands (for evaluation errors) and how to report a syntax error.
   * @throws {CommandSyntaxError} When the expression does not parse (unless
   *   `options.syntaxError` throws the caller's own error first).
   */
  constructor(source: string, options: ConditionParseOptions = {}) {
    let node: ExprNode;
    try {
      node = parseNodes(source);
    } catch (e) {
      if (!(e instanceof ParseProblem)) throw e;
      options.syntaxError?.(e.problem, e.offset);
      throw new CommandSyntaxError(
        `${e.problem} in the test "${clip(source)}"`,
        source,
        positionOf(source, e.offset),
      );
    }
    this.source = source;
    this.#where = options.where ?? "expression";
    this.#run = this.#compile(node);
  }

  /**
   * Reads a variable or a member the way the language does: an own data property, a Map entry,
   * a string's index or `length`; `undefined` when absent or unreachable (`__proto__`,
   * `constructor`, `prototype`, inherited members). Callers that look variables up themselves
   * use it so that a name reads like a `.name` step.
   *
   * @param object The object (anything; non-objects have no members).
   * @param key The member's name.
   * @returns The value, or `undefined`.
   */
  static member(object: unknown, key: string): unknown {
    return member(object, key);
  }

  /**
   * The kind of a value for messages (`a string`, `an array`, `missing`…), never the value itself.
   *
   * @param value Any value.
   * @returns Its kind, with an article.
   */
  static kindOf(value: unknown): string {
    return kindOf(value);
  }

  /**
   * Evaluates the expression as a test: `true`/`false`, with `null` or a missing value as
   * `false`. Any other result is a `BindError` (compare it explicitly instead).
   *
   * @param args The variables, as an object (own properties) or a lookup function.
   * @returns The truth of the test.
   */
  test(args: Readonly<Record<string, unknown>> | VariableLookup): boolean {
    return this.#truth(this.#run(toLookup(args)), this.source, 0);
  }

  /**
   * Evaluates the expression to its value (`undefined` for a missing value).
   *
   * @param args The variables, as an object (own properties) or a lookup function.
   * @returns The value.
   */
  value(args: Readonly<Record<string, unknown>> | VariableLookup): unknown {
    return this.#run(toLookup(args));
  }

  #fail(problem: string, node: ExprNode, name?: string): never {
    throw new BindError(
      `test "${this.source}" (${this.#where}, at ${node.at + 1}): ${problem}`,
      name === undefined ? {} : { name },
    );
  }

  #text(node: ExprNode): string {
    return this.source.slice(node.at, node.end);
  }

  #truth(value: unknown, text: string, at: number): boolean {
    if (value === true || value === false) return value;
    if (value === null || value === undefined) return false;
    const node: ExprNode = { kind: "name", name: text, at, end: at + text.length };
    return this.#fail(
      `${text} is ${kindOf(value)}, not true/false; compare it, e.g. ${text} != null`,
      node,
      text,
    );
  }

  #compile(node: ExprNode): Eval {
    switch (node.kind) {
      case "literal": {
        const value = node.value;
        return () => value;
      }
      case "name": {
        const name = node.name;
        return (lookup) => lookup(name);
      }
      case "list": {
        const items = node.items.map((n) => this.#compile(n));
        return (lookup) => items.map((item) => item(lookup));
      }
      case "member": {
        const object = this.#compile(node.object);
        if (typeof node.key === "string") {
          const key = node.key;
          return (lookup) => member(object(lookup), key);
        }
        const key = this.#compile(node.key);
        return (lookup) => {
          const k = key(lookup);
          if (typeof k !== "string" && typeof k !== "number") {
            return this.#fail(`an index must be a string or a number, not ${kindOf(k)}`, node);
          }
          return member(object(lookup), String(k));
        };
      }
      case "call": {
        const object = this.#compile(node.object);
        const method = node.method;
        return (lookup) => {
          const size = sizeOf(object(lookup));
          if (size === null) return undefined;
          if (size === undefined) {
            return this.#fail(`.${method}() needs a string, array, Map, Set or object`, node);
          }
          return method === "isEmpty" ? size === 0 : size;
        };
      }
      case "not": {
        const operand = this.#compile(node.operand);
        const text = this.#text(node.operand);
        const at = node.operand.at;
        return (lookup) => !this.#truth(operand(lookup), text, at);
      }
      case "binary":
        return this.#binary(node);
    }
  }

  #binary(node: Extract<ExprNode, { kind: "binary" }>): Eval {
    const left = this.#compile(node.left);
    const right = this.#compile(node.right);
    const lt = this.#text(node.left);
    const rt = this.#text(node.right);
    const la = node.left.at;
    const ra = node.right.at;
    switch (node.op) {
      case "&&":
        return (v) => this.#truth(left(v), lt, la) && this.#truth(right(v), rt, ra);
      case "||":
        return (v) => this.#truth(left(v), lt, la) || this.#truth(right(v), rt, ra);
      case "==":
        return (v) => equal(left(v), right(v));
      case "!=":
        return (v) => !equal(left(v), right(v));
      case "in":
      case "!in": {
        const negate = node.op === "!in";
        return (v) => {
          const found = contains(right(v), left(v));
          if (found === undefined) {
            return this.#fail(`${rt} must be an array, Set, Map or object to use in`, node.right);
          }
          return found === null ? false : found !== negate;
        };
      }
      case "+":
        return (v) => {
          const a = left(v);
          const b = right(v);
          if (typeof a === "string" && typeof b === "string") return a + b;
          if (typeof a === "number" && typeof b === "number") return a + b;
          if (typeof a === "bigint" && typeof b === "bigint") return a + b;
          return this.#fail(
            `cannot add ${kindOf(a)} (${lt}) and ${
              kindOf(b)
            } (${rt}); + joins two strings or adds two numbers`,
            node,
          );
        };
      default: {
        const op = node.op;
        return (v) => {
          const a = left(v);
          const b = right(v);
          if (a === null || a === undefined || b === null || b === undefined) return false;
          const order = compareOrder(a, b);
          if (order === undefined) {
            return this.#fail(
              `cannot order ${kindOf(a)} (${lt}) and ${
                kindOf(b)
              } (${rt}); compare numbers with numbers, strings with strings, dates with dates`,
              node,
            );
          }
          return op === "<"
            ? order < 0
            : op === "<="
            ? order <= 0
            : op === ">"
            ? order > 0
            : order >= 0;
        };
      }
    }
  }
}

function toLookup(args: Readonly<Record<string, unknown>> | VariableLookup): VariableLookup {
  if (typeof args === "function") return args;
  return (name) => member(args, name);
}

function clip(source: string): string {
  return source.length > 200 ? source.slice(0, 200) + "…" : source;
}
