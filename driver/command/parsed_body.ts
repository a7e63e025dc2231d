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
 * NDJSON), an empty list without a body. Read once per parsed command (the answer is frozen and
 * kept with it).
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
export function bodyMembers(command: ParsedCommand): readonly BodyMember[] | undefined {
  // Parsed commands are frozen and cached with their text, so their members are read once.
  if (MEMBERS.has(command)) return MEMBERS.get(command);
  const members = readMembers(command);
  MEMBERS.set(command, members);
  return members;
}

const MEMBERS = new WeakMap<ParsedCommand, readonly BodyMember[] | undefined>();

function readMembers(command: ParsedCommand): readonly BodyMember[] | undefined {
  if (command.body === undefined) return Object.freeze([]);
  if (command.ndjson) return undefined;
  const body = command.body.join("?");
  if (body.charCodeAt(0) !== LBRACE) return undefined;
  const members = topLevelMembers(body);
  return members &&
    Object.freeze(
      members.map((m) => Object.freeze({ key: m.key, value: body.slice(m.valueStart, m.end) })),
    );
}
