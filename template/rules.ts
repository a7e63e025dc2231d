// The `@{rule, …}` calls of template text: parsing into data-only rule nodes.
// Rendering lives in _template_renderer.ts. Names are case-insensitive.
//
//   @{and, fragment}         keep the fragment when every placeholder in it has a value
//   @{if, test, fragment}    keep the fragment when the test is true (the driver's
//                            ConditionExpression language: no coercion, own properties only)
//   @{in, :list}             one slot bound to a JSON array of the list's values
//   @{uuid32} / @{uuid36}    one slot bound to a fresh UUID (without / with dashes)
//   @{md5, :value}           one slot bound to the MD5 hex digest of the value
//   @{macro, name}           the text registered with JdbcTemplate.addMacro(name, text)

import type { ArgPath } from "./_path.ts";
import { parsePath } from "./_path.ts";
import {
  COMMA,
  ConditionExpression,
  isSpace,
  positionOf,
  splitTopLevel,
} from "../driver/internal.ts";
import {
  type Marker,
  MAX_PATH_DEPTH,
  type Mode,
  type RuleCall,
  type ScanOptions,
  type Segment,
  syntaxError,
} from "./_template_syntax.ts";

/**
 * Scans a fragment of a rule call (the body of `@{and, …}` and `@{if, …}`) into segments. The
 * scanner hands itself in, so that rules and scanner stay apart without importing each other.
 */
export type FragmentScanner = (
  text: string,
  from: number,
  to: number,
  within: RuleScope,
) => Segment[];

/** Where a rule call sits: in a path or a body, with the scan's options, and who scans fragments. */
export interface RuleScope {
  /** Whether the rule call is in the command's path or its JSON body. */
  readonly mode: Mode;
  /** The enclosing scan's options (tagged mode, nesting depth). */
  readonly options: ScanOptions;
  /** The scanner of the fragments inside the call. */
  readonly scan: FragmentScanner;
}

/** How many parts after the name each rule takes; `fragment` rules take the rest as the last. */
const ARITY: Record<string, { parts: number; fragment: boolean; usage: string }> = {
  and: { parts: 1, fragment: true, usage: "@{and, fragment}" },
  if: { parts: 2, fragment: true, usage: "@{if, test, fragment}" },
  in: { parts: 1, fragment: false, usage: "@{in, :list}" },
  md5: { parts: 1, fragment: false, usage: "@{md5, :value}" },
  uuid32: { parts: 0, fragment: false, usage: "@{uuid32}" },
  uuid36: { parts: 0, fragment: false, usage: "@{uuid36}" },
  macro: { parts: 1, fragment: false, usage: "@{macro, name}" },
};

/** The names of the rules this layer knows. */
export const RULE_NAMES: readonly string[] = Object.keys(ARITY);

function argPath(text: string, [from, to]: [number, number], usage: string): ArgPath {
  let raw = text.slice(from, to).trim();
  if (raw.startsWith(":")) raw = raw.slice(1);
  else if (raw.startsWith("#{") && raw.endsWith("}")) raw = raw.slice(2, -1);
  const path = parsePath(raw);
  if (!path) {
    const found = raw.length > 60 ? raw.slice(0, 60) + "…" : raw;
    syntaxError(text, from, `${usage} needs an argument like :name or #{a.b}, found "${found}"`);
  }
  if (path.keys.length > MAX_PATH_DEPTH) {
    syntaxError(text, from, `${usage}: the path has more than ${MAX_PATH_DEPTH} steps`);
  }
  return path;
}

/**
 * Parses the rule call `@{…}` whose `@` is at `at` and whose closing brace is at `close`;
 * fragments are scanned with `scan`.
 */
export function parseRule(text: string, at: number, close: number, scope: RuleScope): RuleCall {
  const { mode, scan } = scope;
  const head = /^\s*([A-Za-z][\w]*)\s*/.exec(text.slice(at + 2, close));
  if (!head) syntaxError(text, at, "a rule needs a name, like @{and, …}");
  const name = head[1]!.toLowerCase();
  const arity = ARITY[name];
  if (!arity) {
    syntaxError(text, at, `unknown rule "${head[1]}"; known rules: ${RULE_NAMES.join(", ")}`);
  }
  const after = at + 2 + head[0].length;
  if (after < close && text.charCodeAt(after) !== COMMA) {
    syntaxError(text, after, `expected "," after the rule name in ${arity.usage}`);
  }
  const parts = after < close
    ? splitTopLevel(text, after + 1, close, arity.fragment ? arity.parts : Infinity)
    : [];
  if (
    parts.length !== arity.parts ||
    parts.some(([f, t]) => text.slice(f, t).trim() === "" && !arity.fragment)
  ) {
    syntaxError(
      text,
      at,
      `rule ${name} takes ${arity.parts} part(s) after its name (${arity.usage}), found ${parts.length}`,
    );
  }
  const marker: Marker = mode === "path" ? "{?}" : "?";
  for (const part of parts) {
    while (part[0] < part[1] && isSpace(text.charCodeAt(part[0]))) part[0]++;
    while (part[1] > part[0] && isSpace(text.charCodeAt(part[1] - 1))) part[1]--;
  }
  switch (name) {
    case "and":
      return { kind: "and", body: scan(text, parts[0]![0], parts[0]![1], scope) };
    case "if": {
      const [from, to] = parts[0]!;
      const at = positionOf(text, from);
      const test = new ConditionExpression(text.slice(from, to), {
        where: `@{if} at line ${at.line}, column ${at.column}`,
        syntaxError: (problem, offset) =>
          syntaxError(text, from + offset, `${problem} in ${arity.usage}`),
      });
      return { kind: "if", test, body: scan(text, parts[1]![0], parts[1]![1], scope) };
    }
    case "in":
    case "md5":
      return { kind: name, path: argPath(text, parts[0]!, arity.usage), marker };
    case "uuid32":
    case "uuid36":
      return { kind: name, marker };
    default:
      return { kind: "macro", name: text.slice(parts[0]![0], parts[0]![1]).trim(), mode };
  }
}
