// One tiny node class per tag (MyBatis' shape). Nodes are built once when a file is read and are
// immutable; `apply` appends the node's text for one render to the context.

import { BindError } from "../driver/mod.ts";
import { ConditionExpression, dropDanglingCommas } from "../driver/internal.ts";
import type { Binding, RenderContext } from "./_render_context.ts";
import { type Override, stripOverrides } from "./_overrides.ts";

/**
 * A node of a statement's tree. `apply` renders it; `decide` walks the same choices without
 * writing text — the tests taken, the loop lengths, the arguments added — and records them in
 * `ctx.decisions`, which then identify the text (see `mapper_file.ts`).
 */
export interface SqlNode {
  /** Appends this node's text for one render. */
  apply(ctx: RenderContext): void;
  /** Records this node's choices and adds its arguments, without text. */
  decide(ctx: RenderContext): void;
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
    if (this.#plain || ctx.scope.length === 0) {
      ctx.out.push(this.text);
      return;
    }
    for (const part of this.parts) {
      if (typeof part === "string") ctx.out.push(part);
      else ctx.out.push(part.before, ctx.renamed(part.head) ?? part.head, part.after);
    }
  }
  decide(): void {}
}

/** A sequence of nodes. */
export class MixedNode implements SqlNode {
  readonly #choosing: readonly SqlNode[];
  constructor(readonly children: readonly SqlNode[]) {
    this.#choosing = children.filter((c) => !(c instanceof TextNode));
  }
  apply(ctx: RenderContext): void {
    for (const child of this.children) child.apply(ctx);
  }
  decide(ctx: RenderContext): void {
    for (const child of this.#choosing) child.decide(ctx);
  }
}

/** `<if test>`: its children when the test is true. */
export class IfNode implements SqlNode {
  constructor(readonly test: ConditionExpression, readonly contents: SqlNode) {}
  apply(ctx: RenderContext): void {
    if (this.test.test(ctx.lookup)) this.contents.apply(ctx);
  }
  decide(ctx: RenderContext): void {
    const taken = this.test.test(ctx.lookup);
    ctx.decisions.push(taken ? 1 : 0);
    if (taken) this.contents.decide(ctx);
  }
}

/** `<choose>`: the first `<when>` whose test is true, else `<otherwise>`, else nothing. */
export class ChooseNode implements SqlNode {
  constructor(readonly whens: readonly IfNode[], readonly otherwise: SqlNode | undefined) {}
  #pick(ctx: RenderContext): number {
    const whens = this.whens;
    for (let i = 0; i < whens.length; i++) if ((whens[i] as IfNode).test.test(ctx.lookup)) return i;
    return whens.length;
  }
  #branch(i: number): SqlNode | undefined {
    return i < this.whens.length ? this.whens[i]?.contents : this.otherwise;
  }
  apply(ctx: RenderContext): void {
    this.#branch(this.#pick(ctx))?.apply(ctx);
  }
  decide(ctx: RenderContext): void {
    const i = this.#pick(ctx);
    ctx.decisions.push(i);
    this.#branch(i)?.decide(ctx);
  }
}

/** What a `<trim>` does around its body; `<where>` and `<set>` are trims too. */
export interface TrimSpec {
  /** Written before a non-blank body (default none). */
  readonly prefix?: string;
  /** Written after a non-blank body (default none). */
  readonly suffix?: string;
  /** Stripped from the body's start (default none). */
  readonly prefixOverrides?: readonly Override[];
  /** Stripped from the body's end (default none). */
  readonly suffixOverrides?: readonly Override[];
  /** Drop dangling commas of a JSON member list first, as `<where>` and `<set>` do (default false). */
  readonly dropCommas?: boolean;
}

/**
 * `<trim>` (and `<where>`/`<set>`, which also drop dangling commas): renders its children, strips
 * the overrides at both ends, and writes `prefix body suffix` — or nothing when the body is blank.
 */
export class TrimNode implements SqlNode {
  readonly prefix: string;
  readonly suffix: string;
  readonly prefixOverrides: readonly Override[];
  readonly suffixOverrides: readonly Override[];
  readonly dropCommas: boolean;
  constructor(readonly contents: SqlNode, trim: TrimSpec) {
    this.prefix = trim.prefix ?? "";
    this.suffix = trim.suffix ?? "";
    this.prefixOverrides = trim.prefixOverrides ?? [];
    this.suffixOverrides = trim.suffixOverrides ?? [];
    this.dropCommas = trim.dropCommas ?? false;
  }
  apply(ctx: RenderContext): void {
    const out = ctx.out;
    ctx.out = [];
    this.contents.apply(ctx);
    const raw = ctx.out.join("");
    ctx.out = out;
    const body = stripOverrides(
      this.dropCommas ? dropDanglingCommas(raw) : raw,
      this.prefixOverrides,
      this.suffixOverrides,
    );
    if (body.length === 0) return;
    // `prefix="where"` + `a` needs a space between them; `prefix="{"` + `"a"` does not.
    const p = this.prefix;
    const s = this.suffix;
    const before = p && isWord(p.charCodeAt(p.length - 1)) && isWord(body.charCodeAt(0)) ? " " : "";
    const after = s && isWord(body.charCodeAt(body.length - 1)) && isWord(s.charCodeAt(0))
      ? " "
      : "";
    out.push(p, before, body, after, s);
  }
  decide(ctx: RenderContext): void {
    this.contents.decide(ctx);
  }
}

function isWord(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** How a `<foreach>` lays out its items: its attributes, and where it stands (for errors). */
export interface ForEachShape {
  readonly item: string | undefined;
  readonly index: string | undefined;
  readonly open: string;
  readonly close: string;
  readonly separator: string;
  readonly where: string;
}

/**
 * `<foreach>`: its children once per element of a collection (array, Set, Map, or an object's own
 * entries), with `item`/`index` visible to tests and renamed in placeholders to generated
 * argument names (`#{item}` → `#{__frch_item_0}`), so values are bound, never spliced.
 */
export class ForEachNode implements SqlNode {
  readonly #itemPrefix: string;
  readonly #indexPrefix: string;

  constructor(
    readonly collection: ConditionExpression,
    readonly contents: SqlNode,
    readonly shape: ForEachShape,
  ) {
    this.#itemPrefix = `__frch_${shape.item}_`;
    this.#indexPrefix = `__frch_${shape.index}_`;
  }

  apply(ctx: RenderContext): void {
    const out = ctx.out;
    out.push(this.shape.open);
    let written = false;
    this.#each(ctx, () => {
      const slot = out.length;
      out.push("");
      this.contents.apply(ctx);
      let rendered = false;
      for (let i = slot + 1; i < out.length && !rendered; i++) {
        rendered = !isBlank(out[i] as string);
      }
      if (rendered && written) out[slot] = this.shape.separator;
      written ||= rendered;
    });
    out.push(this.shape.close);
  }

  decide(ctx: RenderContext): void {
    this.#each(ctx, () => {
      ctx.decisions.push(1);
      this.contents.decide(ctx);
    });
    ctx.decisions.push(0);
  }

  // Binds item and index for each element and runs `body`; binds made inside end with the element.
  #each(ctx: RenderContext, body: () => void): void {
    const entries = this.#entries(this.collection.value(ctx.lookup));
    const scope = ctx.scope;
    const depth = scope.length;
    const item: Binding | undefined = this.shape.item === undefined
      ? undefined
      : { name: this.shape.item, value: undefined, renamed: undefined };
    const index: Binding | undefined = this.shape.index === undefined
      ? undefined
      : { name: this.shape.index, value: undefined, renamed: undefined };
    if (item) scope.push(item);
    if (index) scope.push(index);
    const inner = scope.length;
    ctx.loopDepth++;
    try {
      const list = Array.isArray(entries) ? entries : undefined;
      const iterator = list
        ? undefined
        : (entries as Iterable<readonly [unknown, unknown]>)[Symbol.iterator]();
      for (let n = 0;; n++) {
        let key: unknown = n;
        let value: unknown;
        if (list) {
          if (n >= list.length) break;
          value = list[n];
        } else {
          const next = (iterator as Iterator<readonly [unknown, unknown]>).next();
          if (next.done) break;
          [key, value] = next.value;
        }
        if (item) this.#bind(ctx, item, this.#itemPrefix, value);
        if (index) this.#bind(ctx, index, this.#indexPrefix, key);
        body();
        if (scope.length !== inner) scope.length = inner;
      }
    } finally {
      ctx.loopDepth--;
      scope.length = depth;
    }
  }

  #bind(ctx: RenderContext, binding: Binding, prefix: string, value: unknown): void {
    const generated = ctx.generate(prefix);
    ctx.addArgument(generated, value);
    binding.value = value;
    binding.renamed = generated;
  }

  // An array is returned as is (walked by index); anything else as [key, value] pairs.
  #entries(value: unknown): unknown[] | Iterable<readonly [unknown, unknown]> {
    if (Array.isArray(value)) return value;
    if (value instanceof Set) return [...value].entries();
    if (value instanceof Map) return value.entries();
    if (
      value !== null && typeof value === "object" && !(value instanceof Date) &&
      !ArrayBuffer.isView(value)
    ) {
      return Object.entries(value).values();
    }
    throw new BindError(
      `<foreach collection="${this.collection.source}"> (${this.shape.where}): the collection is ${
        ConditionExpression.kindOf(value)
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
  readonly #prefix: string;
  constructor(readonly name: string, readonly value: ConditionExpression) {
    this.#prefix = `__bind_${name}_`;
  }
  apply(ctx: RenderContext): void {
    const value = this.value.value(ctx.lookup);
    const renamed = ctx.loopDepth === 0 ? undefined : ctx.generate(this.#prefix);
    ctx.addArgument(renamed ?? this.name, value);
    ctx.scope.push({ name: this.name, value, renamed });
  }
  decide(ctx: RenderContext): void {
    this.apply(ctx);
  }
}
