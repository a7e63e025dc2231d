// Rendering a template plan that has rules or splices: walks the segments with the caller's
// arguments, appending driver text, arguments and their labels; applies `@{…}` rules (optional
// members that vanish, `@{if}` tests, lists, hashes, ids, macros) and checks every spliced
// identifier. named_binding.ts decides when a plan needs this and builds the result.

import { BindError, InvalidArgumentError } from "../driver/mod.ts";
import { ConditionExpression } from "../driver/internal.ts";
import { type ArgPath, MISSING, resolvePath } from "./_path.ts";
import { md5Hex } from "./_md5.ts";
import { scan } from "./_template_scanner.ts";
import type { Segment } from "./_template_syntax.ts";
import { countPositional } from "./_template_plan.ts";
import { prepareValue } from "./row_mapping.ts";

const SAFE_IDENTIFIER = /^[A-Za-z0-9_.\-*,]+$/;

/** How an argument of a tagged template is named in errors: its `#{2}` is its "${} value 3". */
export function taggedLabel(source: string): string {
  return /^\d+$/.test(source) ? `\${} value ${Number(source) + 1}` : source;
}

/** One binding of a template text: the text and the caller's arguments as the renderer reads them. */
export interface TemplateCall {
  /** The template text (for messages). */
  readonly command: string;
  /** The positional arguments (`?`, `{?}`); empty for named ones. */
  readonly positional: readonly unknown[];
  /** The named arguments (an object), or undefined. */
  readonly named: unknown;
  /** Whether named arguments were given (an object, or none at all) rather than an array. */
  readonly namedGiven: boolean;
  /** Macro name → template text, for `@{macro, name}`. */
  readonly macros: ReadonlyMap<string, string> | undefined;
  /** The text is a tagged template's: its values are `#{0}`, `#{1}`, … */
  readonly tagged: boolean;
}

/** Renders segments into driver text, arguments and argument labels. */
export class Renderer {
  parts: string[] = [];
  args: unknown[] = [];
  labels: (string | number)[] = [];
  position = 0;
  vanished = false;
  missing = false;
  lenient = 0;
  // `@{if}` tests read the named arguments as the test language reads any member.
  readonly lookup = (name: string): unknown => ConditionExpression.member(this.named, name);
  readonly command: string;
  readonly positional: readonly unknown[];
  readonly named: unknown;
  readonly macros: ReadonlyMap<string, string> | undefined;
  readonly namedGiven: boolean;
  readonly tagged: boolean;

  constructor(call: TemplateCall) {
    this.command = call.command;
    this.positional = call.positional;
    this.named = call.named;
    this.macros = call.macros;
    this.namedGiven = call.namedGiven;
    this.tagged = call.tagged;
  }

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
    this.labels.push(typeof name !== "string" ? name : this.tagged ? taggedLabel(name) : name);
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
        this.render(scan(text, { mode: rule.mode, fragment: true }));
        if (this.parts.slice(before).join("").trim() === "") this.vanished = true;
      }
    }
  }
}
