// One tiny node class per tag (MyBatis' shape). Nodes are built once when a file is read and are
// immutable; `apply` appends the node's text for one render to the context.

import { BindError } from "../driver/mod.ts";
import type { RenderContext } from "./_render_context.ts";
import { dropDanglingCommas, stripOverrides } from "./_json_members.ts";
import { kindOf, type TestExpression } from "./test_expression.ts";

/** A node of a statement's tree. */
export interface SqlNode {
  /** Appends this node's text for one render. */
  apply(ctx: RenderContext): void;
}

/** A `#{name…}` or `${name…}` placeholder whose head name foreach or bind may rename. */
export interface Placeholder {
  /** The text before the name: `#{` and any spaces. */
  readonly before: string;
  /** The first name of the path. */
  readonly head: string;
  /** The rest, through the closing `}`. */
  readonly after: string;
}

/** Text, with its placeholders found once so loops can rename `item` to a generated name. */
export class TextNode implements SqlNode {
  readonly #plain: boolean;
  constructor(readonly text: string, readonly parts: readonly (string | Placeholder)[]) {
    this.#plain = parts.every((p) => typeof p === "string");
  }
  apply(ctx: RenderContext): void {
    const renames = ctx.renames;
    if (this.#plain || renames === undefined || renames.size === 0) {
      ctx.out.push(this.text);
      return;
    }
    for (const part of this.parts) {
      if (typeof part === "string") ctx.out.push(part);
      else ctx.out.push(part.before, renames.get(part.head) ?? part.head, part.after);
    }
  }
}

/** A sequence of nodes. */
export class MixedNode implements SqlNode {
  constructor(readonly children: readonly SqlNode[]) {}
  apply(ctx: RenderContext): void {
    for (const child of this.children) child.apply(ctx);
  }
}

/** `<if test>`: its children when the test is true. */
export class IfNode implements SqlNode {
  constructor(readonly test: TestExpression, readonly contents: SqlNode) {}
  apply(ctx: RenderContext): void {
    if (this.test.test(ctx.lookup)) this.contents.apply(ctx);
  }
}

/** `<choose>`: the first `<when>` whose test is true, else `<otherwise>`, else nothing. */
export class ChooseNode implements SqlNode {
  constructor(readonly whens: readonly IfNode[], readonly otherwise: SqlNode | undefined) {}
  apply(ctx: RenderContext): void {
    for (const when of this.whens) {
      if (when.test.test(ctx.lookup)) return when.contents.apply(ctx);
    }
    this.otherwise?.apply(ctx);
  }
}

/**
 * `<trim>` (and `<where>`/`<set>`, which also drop dangling commas): renders its children, strips
 * the overrides at both ends, and writes `prefix body suffix` — or nothing when the body is blank.
 */
export class TrimNode implements SqlNode {
  constructor(
    readonly contents: SqlNode,
    readonly prefix: string,
    readonly suffix: string,
    readonly prefixOverrides: readonly string[],
    readonly suffixOverrides: readonly string[],
    readonly dropCommas: boolean,
  ) {}
  apply(ctx: RenderContext): void {
    let body = ctx.capture(() => this.contents.apply(ctx));
    if (this.dropCommas) body = dropDanglingCommas(body);
    body = stripOverrides(body, this.prefixOverrides, this.suffixOverrides);
    if (body.length === 0) return;
    ctx.out.push(glue(glue(this.prefix, body), this.suffix));
  }
}

// `prefix="where"` + `a` needs a space between them; `prefix="{"` + `"a"` does not.
function glue(a: string, b: string): string {
  return /\w$/.test(a) && /^\w/.test(b) ? `${a} ${b}` : a + b;
}

/**
 * `<foreach>`: its children once per element of a collection (array, Set, Map, or an object's own
 * entries), with `item`/`index` visible to tests and renamed in placeholders to generated
 * argument names (`#{item}` → `#{__frch_item_0}`), so values are bound, never spliced.
 */
export class ForEachNode implements SqlNode {
  constructor(
    readonly collection: TestExpression,
    readonly item: string | undefined,
    readonly index: string | undefined,
    readonly open: string,
    readonly close: string,
    readonly separator: string,
    readonly contents: SqlNode,
    readonly where: string,
  ) {}

  apply(ctx: RenderContext): void {
    const entries = this.#entries(this.collection.value(ctx.lookup));
    ctx.out.push(this.open);
    let written = false;
    ctx.loopDepth++;
    ctx.scoped(() => {
      for (const [key, value] of entries) {
        if (this.item !== undefined) this.#define(ctx, "__frch_", this.item, value);
        if (this.index !== undefined) this.#define(ctx, "__frch_", this.index, key);
        const slot = ctx.out.length;
        ctx.out.push("");
        this.contents.apply(ctx);
        let rendered = false;
        for (let i = slot + 1; i < ctx.out.length && !rendered; i++) {
          rendered = /\S/.test(ctx.out[i] ?? "");
        }
        if (rendered && written) ctx.out[slot] = this.separator;
        written ||= rendered;
      }
    });
    ctx.loopDepth--;
    ctx.out.push(this.close);
  }

  #define(ctx: RenderContext, prefix: string, name: string, value: unknown): void {
    const generated = ctx.generatedName(prefix, name);
    ctx.addArgument(generated, value);
    ctx.define(name, value, generated);
  }

  #entries(value: unknown): Iterable<readonly [unknown, unknown]> {
    if (Array.isArray(value)) return value.entries();
    if (value instanceof Set) return [...value].entries();
    if (value instanceof Map) return value.entries();
    if (
      value !== null && typeof value === "object" && !(value instanceof Date) &&
      !ArrayBuffer.isView(value)
    ) {
      return Object.entries(value);
    }
    throw new BindError(
      `<foreach collection="${this.collection.source}"> (${this.where}): the collection is ${
        kindOf(value)
      }; ` +
        (value === null || value === undefined
          ? `pass an array (empty for none) or guard the loop with <if test="${this.collection.source} != null">`
          : "pass an array, Set, Map or object"),
      { name: this.collection.source },
    );
  }
}

/** `<bind name value>`: evaluates the value and makes it a variable and an argument. */
export class BindNode implements SqlNode {
  constructor(readonly name: string, readonly value: TestExpression) {}
  apply(ctx: RenderContext): void {
    const value = this.value.value(ctx.lookup);
    if (ctx.loopDepth === 0) {
      ctx.addArgument(this.name, value);
      ctx.define(this.name, value);
      return;
    }
    const generated = ctx.generatedName("__bind_", this.name);
    ctx.addArgument(generated, value);
    ctx.define(this.name, value, generated);
  }
}
