// The test-expression language of `test="…"` and `<bind value="…">`: parsed once into nodes
// (_test_parser.ts), compiled into closures, evaluated against variables by own properties only,
// with no coercion between types. The grammar and the rules are documented in mod.ts.

import { BindError } from "../driver/mod.ts";
import { TestExpressionError, type XmlPosition } from "./errors.ts";
import { parseNodes, ParseProblem, type TestNode } from "./_test_parser.ts";

/** Reads a variable by name; `undefined` when there is none. */
export type VariableLookup = (name: string) => unknown;

/** Options of {@linkcode parseTestExpression}. */
export interface TestExpressionOptions {
  /** Maps an offset of the expression to its place in the file, for parse errors. */
  position?: (offset: number) => XmlPosition;
  /** Where the expression stands (`users.xml, line 4, column 15`), for evaluation errors. */
  where?: string;
}

type Eval = (lookup: VariableLookup) => unknown;

/**
 * A parsed, compiled test expression. Evaluating it calls no method of the arguments: names and
 * properties are read as own properties only (inherited methods and class getters are out of
 * reach), and the only calls are `.size()`, `.length()` and `.isEmpty()`, built in.
 *
 * @example
 * ```ts
 * import { parseTestExpression } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const e = parseTestExpression("name != null and tags.size() > 0");
 * assert.equal(e.test({ name: "a", tags: ["x"] }), true);
 * assert.equal(e.test({ tags: ["x"] }), false);
 * assert.equal(parseTestExpression("'1' == 1").test({}), false);
 * ```
 */
export class TestExpression {
  /** The expression's text. */
  readonly source: string;
  readonly #run: Eval;
  readonly #where: string;

  /**
   * Compiles parsed nodes; use {@linkcode parseTestExpression}.
   *
   * @param source The expression's text.
   * @param node The parsed tree.
   * @param where Where it stands, for evaluation errors.
   */
  constructor(source: string, node: TestNode, where: string) {
    this.source = source;
    this.#where = where;
    this.#run = this.#compile(node);
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

  #fail(problem: string, node: TestNode, name?: string): never {
    throw new BindError(
      `test "${this.source}" (${this.#where}, at ${node.at + 1}): ${problem}`,
      name === undefined ? {} : { name },
    );
  }

  #text(node: TestNode): string {
    return this.source.slice(node.at, node.end);
  }

  #truth(value: unknown, text: string, at: number): boolean {
    if (value === true || value === false) return value;
    if (value === null || value === undefined) return false;
    const node: TestNode = { kind: "name", name: text, at, end: at + text.length };
    return this.#fail(
      `${text} is ${kindOf(value)}, not true/false; compare it, e.g. ${text} != null`,
      node,
      text,
    );
  }

  #compile(node: TestNode): Eval {
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

  #binary(node: Extract<TestNode, { kind: "binary" }>): Eval {
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

/** The kind of a value, for messages (never the value itself: it may be a secret). */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a date";
  if (value instanceof Map) return "a Map";
  if (value instanceof Set) return "a Set";
  const t = typeof value;
  return t === "object" ? "an object" : `a ${t}`;
}

/** Reads an own property (or a Map entry, or a string's index/length); `undefined` when absent. */
export function member(object: unknown, key: string): unknown {
  if (object === null || object === undefined) return undefined;
  if (key === "__proto__" || key === "constructor" || key === "prototype") return undefined;
  if (object instanceof Map) return object.get(key);
  if (typeof object === "string") {
    return key === "length" ? object.length : /^\d+$/.test(key) ? object[Number(key)] : undefined;
  }
  if (typeof object !== "object") return undefined;
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

function sizeOf(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  if (typeof value === "object" && !(value instanceof Date)) return Object.keys(value).length;
  return undefined;
}

function numeric(value: unknown): value is number | bigint {
  return typeof value === "number" || typeof value === "bigint";
}

/** Equality without coercion: same type (numbers and bigints compare by value), dates by time. */
export function equal(a: unknown, b: unknown): boolean {
  const x = a ?? null;
  const y = b ?? null;
  if (x === y) return true;
  if (numeric(x) && numeric(y)) return x == y;
  if (x instanceof Date && y instanceof Date) return x.getTime() === y.getTime();
  return false;
}

function compareOrder(a: unknown, b: unknown): number | undefined {
  if ((numeric(a) && numeric(b)) || (typeof a === "string" && typeof b === "string")) {
    return a < b ? -1 : a > b ? 1 : a === b || a == b ? 0 : NaN;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return undefined;
}

// true/false for membership, null for a null/missing container, undefined for a wrong type.
function contains(container: unknown, value: unknown): boolean | null | undefined {
  if (container === null || container === undefined) return null;
  if (Array.isArray(container) || container instanceof Set) {
    for (const item of container) if (equal(item, value)) return true;
    return false;
  }
  if (container instanceof Map) return container.has(value);
  if (typeof container === "object" && !(container instanceof Date)) {
    return typeof value === "string" && value !== "__proto__" && Object.hasOwn(container, value);
  }
  return undefined;
}

/**
 * Parses a test expression once; evaluate it with `test` or `value` as often as needed. The
 * grammar is in the module documentation. A problem is a {@linkcode TestExpressionError} that
 * points at the column inside the expression (and, through `options.position`, into the file).
 *
 * @param source The expression.
 * @param options Where it stands in a file.
 * @returns The compiled expression.
 *
 * @example
 * ```ts
 * import { parseTestExpression } from "@searchvisitor/searchvisitor/xml";
 * import assert from "node:assert/strict";
 *
 * const e = parseTestExpression("status in ['open', 'held'] && not (age < 18)");
 * assert.equal(e.test({ status: "open", age: 30 }), true);
 * assert.equal(e.test({ status: "closed", age: 30 }), false);
 * assert.equal(parseTestExpression("'*' + q + '*'").value({ q: "ab" }), "*ab*");
 * ```
 */
export function parseTestExpression(
  source: string,
  options: TestExpressionOptions = {},
): TestExpression {
  let node: TestNode;
  try {
    node = parseNodes(source);
  } catch (e) {
    if (!(e instanceof ParseProblem)) throw e;
    throw new TestExpressionError(
      `${e.problem} in the test "${source.length > 200 ? source.slice(0, 200) + "…" : source}"`,
      source,
      e.offset,
      options.position?.(e.offset),
    );
  }
  return new TestExpression(source, node, options.where ?? "expression");
}
