// The state of one render: the output pieces, the caller's arguments, the variables that tags add
// (`<bind>`, `<foreach>` items) and the generated names that placeholders are renamed to.

import { member, type VariableLookup } from "./test_expression.ts";

/** One render's state; a node appends text to `out`. */
export class RenderContext {
  /** The rendered pieces, in order. */
  out: string[] = [];
  /** The caller's arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Arguments added by the render (bind values, foreach items under generated names). */
  extra: Record<string, unknown> | undefined;
  /** Variables visible to expressions that shadow the arguments (foreach items, binds). */
  vars: Map<string, unknown> | undefined;
  /** Placeholder names to rewrite in text (`item` → `__frch_item_0`). */
  renames: Map<string, string> | undefined;
  /** How many foreach loops enclose the node being rendered. */
  loopDepth = 0;
  #counter = 0;

  constructor(args: Readonly<Record<string, unknown>>) {
    this.args = args;
  }

  /** Reads a variable: a tag's variable first, then the caller's argument (own properties). */
  readonly lookup: VariableLookup = (name) =>
    this.vars?.has(name) ? this.vars.get(name) : member(this.args, name);

  /** A name no other variable of this render has: `__frch_item_3`. */
  generatedName(prefix: string, name: string): string {
    return `${prefix}${name}_${this.#counter++}`;
  }

  /** Adds an argument for the template layer to bind. */
  addArgument(name: string, value: unknown): void {
    (this.extra ??= {})[name] = value;
  }

  /** Makes `name` visible to expressions and, when `renamed`, to placeholders as `renamed`. */
  define(name: string, value: unknown, renamed?: string): void {
    (this.vars ??= new Map()).set(name, value);
    if (renamed !== undefined) (this.renames ??= new Map()).set(name, renamed);
    else this.renames?.delete(name);
  }

  /** Runs `fn` in a scope: variables defined inside it are forgotten afterwards. */
  scoped(fn: () => void): void {
    const vars = this.vars;
    const renames = this.renames;
    this.vars = new Map(vars ?? []);
    this.renames = new Map(renames ?? []);
    try {
      fn();
    } finally {
      this.vars = vars;
      this.renames = renames;
    }
  }

  /** Renders `fn` into a fresh buffer and returns the text. */
  capture(fn: () => void): string {
    const out = this.out;
    this.out = [];
    try {
      fn();
      return this.out.join("");
    } finally {
      this.out = out;
    }
  }
}
