/**
 * The driver's second door, for its sibling rooms only (template, lambda, mapper, xml, check, cli,
 * playground): the command language they parse, cache and bind themselves before running it with
 * `StatementBase.executeCommands`, the condition language of `@{if, …}` and mapper files'
 * `test="…"`, the clean-up of dangling commas, and the helpers that make errors alike.
 *
 * Not public API: this module is listed nowhere in deno.json's `exports` nor in the npm
 * package's entry points, its names may change in any release, and users' code, examples and
 * docs import `driver/mod.ts` only (`tools/check_layers.ts` enforces both).
 *
 * @module
 */

// The command language: parse once, cache by text, bind per call (into the public
// `BoundCommand`). Value encoding and hints happen inside `bindScript`.
export { parseScript } from "./command/command_tokenizer.ts";
export type {
  ParsedCommand,
  ParsedHint,
  ParsedScript,
  Slot,
  SlotKind,
} from "./command/command_tokenizer.ts";
export { bindScript, type BindScriptOptions } from "./command/command_binder.ts";
export { CommandCache } from "./command/command_cache.ts";

// The template's reads: the first result of a text without a Statement object.
export { executeFirst } from "./jdbc/statement.ts";

// The console lexer's pieces, for the rooms that read command text without binding it (the
// template's scanner, xml's placeholders, mapper paging, the checker).
export {
  type BodyMember,
  bodyMembers,
  commentEnd,
  isMethodAt,
  isNdjsonTarget,
  METHODS,
  stringEnd,
} from "./command/console_lexer.ts";

// For the layers that render optional parts (template rules, mapper files): one condition
// language and one clean-up of the commas that vanished members leave.
export {
  ConditionExpression,
  type ConditionParseOptions,
  type VariableLookup,
} from "./condition/condition_expression.ts";
export { dropDanglingCommas } from "./command/dangling_commas.ts";

// Errors alike in every room: excerpts under a position, credentials masked.
export { makeExcerpt, positionOf } from "./input_errors.ts";
export { redact } from "./error_base.ts";

// What the lambda room caches mappings by.
export { mappingEpoch, serverProduct } from "./jdbc/mapping_epoch.ts";
