// Named binding: template text with `#{…}`, `${…}`, `@{…}` and positional `?`/`{?}` becomes
// driver text with only `?`/`{?}` plus the argument array, so the driver does all the encoding.
// Texts are scanned once and cached (bounded); a text without rules and splices binds by
// filling an array.

import {
  BindError,
  CommandCache,
  dropDanglingCommas,
  InvalidArgumentError,
  TestExpression,
} from "../driver/mod.ts";
import { type ArgPath, MISSING, resolvePath } from "./_path.ts";
import { md5Hex } from "./_md5.ts";
import { scan } from "./_template_scanner.ts";
import type { ScanOptions, Segment } from "./_template_syntax.ts";
import { prepareValue } from "./row_mapping.ts";

/**
 * A command ready for the driver: text with `?`/`{?}` only, and its positional arguments.
 *
 * @example
 * ```ts
 * import { bindTemplate, type BoundTemplate } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const bound: BoundTemplate = bindTemplate('POST /u/_search {"size": #{n}}', { n: 3 });
 * assert.deepEqual(bound, { text: 'POST /u/_search {"size": ?}', args: [3] });
 * ```
 */
export interface BoundTemplate {
  /** The driver command text. */
  readonly text: string;
  /** The arguments, in placeholder order. */
  readonly args: unknown[];
}

/**
 * Options of {@linkcode bindTemplate}.
 *
 * @example
 * ```ts
 * import { type BindOptions, bindTemplate } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const options: BindOptions = { macros: new Map([["all", '{"match_all": {}}']]) };
 * assert.equal(bindTemplate('POST /u/_search {"query": @{macro, all}}', {}, options).text, 'POST /u/_search {"query": {"match_all": {}}}');
 * ```
 */
export interface BindOptions {
  /** Macro name → template text, for `@{macro, name}`. */
  macros?: ReadonlyMap<string, string>;
}

interface Plan {
  readonly segments: readonly Segment[];
  /** Driver text when the plan has no splices and no rules. */
  readonly fixedText?: string;
  /** For fixed plans: `null` = next positional argument, else the named path. */
  readonly slots?: readonly (ArgPath | null)[];
  readonly positionalCount: number;
  readonly hasNamed: boolean;
}

const EMPTY: readonly unknown[] = Object.freeze([]);
// Plans by text, bounded and least-recently-used first out: the driver's cache of parsed commands.
const cache = new CommandCache<Plan>(1000);
const taggedCache = new CommandCache<Plan>(1000);

function compile(text: string, options: ScanOptions = {}): Plan {
  const segments = scan(text, 0, text.length, "body", false, options);
  let fixed = true;
  let positionalCount = 0;
  let hasNamed = false;
  const parts: string[] = [];
  const slots: (ArgPath | null)[] = [];
  for (const s of segments) {
    if (s.kind === "text") parts.push(s.text);
    else if (s.kind === "positional") {
      parts.push(s.marker);
      slots.push(null);
      positionalCount++;
    } else if (s.kind === "named") {
      parts.push(s.marker);
      slots.push(s.path);
      hasNamed = true;
    } else {
      fixed = false;
      hasNamed = true;
    }
  }
  return fixed
    ? { segments, fixedText: parts.join(""), slots, positionalCount, hasNamed }
    : { segments, positionalCount: countPositional(segments), hasNamed };
}

function countPositional(segments: readonly Segment[]): number {
  let n = 0;
  for (const s of segments) {
    if (s.kind === "positional") n++;
    else if (s.kind === "rule" && (s.rule.kind === "and" || s.rule.kind === "if")) {
      n += countPositional(s.rule.body);
    }
  }
  return n;
}

function planOf(text: string, tagged: boolean): Plan {
  const store = tagged ? taggedCache : cache;
  let plan = store.get(text);
  if (plan === undefined) {
    plan = compile(text, { tagged });
    store.set(text, plan);
  }
  return plan;
}

/** Whether a text needs the template layer at all (named slots, splices, rules, escapes). */
export function needsTemplate(text: string): boolean {
  return text.includes("#{") || text.includes("${") || text.includes("@{");
}

const SAFE_IDENTIFIER = /^[A-Za-z0-9_.\-*,]+$/;

/** What each driver argument of a bound template was: a name, or a 1-based positional index. */
const labelsOf = new WeakMap<BoundTemplate, readonly (string | number)[]>();

/**
 * Names the argument behind a driver argument index of a bound template: `"user.id"` for
 * `#{user.id}`, `"${} value 2"` for the second value of a tagged template, the caller's 1-based
 * index for a positional `?`. Undefined when the command was not bound by the template.
 */
export function argumentLabel(bound: BoundTemplate, index: number): string | number | undefined {
  return labelsOf.get(bound)?.[index - 1];
}

function label(source: string, tagged: boolean): string {
  return tagged && /^\d+$/.test(source) ? `\${} value ${Number(source) + 1}` : source;
}

class Renderer {
  parts: string[] = [];
  args: unknown[] = [];
  labels: (string | number)[] = [];
  position = 0;
  vanished = false;
  missing = false;
  lenient = 0;
  // `@{if}` tests read the named arguments as the test language reads any member.
  readonly lookup = (name: string): unknown => TestExpression.member(this.named, name);
  constructor(
    readonly command: string,
    readonly positional: readonly unknown[],
    readonly named: unknown,
    readonly macros: ReadonlyMap<string, string> | undefined,
    readonly namedGiven: boolean,
    readonly tagged = false,
  ) {}

  value(path: ArgPath, what: string): unknown {
    if (!this.namedGiven) {
      throw new BindError(
        `Cannot bind ${what} "${path.source}": named arguments need an object like { ${
          path.keys[0]
        }: … }, but an array was given (write \\\${ for a literal \${)`,
        { name: path.source, command: this.command },
      );
    }
    const v = resolvePath(this.named, path);
    if (v === MISSING || v === undefined) {
      if (this.lenient > 0) {
        this.missing = true;
        return undefined;
      }
      throw new BindError(
        `Cannot bind ${what} "${path.source}": ${
          v === MISSING ? "there is no such argument" : "value is undefined"
        }; pass it (null for a JSON null) in: ${this.command}`,
        { name: path.source, command: this.command },
      );
    }
    if (v === null && this.lenient > 0) this.missing = true;
    return v;
  }

  slot(marker: string, value: unknown, name: string | number) {
    this.parts.push(marker);
    this.args.push(prepareValue(value));
    this.labels.push(typeof name === "string" ? label(name, this.tagged) : name);
  }

  render(segments: readonly Segment[]): void {
    for (const s of segments) {
      switch (s.kind) {
        case "text":
          this.parts.push(s.text);
          break;
        case "positional": {
          const v = this.positional[this.position++];
          if (this.lenient > 0 && (v === null || v === undefined)) this.missing = true;
          this.slot(s.marker, v, this.position);
          break;
        }
        case "named":
          this.slot(s.marker, this.value(s.path, "named argument"), s.path.source);
          break;
        case "splice":
          this.parts.push(this.identifier(s.path));
          break;
        case "rule":
          this.rule(s.rule);
      }
    }
  }

  identifier(path: ArgPath): string {
    const v = this.value(path, "identifier");
    if (v === undefined || v === null) return "";
    const text = Array.isArray(v)
      ? v.join(",")
      : typeof v === "string" || typeof v === "number"
      ? String(v)
      : "";
    if (text === "." || text === "..") {
      throw new InvalidArgumentError(
        `Cannot splice \${${path.source}} = ${
          JSON.stringify(text)
        }: . and .. would climb out of their path segment and address another resource`,
        { name: path.source, command: this.command },
      );
    }
    if (!SAFE_IDENTIFIER.test(text)) {
      throw new BindError(
        `Cannot splice \${${path.source}} = ${
          JSON.stringify(v)
        }: an identifier (index or field name) may only contain letters, digits and _ . - * , ; bind values with #{${path.source}} instead`,
        { name: path.source, command: this.command },
      );
    }
    return text;
  }

  rule(rule: Extract<Segment, { kind: "rule" }>["rule"]): void {
    switch (rule.kind) {
      case "and":
      case "if": {
        if (rule.kind === "if" && !rule.test.test(this.lookup)) {
          this.position += countPositional(rule.body);
          this.vanished = true;
          return;
        }
        const mark = { parts: this.parts.length, args: this.args.length, missing: this.missing };
        if (rule.kind === "and") {
          this.lenient++;
          this.missing = false;
        }
        this.render(rule.body);
        if (rule.kind === "and") {
          this.lenient--;
          const drop = this.missing;
          this.missing = mark.missing;
          if (drop) {
            this.parts.length = mark.parts;
            this.args.length = mark.args;
            this.vanished = true;
          }
        }
        return;
      }
      case "in": {
        const v = this.value(rule.path, "@{in} list");
        if (v === undefined) return;
        const list = v instanceof Set ? [...v] : v;
        if (!Array.isArray(list)) {
          throw new BindError(
            `Cannot bind @{in, :${rule.path.source}}: expected an array or a Set, got ${typeof v}`,
            { name: rule.path.source, command: this.command },
          );
        }
        this.slot(rule.marker, list, rule.path.source);
        return;
      }
      case "md5": {
        const v = this.value(rule.path, "@{md5} value");
        if (v !== undefined) {
          this.slot(rule.marker, v === null ? null : md5Hex(String(v)), rule.path.source);
        }
        return;
      }
      case "uuid32":
        this.slot(rule.marker, crypto.randomUUID().replaceAll("-", ""), "@{uuid32}");
        return;
      case "uuid36":
        this.slot(rule.marker, crypto.randomUUID(), "@{uuid36}");
        return;
      case "macro": {
        const text = this.macros?.get(rule.name);
        if (text === undefined) {
          throw new BindError(
            `Unknown macro "${rule.name}": register it with jdbc.addMacro("${rule.name}", text)`,
            { name: rule.name, command: this.command },
          );
        }
        const before = this.parts.length;
        this.render(scan(text, 0, text.length, rule.mode, true));
        if (this.parts.slice(before).join("").trim() === "") this.vanished = true;
      }
    }
  }
}

function isNamedSource(args: unknown): boolean {
  return args !== null && typeof args === "object" && !Array.isArray(args);
}

function bindPlan(
  plan: Plan,
  text: string,
  args: unknown,
  macros: ReadonlyMap<string, string> | undefined,
  tagged: boolean,
): BoundTemplate {
  const namedGiven = tagged || args === undefined || args === null || isNamedSource(args);
  const positional: readonly unknown[] = !tagged && Array.isArray(args) ? args : EMPTY;
  const named = tagged || namedGiven ? args : undefined;
  if (plan.positionalCount !== positional.length) {
    throw new BindError(
      `The command has ${plan.positionalCount} positional placeholder(s) (? or {?}) but ${positional.length} positional argument(s) were given${
        namedGiven && plan.positionalCount > 0 ? "; use #{name} with named arguments" : ""
      }: ${text}`,
      { command: text },
    );
  }
  if (plan.fixedText !== undefined) {
    const slots = plan.slots!;
    const out = new Array<unknown>(slots.length);
    const labels = new Array<string | number>(slots.length);
    let k = 0;
    for (let i = 0; i < slots.length; i++) {
      const path = slots[i]!;
      let v: unknown;
      if (path === null) {
        v = positional[k++];
        labels[i] = k;
      } else {
        labels[i] = label(path.source, tagged);
        v = namedGiven ? resolvePath(named, path) : MISSING;
        if (v === MISSING || v === undefined) {
          v = new Renderer(text, positional, named, macros, namedGiven).value(
            path,
            "named argument",
          );
        }
      }
      out[i] = v !== null && typeof v === "object" ? prepareValue(v) : v;
    }
    const bound = { text: plan.fixedText, args: out };
    labelsOf.set(bound, labels);
    return bound;
  }
  const r = new Renderer(text, positional, named, macros, namedGiven, tagged);
  r.render(plan.segments);
  const rendered = r.parts.join("");
  const bound = { text: r.vanished ? dropDanglingCommas(rendered) : rendered, args: r.args };
  labelsOf.set(bound, r.labels);
  return bound;
}

/**
 * Translates template text and its arguments into a driver command: `#{path}` becomes `?` (JSON)
 * or `{?}` (path, query string) with the value appended to the arguments; `${name}` splices a
 * checked identifier; `@{…}` rules are applied and empty optional members removed. Positional
 * `?`/`{?}` take an array; named placeholders take an object. The scan is cached by text.
 *
 * @param text Template command text.
 * @param args Positional arguments (array) or named arguments (object).
 * @param options Macros for `@{macro, name}`.
 * @returns The driver text and the argument array.
 *
 * @example
 * ```ts
 * import { bindTemplate } from "@searchvisitor/searchvisitor/template";
 * import assert from "node:assert/strict";
 *
 * const bound = bindTemplate(
 *   'GET /${index}/_doc/#{id}?routing=#{id}\n{"a":#{v},"b":[1,2]}',
 *   { index: "users", id: "a/b", v: "x" },
 * );
 * assert.equal(bound.text, 'GET /users/_doc/{?}?routing={?}\n{"a":?,"b":[1,2]}');
 * assert.deepEqual(bound.args, ["a/b", "a/b", "x"]);
 * ```
 */
export function bindTemplate(
  text: string,
  args?: unknown,
  options: BindOptions = {},
): BoundTemplate {
  return bindPlan(planOf(text, false), text, args, options.macros, false);
}

/** Binds tagged-template text whose values are `#{0}`, `#{1}`, … of `values`. */
export function bindTagged(
  text: string,
  values: readonly unknown[],
  macros?: ReadonlyMap<string, string>,
): BoundTemplate {
  return bindPlan(planOf(text, true), text, values, macros, true);
}
