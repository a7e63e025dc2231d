/**
 * The hints that change a command: `overwrite_find_limit`, `overwrite_find_skip` and
 * `overwrite_find_as_count`. Other hint names are kept on the command and otherwise ignored.
 *
 * @module
 */

import type { BoundCommand, HintValue } from "./command.ts";
import { BindError } from "../errors.ts";
import { topLevelMembers } from "./console_lexer.ts";

/**
 * Applies the paging and count hints of a bound command and returns the rewritten command
 * (or the same object when no hint applies).
 *
 * - On `_search`: `overwrite_find_limit=N` sets the body's `size`, `overwrite_find_skip=N` sets
 *   `from`; a missing body becomes `{}` first.
 * - On `_msearch`: the same for every search line (the 2nd, 4th, … NDJSON line).
 * - `overwrite_find_as_count` on `_search` turns the path into `_count` and keeps only `query`
 *   in the body (limit and skip are then ignored). A value of `false` turns it off.
 *
 * @param command A bound command whose `hints` are already bound.
 * @returns The command with the hints applied.
 * @throws {BindError} When a limit or skip is not a non-negative integer.
 *
 * @example Page a search and count it
 * ```ts
 * import { applyHints } from "./hints.ts";
 * import assert from "node:assert/strict";
 *
 * const base = { method: "POST", ndjson: false, text: "", line: 1 } as const;
 * const paged = applyHints({
 *   ...base,
 *   path: "/users/_search",
 *   body: undefined,
 *   hints: { overwrite_find_limit: 10, overwrite_find_skip: 20 },
 * });
 * assert.equal(paged.body, '{"size":10,"from":20}');
 *
 * const counted = applyHints({
 *   ...base,
 *   path: "/users/_search?q=x",
 *   body: '{"query":{"match_all":{}},"sort":["age"],"size":5}',
 *   hints: { overwrite_find_as_count: true },
 * });
 * assert.equal(counted.path, "/users/_count?q=x");
 * assert.equal(counted.body, '{"query":{"match_all":{}}}');
 * ```
 */
export function applyHints(command: BoundCommand): BoundCommand {
  const hints = command.hints;
  const limit = hints.overwrite_find_limit;
  const skip = hints.overwrite_find_skip;
  const asCount = hints.overwrite_find_as_count;
  const counting = asCount !== undefined && asCount !== false && asCount !== null &&
    asCount !== "false";
  if (limit === undefined && skip === undefined && !counting) return command;
  const q = command.path.indexOf("?");
  const path = q < 0 ? command.path : command.path.slice(0, q);
  const query = q < 0 ? "" : command.path.slice(q);
  const endpoint = path.slice(path.lastIndexOf("/") + 1);
  if (endpoint === "_search" && counting) {
    const body = command.body === undefined ? undefined : rewrite(command.body, [], "query");
    return { ...command, path: path.slice(0, -"_search".length) + "_count" + query, body };
  }
  const set: [string, string][] = [];
  if (limit !== undefined) set.push(["size", integer("overwrite_find_limit", limit)]);
  if (skip !== undefined) set.push(["from", integer("overwrite_find_skip", skip)]);
  if (set.length === 0) return command;
  if (endpoint === "_search" && !command.ndjson) {
    return { ...command, body: rewrite(command.body ?? "{}", set, undefined) };
  }
  if (endpoint === "_msearch" && command.ndjson && command.body !== undefined) {
    const lines = command.body.split("\n");
    for (let k = 1; k < lines.length; k += 2) {
      if (lines[k] !== "") lines[k] = rewrite(lines[k]!, set, undefined);
    }
    return { ...command, body: lines.join("\n") };
  }
  return command;
}

function integer(name: string, value: HintValue): string {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw new BindError(
      `hint ${name} needs a non-negative integer, got ${JSON.stringify(value)}`,
      { name },
    );
  }
  return String(n);
}

/**
 * Rewrites the top-level members of a JSON object text without parsing it into values (so big
 * numbers keep their digits): drops the keys in `set` and puts them first with their new values;
 * with `keepOnly`, keeps only that key. Text that is not an object is returned unchanged.
 */
function rewrite(json: string, set: [string, string][], keepOnly: string | undefined): string {
  const members = topLevelMembers(json);
  if (members === undefined) return json;
  const parts = set.map(([key, value]) => `"${key}":${value}`);
  for (const m of members) {
    if (keepOnly !== undefined ? m.key !== keepOnly : set.some(([key]) => key === m.key)) {
      continue;
    }
    parts.push(json.slice(m.start, m.end));
  }
  return `{${parts.join(",")}}`;
}
