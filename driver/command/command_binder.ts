/**
 * Binds positional arguments to a parsed command text: each placeholder's argument is encoded
 * for where it sits and concatenated with the fixed chunks; then the hints are applied.
 *
 * @module
 */

import type { BoundCommand, HintValue } from "./command.ts";
import type { ParsedCommand, ParsedScript, Slot } from "./command_tokenizer.ts";
import { BindError, InvalidArgumentError } from "../errors.ts";
import { applyHints } from "./hints.ts";
import { INTEGER_HINTS } from "./_hint_scan.ts";
import { checkJsonTextDepth, encodeJson, encodeQueryValue, quoteJson } from "./value_encoder.ts";
import { encodePathSegment, type PathValueOptions } from "./path_segment.ts";

const NO_HINTS: Readonly<Record<string, HintValue>> = Object.freeze({});
const INDEX: PathValueOptions = Object.freeze({ indexName: true });
const INDEX_PATTERNS: PathValueOptions = Object.freeze({
  indexName: true,
  allowIndexPatterns: true,
});

/**
 * Options of {@linkcode bindScript}.
 *
 * @example
 * ```ts
 * import { type BindScriptOptions, bindScript, parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const options: BindScriptOptions = { allowIndexPatterns: true };
 * assert.equal(bindScript(parseScript("DELETE /{?}"), ["old-*"], options)[0]!.path, "/old-*");
 * ```
 */
export interface BindScriptOptions {
  /** Let values bound as index names widen the target (`*`, `,`, `_all`, a leading `-`). */
  readonly allowIndexPatterns?: boolean;
}

/**
 * Binds `args` (consumed left to right across hints, path, query and body, and across commands)
 * to a parsed script and returns one ready-to-send command per parsed command.
 *
 * Body values are encoded by {@linkcode encodeJson}; a `?` key needs a string; a whole-body `?`
 * takes an object or array (encoded as JSON) or a string of JSON text (sent as it is, after a
 * check); a whole NDJSON line `?` takes an object (one line), an array (one line per element) or
 * a string of NDJSON text. Path values go through {@linkcode encodePathSegment} (never `.`,
 * `..` or empty; never a pattern in an index name unless `allowIndexPatterns` or an
 * `IndexPattern` value) and query values through {@linkcode encodeQueryValue}.
 *
 * @param script A script from {@linkcode parseScript}.
 * @param args One argument per placeholder.
 * @param options Whether index names may be patterns.
 * @returns The bound commands, in order.
 * @throws {BindError} On a count mismatch (naming both counts) or an argument that cannot be
 * encoded (naming its 1-based index and where its placeholder is).
 *
 * @example
 * ```ts
 * import { bindScript, parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const script = parseScript('PUT /users/_doc/{?}?refresh={?} {"name": ?, "tags": ?}');
 * const command = bindScript(script, ["a/1", true, 'Al "the pal"', ["x"]])[0]!;
 * assert.equal(command.path, "/users/_doc/a%2F1?refresh=true");
 * assert.equal(command.body, '{"name":"Al \\"the pal\\"","tags":["x"]}');
 * assert.throws(
 *   () => bindScript(script, ["1"]),
 *   /the command has 4 placeholders but 1 argument was given/,
 * );
 * ```
 */
export function bindScript(
  script: ParsedScript,
  args: readonly unknown[],
  options?: BindScriptOptions,
): BoundCommand[] {
  checkCount(script, args);
  const commands = script.commands;
  const out: BoundCommand[] = [];
  const index = options?.allowIndexPatterns === true ? INDEX_PATTERNS : INDEX;
  let first = 0;
  for (let k = 0; k < commands.length; k++) {
    const command = commands[k]!;
    out.push(bindCommand(command, args, first, index));
    first += command.placeholderCount;
  }
  return out;
}

/**
 * {@linkcode bindScript} for a script of exactly one command: that command, without the list
 * (the template's reads run one command a call).
 *
 * @param script A script of one command, from {@linkcode parseScript}.
 * @param args One argument per placeholder.
 * @returns The bound command.
 * @throws {BindError} As `bindScript` does; a RangeError for a script of several commands.
 */
export function bindSingle(script: ParsedScript, args: readonly unknown[]): BoundCommand {
  if (script.commands.length !== 1) {
    throw new RangeError(`bindSingle: the script has ${script.commands.length} commands`);
  }
  if (lastScript === script && sameValues(lastArgs, args)) return lastBound!;
  checkCount(script, args);
  const bound = bindCommand(script.commands[0]!, args, 0, INDEX);
  const kept = primitivesOnly(args);
  lastScript = kept ? script : undefined;
  lastArgs = kept ? args.slice() : EMPTY_ARGS;
  lastBound = kept ? bound : undefined;
  return bound;
}

/**
 * The last command `bindSingle` bound from primitive arguments only (strings, numbers,
 * booleans, bigints, null, undefined): a read run again with the same values (the template's
 * `queryForList` in a loop) is given the same bound command, not bound again. An object
 * argument is never kept (it may change between calls).
 */
let lastScript: ParsedScript | undefined;
let lastArgs: readonly unknown[] = [];
let lastBound: BoundCommand | undefined;
const EMPTY_ARGS: readonly unknown[] = Object.freeze([]);

function primitivesOnly(args: readonly unknown[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const v = args[i];
    if (v !== null && (typeof v === "object" || typeof v === "function" || typeof v === "symbol")) {
      return false;
    }
  }
  return true;
}

/** The same primitive values (`===`; a NaN never matches: bound again), in the same order. */
function sameValues(kept: readonly unknown[], args: readonly unknown[]): boolean {
  if (kept.length !== args.length) return false;
  for (let i = 0; i < kept.length; i++) if (kept[i] !== args[i]) return false;
  return true;
}

/** A BindError when `args` does not give one argument per placeholder of `script`. */
function checkCount(script: ParsedScript, args: readonly unknown[]): void {
  if (args.length === script.placeholderCount) return;
  const p = script.placeholderCount;
  const a = args.length;
  throw new BindError(
    `the command has ${p} placeholder${p === 1 ? "" : "s"} but ${a} argument${
      a === 1 ? " was" : "s were"
    } given`,
    { command: script.text },
  );
}

/**
 * Binds one command of a script; its arguments start at `args[first]`. `index` is how a path
 * value is checked where an index name goes (patterns allowed or not).
 */
function bindCommand(
  command: ParsedCommand,
  args: readonly unknown[],
  first: number,
  index: PathValueOptions,
): BoundCommand {
  const slots = command.slots;
  let a = first;
  let s = 0;
  try {
    let hints = NO_HINTS;
    if (command.hints.length > 0) {
      const record: Record<string, HintValue> = {};
      for (const hint of command.hints) {
        record[hint.name] = hint.placeholder
          ? (s++, hintValue(hint.name, args[a], ++a))
          : hint.value;
      }
      hints = record;
    }
    const target = command.target;
    let path = target[0]!;
    for (let k = 1; k < target.length; k++) {
      const value = args[a++];
      const slot = slots[s++]!;
      path += (slot.kind !== "path" ? encodeQueryValue(value, a) : encodePathSegment(
        value,
        a,
        slot.indexName ? index : undefined,
      )) + target[k];
    }
    let body: string | undefined;
    const chunks = command.body;
    if (chunks !== undefined) {
      body = chunks[0];
      for (let k = 1; k < chunks.length; k++) {
        const value = args[a++];
        const kind = slots[s++]!.kind;
        // Inline fast paths for the common JSON values; everything else goes to the encoders.
        body += (kind !== "value"
          ? encodeSpecial(kind, value, a)
          : typeof value === "string"
          ? quoteJson(value)
          : typeof value === "number" && value - value === 0
          ? "" + value
          : encodeJson(value, a)) + chunks[k];
      }
    }
    const bound: BoundCommand = {
      method: command.method,
      path,
      pathTemplate: command.pathTemplate,
      body,
      ndjson: command.ndjson,
      hints,
      text: command.text,
      line: command.line,
    };
    return hints === NO_HINTS ? bound : applyHints(bound);
  } catch (error) {
    if (!(error instanceof BindError)) throw error;
    const slot: Slot | undefined = error.index === undefined ? undefined : slots[s - 1];
    const where = slot
      ? ` (${slot.kind} placeholder at line ${slot.line}, column ${slot.column})`
      : "";
    const Kind = error instanceof InvalidArgumentError ? InvalidArgumentError : BindError;
    throw new Kind(error.message + where, {
      index: error.index,
      name: error.argumentName,
      command: command.text,
      cause: error,
    });
  }
}

function hintValue(name: string, value: unknown, index: number): HintValue {
  if (INTEGER_HINTS.has(name)) {
    const n = typeof value === "bigint" ? Number(value) : value;
    if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) return n;
    throw new BindError(
      `Cannot bind argument ${index}: hint ${name} needs a non-negative integer, got ${
        typeof value === "string" ? JSON.stringify(value) : String(value)
      }`,
      { index },
    );
  }
  if (
    value === null || typeof value === "string" || typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  ) return value;
  if (typeof value === "bigint" && Number.isSafeInteger(Number(value))) return Number(value);
  throw new BindError(
    `Cannot bind argument ${index}: a hint value must be a string, finite number, boolean or null`,
    { index },
  );
}

function encodeSpecial(kind: string, value: unknown, index: number): string {
  if (kind === "key") {
    if (typeof value === "string") return quoteJson(value);
    throw new BindError(
      `Cannot bind argument ${index}: an object key must be a string, got ${
        value === null ? "null" : typeof value
      }`,
      { index },
    );
  }
  if (typeof value === "string") {
    return kind === "line" ? ndjsonText(value, index) : jsonText(value, index);
  }
  if (kind === "line" && Array.isArray(value)) {
    if (value.length === 0) {
      throw new BindError(`Cannot bind argument ${index}: an empty array has no NDJSON lines`, {
        index,
      });
    }
    return value.map((item) => wholeValue(item, index)).join("\n");
  }
  return wholeValue(value, index);
}

function wholeValue(value: unknown, index: number): string {
  if (value === null || typeof value !== "object") {
    throw new BindError(
      `Cannot bind argument ${index}: a whole body must be an object, an array or a string of ` +
        `JSON text, got ${value === null ? "null" : typeof value}`,
      { index },
    );
  }
  const json = encodeJson(value, index);
  const first = json.charCodeAt(0);
  if (first !== 123 && first !== 91) { // { [
    throw new BindError(
      `Cannot bind argument ${index}: a whole body must be a JSON object or array, but this ` +
        `value is written as ${json.length > 40 ? json.slice(0, 40) + "…" : json}`,
      { index },
    );
  }
  return json;
}

function jsonText(text: string, index: number): string {
  const trimmed = text.trim();
  let ok = false;
  try {
    const parsed = JSON.parse(trimmed);
    ok = parsed !== null && typeof parsed === "object";
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new BindError(
      `Cannot bind argument ${index}: a string bound as a whole body must be the JSON text of an ` +
        `object or array`,
      { index },
    );
  }
  checkJsonTextDepth(trimmed, index);
  return trimmed;
}

function ndjsonText(text: string, index: number): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (lines.length === 0) {
    throw new BindError(`Cannot bind argument ${index}: the NDJSON text has no lines`, { index });
  }
  return lines.map((line) => jsonText(line, index)).join("\n");
}
