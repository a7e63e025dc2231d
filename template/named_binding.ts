// Named binding: template text with `#{…}`, `${…}`, `@{…}` and positional `?`/`{?}` becomes
// driver text with only `?`/`{?}` plus the argument array, so the driver does all the encoding.
// Texts are scanned once and cached (bounded, _template_plan.ts); a text without rules and
// splices binds by filling an array here, the others are rendered by _template_renderer.ts.

import { BindError } from "../driver/mod.ts";
import { dropDanglingCommas } from "../driver/internal.ts";
import { MISSING, resolvePath } from "./_path.ts";
import { type Plan, planOf, taggedPlanOf } from "./_template_plan.ts";
import { Renderer, taggedLabel, type TemplateCall } from "./_template_renderer.ts";
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

const EMPTY: readonly unknown[] = Object.freeze([]);

/** Whether a text needs the template layer at all (named slots, splices, rules, escapes). */
export function needsTemplate(text: string): boolean {
  return text.includes("#{") || text.includes("${") || text.includes("@{");
}

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

/**
 * Names the argument behind a driver argument index of template text bound with `args`: the
 * text is bound again with its labels (only an error needs them, so binding never keeps them).
 */
export function argumentLabelOf(
  text: string,
  args: unknown,
  index: number,
  macros?: ReadonlyMap<string, string>,
): string | number | undefined {
  const bound = bindPlan(planOf(text), args, macros, "labelled");
  return labelsOf.get(bound)?.[index - 1];
}

function isNamedSource(args: unknown): boolean {
  return args !== null && typeof args === "object" && !Array.isArray(args);
}

/**
 * How a plan is bound: `plain` (no labels kept), `labelled` (each argument's label kept for
 * {@linkcode argumentLabel}), `tagged` (a tagged template's values, labelled).
 */
type BindMode = "plain" | "labelled" | "tagged";

function bindPlan(
  plan: Plan,
  args: unknown,
  macros: ReadonlyMap<string, string> | undefined,
  mode: BindMode,
): BoundTemplate {
  const text = plan.text;
  const tagged = mode === "tagged";
  const withLabels = mode !== "plain";
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
    const labels = withLabels ? new Array<string | number>(slots.length) : undefined;
    let k = 0;
    for (let i = 0; i < slots.length; i++) {
      const path = slots[i]!;
      let v: unknown;
      if (path === null) {
        v = positional[k++];
        if (labels) labels[i] = k;
      } else {
        if (labels) labels[i] = tagged ? taggedLabel(path.source) : path.source;
        v = namedGiven ? resolvePath(named, path) : MISSING;
        if (v === MISSING || v === undefined) {
          const call: TemplateCall = {
            command: text,
            positional,
            named,
            namedGiven,
            macros,
            tagged,
          };
          v = new Renderer(call).value(path, "named argument");
        }
      }
      out[i] = v !== null && typeof v === "object" ? prepareValue(v) : v;
    }
    const bound = { text: plan.fixedText, args: out };
    if (labels) labelsOf.set(bound, labels);
    return bound;
  }
  const r = new Renderer({ command: text, positional, named, namedGiven, macros, tagged });
  r.render(plan.segments);
  const rendered = r.parts.join("");
  const bound = { text: r.vanished ? dropDanglingCommas(rendered) : rendered, args: r.args };
  if (withLabels) labelsOf.set(bound, r.labels);
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
  return bindPlan(planOf(text), args, options.macros, "plain");
}

/** Binds tagged-template text whose values are `#{0}`, `#{1}`, … of `values`. */
export function bindTagged(
  text: string,
  values: readonly unknown[],
  macros?: ReadonlyMap<string, string>,
): BoundTemplate {
  // A tagged command is bound once per command object: it keeps its labels for its errors.
  return bindPlan(taggedPlanOf(text), values, macros, "tagged");
}
