// `action.auto_create_index`: which missing indices a document write may create. The setting is
// `true` (any), `false` (none) or a comma-separated list of name patterns, each optionally
// prefixed with `+` (allow) or `-` (forbid); the first pattern matching the name decides, and a
// name no pattern matches is refused.

import { illegalArgument } from "../_errors.ts";
import { matchPattern } from "../_index/name_pattern.ts";

/** The parsed setting: a flag, or the patterns in order with the text as written. */
export type AutoCreate = boolean | {
  /** The setting as written (quoted back in refusals). */
  readonly text: string;
  /** Each pattern and whether a match allows creation. */
  readonly rules: ReadonlyArray<readonly [pattern: string, allow: boolean]>;
};

const KEY = "action.auto_create_index";

/**
 * Parses the setting as Elasticsearch does; an unset value means `true`.
 *
 * @param value The setting's value (boolean or string), undefined when unset.
 * @returns The parsed rule.
 * @throws 400 `illegal_argument_exception` for an empty pattern or a bare `+`/`-`.
 */
export function parseAutoCreate(value: unknown): AutoCreate {
  if (value === undefined || value === null) return true;
  const text = String(value);
  if (text === "true") return true;
  if (text === "false") return false;
  const rules: Array<readonly [string, boolean]> = [];
  for (const raw of text.split(",")) {
    const pattern = raw.trim();
    if (pattern === "") {
      throw illegalArgument(
        `Can't parse [${text}] for setting [${KEY}] must be either [true, false, or a comma separated list of index patterns]`,
      );
    }
    const sign = pattern[0];
    if ((sign === "+" || sign === "-") && pattern.length === 1) {
      throw illegalArgument(
        `Can't parse [${text}] for setting [${KEY}] must contain an index name after [${sign}]`,
      );
    }
    if (sign === "-") rules.push([pattern.slice(1), false]);
    else if (sign === "+") rules.push([pattern.slice(1), true]);
    else rules.push([pattern, true]);
  }
  return { text, rules };
}

/**
 * Why the setting forbids creating `name`, in Elasticsearch's words, or undefined when it allows it.
 *
 * @example
 * ```ts
 * import { autoCreateRefusal, parseAutoCreate } from "./auto_create.ts";
 * const rule = parseAutoCreate("-logs-*,+metrics-*");
 * autoCreateRefusal(rule, "metrics-1"); // undefined
 * autoCreateRefusal(rule, "logs-1"); // "... contains [-logs-*] which forbids automatic creation of the index"
 * ```
 */
export function autoCreateRefusal(rule: AutoCreate, name: string): string | undefined {
  if (rule === true) return undefined;
  if (rule === false) return `no such index [${name}] and [${KEY}] is [false]`;
  for (const [pattern, allow] of rule.rules) {
    if (!matchPattern(pattern, name)) continue;
    if (allow) return undefined;
    return `no such index [${name}] and [${KEY}] contains [-${pattern}] which forbids automatic creation of the index`;
  }
  return `no such index [${name}] and [${KEY}] ([${rule.text}]) doesn't match`;
}
