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
// What it yields: `ParsedScript` here; a command, its hints and slots are public types (`mod.ts`),
// since the migrate room's steps carry them.
export type { ParsedScript } from "./command/command_tokenizer.ts";
export { bindScript, type BindScriptOptions } from "./command/command_binder.ts";
// JSON text of a string, short plain strings quoted without a runtime call (lambda's field names).
export { quoteJson } from "./command/value_encoder.ts";
export { CommandCache } from "./command/command_cache.ts";

// The template's reads: the first result of a text without a Statement object.
export { executeFirst, executeFirstThen, type TextWithArgs } from "./jdbc/statement.ts";
// Reading a search's rows from its hits in one pass (entities, hits, the lambda's maps).
export { rowOfHit, takeDocHits } from "./jdbc/result_set.ts";

// The one reading of console text: the lexer's tokens, character classes and the ends of strings,
// comments and placeholders, for the rooms that read command text without binding it (the
// template's scanner and rules, xml's placeholders, mapper paging, the checker).
export {
  APOSTROPHE,
  AT,
  BACKSLASH,
  COLON,
  COMMA,
  commentEnd,
  ConsoleLexer,
  CR,
  DOLLAR,
  HASH,
  isDigit,
  isLetter,
  isLineBreak,
  isMethodAt,
  isNameChar,
  isNameStart,
  isNdjsonTarget,
  isSpace,
  LBRACE,
  LBRACKET,
  type LexMode,
  LF,
  markerAt,
  markerEnd,
  METHODS,
  QUESTION,
  QUOTE,
  RBRACE,
  RBRACKET,
  SEMI,
  SPACE,
  splitTopLevel,
  stringEnd,
  TAB,
  targetStart,
  type TokenKind,
  topLevelMembers,
  type TopMember,
  wordAt,
} from "./command/console_lexer.ts";
export { type BodyMember, bodyMembers } from "./command/parsed_body.ts";

// For the layers that render optional parts (template rules, mapper files): one condition
// language and one clean-up of the commas that vanished members leave.
export {
  ConditionExpression,
  type ConditionParseOptions,
  type VariableLookup,
} from "./condition/condition_expression.ts";
export { dropDanglingCommas } from "./command/dangling_commas.ts";

// Errors alike in every room: excerpts under a position, credentials masked.
export { LineIndex, makeExcerpt, positionOf } from "./input_errors.ts";
export { redact } from "./error_base.ts";

// What the lambda room caches mappings by.
export { mappingEpoch, serverProduct } from "./jdbc/mapping_epoch.ts";
