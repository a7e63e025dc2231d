/**
 * The top-level members of a parsed command's body, read from its compact chunks with the
 * lexer's tokens (`topLevelMembers`), so a room that edits a body (the mappers' paging) never
 * re-scans command text.
 *
 * @module
 */

import type { ParsedCommand } from "./command_tokenizer.ts";
import { LBRACE, topLevelMembers } from "./console_lexer.ts";

/** One top-level member of a parsed body: its key (undefined for a `?` key) and value text. */
export interface BodyMember {
  /** The member's name, or undefined when the key is a `?` placeholder. */
  readonly key: string | undefined;
  /** The value as compact JSON text (`?` for a placeholder). */
  readonly value: string;
}

/**
 * The top-level members of a parsed command's body, read from its compact chunks (no second
 * parse of the text): undefined when the body is not an object (an array, a whole-body `?`,
 * NDJSON), an empty list without a body.
 *
 * @param command A command of {@linkcode parseScript}.
 * @returns The members in order, or undefined.
 *
 * @example
 * ```ts
 * import { bodyMembers, parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const [command] = parseScript('GET /i/_search {"query": {"term": {"a": ?}}, ?: 1}').commands;
 * assert.deepEqual(bodyMembers(command!), [
 *   { key: "query", value: '{"term":{"a":?}}' },
 *   { key: undefined, value: "1" },
 * ]);
 * assert.equal(bodyMembers(parseScript("GET /i/_search ?").commands[0]!), undefined);
 * assert.deepEqual(bodyMembers(parseScript("GET /i/_search").commands[0]!), []);
 * ```
 */
export function bodyMembers(command: ParsedCommand): BodyMember[] | undefined {
  if (command.body === undefined) return [];
  if (command.ndjson) return undefined;
  const body = command.body.join("?");
  if (body.charCodeAt(0) !== LBRACE) return undefined;
  return topLevelMembers(body)?.map((m) => ({
    key: m.key,
    value: body.slice(m.valueStart, m.end),
  }));
}
