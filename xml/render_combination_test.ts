// Generated combinations: random statements built from every dynamic tag in JSON positions
// (members and elements in <where>/<set>/<trim>, optional ones in <if>/<choose>, arrays from
// <foreach>), rendered with random arguments. Whatever fires, the body must parse as JSON once the
// placeholders are replaced by their bound values, and a text reused for the same choices must
// equal a fresh render.
import { prng } from "../tests/support/prng.ts";
import assert from "node:assert/strict";
import { parseMapperFile } from "./mapper_file.ts";

const FLAGS = 4;
const LISTS = 3;

class Generator {
  #key = 0;
  constructor(readonly r: () => number) {}
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.r() * items.length)] as T;
  }
  flag(): string {
    return `f${Math.floor(this.r() * FLAGS)}`;
  }
  test(): string {
    return this.pick([
      `${this.flag()}`,
      `${this.flag()} and ${this.flag()}`,
      `not ${this.flag()}`,
      `${this.flag()} or n == 2`,
    ]);
  }
  // A JSON value: always renders something.
  value(depth: number, item?: string): string {
    const leaf = [() => "#{v}", () => "1", () => '"s"', () => (item ? `#{${item}}` : "null")];
    if (depth <= 0) return this.pick(leaf)();
    return this.pick([
      ...leaf,
      () => `{<where>${this.members(depth - 1, item)}</where>}`,
      () => `{<set>${this.members(depth - 1, item)}</set>}`,
      () =>
        `{<trim prefixOverrides="," suffixOverrides=",">${this.members(depth - 1, item)}</trim>}`,
      () => `[<where>${this.elements(depth - 1, item)}</where>]`,
      () => {
        const x = `x${depth}`;
        return `<foreach collection="l${
          Math.floor(this.r() * LISTS)
        }" item="${x}" open="[" separator="," close="]">` +
          `${this.value(depth - 1, x)}</foreach>`;
      },
      () =>
        `<choose><when test="${this.test()}">${this.value(depth - 1, item)}</when>` +
        `<otherwise>${this.value(depth - 1, item)}</otherwise></choose>`,
      () => {
        const f = this.flag();
        return `<if test="${f}">${this.value(depth - 1, item)}</if><if test="not ${f}">1</if>`;
      },
    ])();
  }
  // Zero or more members, each with commas before or after it, some optional.
  members(depth: number, item?: string): string {
    return this.list(() => `"k${this.#key++}": ${this.value(depth, item)}`);
  }
  elements(depth: number, item?: string): string {
    return this.list(() => this.value(depth, item));
  }
  // Each list writes its commas one way (after, before, or on both sides of every member), as a
  // user would; <where>/<set>/<trim> must clean up whatever the optional members leave behind.
  list(one: () => string): string {
    const n = Math.floor(this.r() * 4);
    const style = this.pick([
      (m: string) => `${m},`,
      (m: string) => `, ${m}`,
      (m: string) => `,${m} ,`,
    ]);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const member = one();
      const written = style(member);
      parts.push(
        this.pick([
          () => written,
          () => `<if test="${this.test()}">${written}</if>`,
          () => `<choose><when test="${this.test()}">${written}</when></choose>`,
          () =>
            style(
              `<foreach collection="l${
                Math.floor(this.r() * LISTS)
              }" item="y${i}" separator=",">${member}</foreach>`,
            ),
        ])(),
      );
    }
    return parts.join("\n");
  }
}

function substitute(text: string, args: Record<string, unknown>): string {
  return text.replace(/#\{([^}]+)\}/g, (_, name: string) => JSON.stringify(args[name] ?? null));
}

Deno.test("generated combinations of tags always render well-formed JSON", () => {
  const r = prng(20240601);
  let renders = 0;
  const tags = new Map<string, number>();
  for (let s = 0; s < 300; s++) {
    const g = new Generator(r);
    const body = g.value(4);
    for (const m of body.matchAll(/<(\w+)/g)) tags.set(m[1]!, (tags.get(m[1]!) ?? 0) + 1);
    const source = `<mapper namespace="g"><select id="s">POST /i/_search ${body}</select></mapper>`;
    const file = parseMapperFile(source);
    const statement = file.statements.get("s")!;
    for (let a = 0; a < 20; a++) {
      const args: Record<string, unknown> = { v: "value", n: Math.floor(r() * 3) };
      for (let f = 0; f < FLAGS; f++) {
        const roll = r();
        if (roll < 0.4) args[`f${f}`] = true;
        else if (roll < 0.8) args[`f${f}`] = false;
        else if (roll < 0.9) args[`f${f}`] = null;
      }
      for (let l = 0; l < LISTS; l++) {
        args[`l${l}`] = Array.from({ length: Math.floor(r() * 3) }, (_, i) => i);
      }
      const rendered = statement.render(args);
      if (s < 50) {
        // The statement reuses texts by the choices made; a fresh one renders from scratch.
        const fresh = parseMapperFile(source).statements.get("s")!.render(args);
        assert.deepEqual(rendered, fresh);
      }
      const json = substitute(rendered.text.slice("POST /i/_search ".length), rendered.args);
      try {
        JSON.parse(json);
      } catch (e) {
        assert.fail(
          `${e}\nstatement: ${body}\nargs: ${JSON.stringify(args)}\nrendered: ${rendered.text}`,
        );
      }
      renders++;
    }
  }
  assert.equal(renders, 6000);
  for (const tag of ["where", "set", "trim", "foreach", "choose", "when", "otherwise", "if"]) {
    assert.ok((tags.get(tag) ?? 0) > 50, `${tag}: ${tags.get(tag)}`);
  }
});
