// Fuzzes the xml room: generated and mutated mapper files through parseMapperFile (the reader, the
// mapper structure, the expressions) and render, and generated and mutated conditions
// through parseCondition and evaluation. Only typed errors may come out: XmlSyntaxError and
// its subclasses at load, BindError at render. Anything else (a TypeError from inside, a
// RangeError from the stack) is a finding, printed with its input.
//
//   deno task fuzz:xml [count=1000000] [seed=1]

import { prng } from "../tests/support/prng.ts";
import { BindError } from "../driver/mod.ts";
import { parseCondition, parseMapperFile, XmlSyntaxError } from "../xml/mod.ts";

/** What a fuzz run saw. */
export interface FuzzReport {
  /** Inputs tried (files + expressions). */
  inputs: number;
  /** Inputs accepted (parsed, and rendered or evaluated without error). */
  accepted: number;
  /** Typed errors by code. */
  rejected: Record<string, number>;
  /** How many inputs gave an untyped error (0 when the run passes). */
  untyped: number;
  /** The first untyped errors: the input and the error. */
  findings: { input: string; error: string }[];
  /** Milliseconds taken. */
  ms: number;
}

const HOSTILE = [
  "<",
  ">",
  "&",
  "&amp;",
  "&lt;",
  "&#",
  "&#x",
  "&#0;",
  "&#xD800;",
  "&#x10FFFF;",
  "&foo;",
  "%pe;",
  "]]>",
  "<![CDATA[",
  "<!--",
  "-->",
  "--",
  "<?",
  "?>",
  "<?xml version='1.0'?>",
  "<!DOCTYPE mapper [",
  "]>",
  '<!ENTITY x "y">',
  "<!ENTITY x SYSTEM 'file:///etc/passwd'>",
  "/>",
  "</",
  "'",
  '"',
  "=",
  "\u0000",
  "\uD800",
  "\uFEFF",
  "\r\n",
  "\r",
  "#{",
  "${",
  "@{",
  "}",
  "{",
  "[",
  "]",
  ",",
  "(",
  ")",
  "==",
  "&&",
  "||",
  " not ",
  " in ",
  "__proto__",
  "constructor",
  ".size()",
  ".length",
  "'",
  "\\",
  "<if test='a'>",
  "</if>",
  "<foreach collection='l' item='i'>",
  "</foreach>",
  "<include refid='f'/>",
  "<where>",
  "</where>",
  "<choose>",
  "</choose>",
  "<when test='x'>",
  "<otherwise>",
];
const TAGS = ["if", "choose", "trim", "where", "set", "foreach", "bind", "include"];

class Gen {
  constructor(readonly r: () => number) {}
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  expression(depth = 3): string {
    const atoms = [
      "a",
      "b.c",
      "l",
      "l.size()",
      "s.length",
      "m['k']",
      "l[0]",
      "1",
      "-2.5",
      "'x'",
      '"y"',
      "null",
      "true",
      "[1, 'a']",
    ];
    if (depth <= 0) return this.pick(atoms);
    const d = depth - 1;
    return this.pick([
      () => this.pick(atoms),
      () =>
        `(${this.expression(d)}) ${
          this.pick(["==", "!=", "<", "<=", ">", ">=", "in", "not in", "+"])
        } ${this.pick(atoms)}`,
      () => `${this.expression(d)} ${this.pick(["and", "or", "&&", "||"])} ${this.expression(d)}`,
      () => `${this.pick(["not ", "!"])}${this.expression(d)}`,
      () => `(${this.expression(d)})`,
    ])();
  }
  content(depth: number): string {
    const parts: string[] = [];
    for (let i = this.int(4); i >= 0; i--) {
      const text = this.pick([
        '{"a": #{a}},',
        "[#{l}]",
        " , ",
        '"s": "${b}"',
        '<![CDATA[ {"x": 1 < 2} ]]>',
        "&lt;&amp;",
        " ",
      ]);
      if (depth <= 0 || this.r() < 0.4) {
        parts.push(text);
        continue;
      }
      const d = depth - 1;
      const e = this.expression(2).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(
        /"/g,
        "&quot;",
      );
      parts.push(
        this.pick([
          () => `<if test="${e}">${this.content(d)}</if>`,
          () =>
            `<choose><when test="${e}">${this.content(d)}</when><otherwise>${
              this.content(d)
            }</otherwise></choose>`,
          () => `<trim prefix="{" suffix="}" suffixOverrides=",">${this.content(d)}</trim>`,
          () => `<where>${this.content(d)}</where>`,
          () => `<set>${this.content(d)}</set>`,
          () =>
            `<foreach collection="l" item="i" index="k" open="[" separator="," close="]">${
              this.content(d)
            }</foreach>`,
          () => `<bind name="v" value="${e}"/>`,
          () => `<include refid="f"><property name="p" value="q"/></include>`,
        ])(),
      );
    }
    return parts.join("");
  }
  file(): string {
    const head = this.pick([
      "",
      '<?xml version="1.0" encoding="UTF-8"?>\n',
      '<?xml version="1.0"?>\n<!DOCTYPE mapper PUBLIC "-//dbvisitor.net//DTD Mapper 1.0//EN" "https://www.dbvisitor.net/schema/dbvisitor-mapper.dtd">\n',
      '<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">\n',
    ]);
    const statements = Array.from(
      { length: 1 + this.int(3) },
      (_, i) =>
        `  <${
          this.pick(["select", "insert", "update", "delete", "execute"])
        } id="s${i}">POST /i/_search ${this.content(2)}</${"X"}>`,
    )
      .map((s) => s.replace("</X>", `</${/<(\w+)/.exec(s)?.[1]}>`));
    return `${head}<mapper namespace="fz">\n<sql id="f">"\${p}": 1,</sql>\n${
      statements.join("\n")
    }\n` +
      `<resultMap id="m" type="T"><id column="a" property="b"/></resultMap>\n</mapper>\n`;
  }
  mutate(text: string): string {
    let out = text;
    for (let n = 1 + this.int(4); n > 0; n--) {
      const at = this.int(out.length + 1);
      const kind = this.int(6);
      if (kind === 0) out = out.slice(0, at) + this.pick(HOSTILE) + out.slice(at);
      else if (kind === 1) out = out.slice(0, at) + out.slice(at + 1 + this.int(8));
      else if (kind === 2) {
        out = out.slice(0, at) + String.fromCharCode(this.int(0x80)) + out.slice(at + 1);
      } else if (kind === 3) out = out.slice(0, at);
      else if (kind === 4) {
        const from = this.int(out.length);
        out = out.slice(0, at) + out.slice(from, from + this.int(40)) + out.slice(at);
      } else out = out.slice(0, at) + this.pick(TAGS) + out.slice(at);
    }
    return out;
  }
}

function args(g: Gen): Record<string, unknown> {
  const values = [
    null,
    undefined,
    0,
    1,
    "x",
    "",
    true,
    false,
    [],
    [1, "a"],
    { k: 1 },
    new Map([["k", 2]]),
    new Set([1]),
    5n,
  ];
  return {
    a: g.pick(values),
    b: { c: g.pick(values) },
    l: g.pick(values),
    s: g.pick(values),
    m: g.pick(values),
  };
}

/**
 * Runs `count` fuzz inputs (half mapper files, half expressions; a third of each generated, the
 * rest mutated) from `seed`.
 */
export function fuzz(count: number, seed = 1): FuzzReport {
  const g = new Gen(prng(seed));
  const report: FuzzReport = {
    inputs: 0,
    accepted: 0,
    rejected: {},
    untyped: 0,
    findings: [],
    ms: 0,
  };
  const started = performance.now();
  const reject = (code: string) => report.rejected[code] = (report.rejected[code] ?? 0) + 1;
  for (let i = 0; i < count; i++) {
    const isFile = i % 2 === 0;
    const base = isFile ? g.file() : g.expression(4);
    const input = g.r() < 0.33 ? base : g.mutate(base);
    report.inputs++;
    try {
      if (isFile) {
        const file = parseMapperFile(input, { file: "fuzz.xml" });
        for (const statement of file.statements.values()) statement.render(args(g));
      } else {
        const e = parseCondition(input);
        e.value(args(g));
        e.test(args(g));
      }
      report.accepted++;
    } catch (e) {
      if (e instanceof XmlSyntaxError) reject(e.code);
      else if (e instanceof BindError) reject("BIND");
      else if (report.untyped++ < 20) {
        report.findings.push({ input, error: String((e as Error)?.stack ?? e) });
      }
    }
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

if (import.meta.main) {
  const count = Number(Deno.args[0] ?? 1_000_000);
  const seed = Number(Deno.args[1] ?? 1);
  const report = fuzz(count, seed);
  for (const f of report.findings.slice(0, 5)) {
    console.error(`FINDING\n${JSON.stringify(f.input)}\n${f.error}\n`);
  }
  console.log(
    `fuzz:xml ${report.inputs.toLocaleString("en")} inputs (seed ${seed}) in ${
      (report.ms / 1000).toFixed(1)
    } s: ` +
      `${report.accepted.toLocaleString("en")} accepted, typed errors ${
        JSON.stringify(report.rejected)
      }, ` +
      `${report.untyped} untyped`,
  );
  if (report.untyped > 0) Deno.exit(1);
}
