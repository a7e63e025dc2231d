/**
 * Path values: a value bound into a path segment always addresses exactly one segment of the
 * resource the command names. Values that URL normalisation would turn into a climb (`.`, `..`,
 * their percent-encoded forms, empty) are refused, and so are values bound as an index name that
 * would widen the target to other indices — unless the caller opts in, per value with
 * {@linkcode IndexPattern} or per call with `allowIndexPatterns`.
 *
 * @module
 */

import { InvalidArgumentError } from "../errors.ts";
import { fail, percent, scalarText } from "./value_encoder.ts";

/**
 * A value the caller means as an index pattern or list (`logs-*`, `a,b`, `_all`, `-old`): bound
 * in an index-name position it is sent as it is (still percent-encoded, still one segment).
 * Without it, such a value is refused there with {@linkcode InvalidArgumentError}.
 *
 * @example
 * ```ts
 * import { IndexPattern, InvalidArgumentError } from "@searchvisitor/searchvisitor/driver";
 * import { bindScript, parseScript } from "../internal.ts";
 * import assert from "node:assert/strict";
 *
 * const script = parseScript("POST /{?}/_search");
 * assert.throws(() => bindScript(script, ["logs-*"]), InvalidArgumentError);
 * assert.equal(bindScript(script, [new IndexPattern("logs-*")])[0]!.path, "/logs-*\/_search");
 * assert.equal(bindScript(script, ["logs-*"], { allowIndexPatterns: true })[0]!.path, "/logs-*\/_search");
 * ```
 */
export class IndexPattern {
  /** The pattern text. */
  readonly pattern: string;

  /**
   * Marks a pattern as meant.
   *
   * @param pattern The pattern, e.g. `logs-*` or `a,b`.
   */
  constructor(pattern: string) {
    if (typeof pattern !== "string" || pattern === "") {
      throw new TypeError("IndexPattern needs a non-empty string, e.g. new IndexPattern('logs-*')");
    }
    this.pattern = pattern;
  }

  /**
   * The pattern text.
   *
   * @returns The pattern text.
   */
  toString(): string {
    return this.pattern;
  }

  /**
   * The pattern text, so a pattern in a body is its string.
   *
   * @returns The pattern text.
   */
  toJSON(): string {
    return this.pattern;
  }
}

/**
 * How a path value is checked: `indexName` when it sits where an index name goes (the first
 * segment, `_cat/<api>/{?}`, after `_alias`), `allowIndexPatterns` when the caller opted in.
 *
 * @example
 * ```ts
 * import { encodePathSegment, type PathValueOptions } from "./path_segment.ts";
 * import assert from "node:assert/strict";
 *
 * const options: PathValueOptions = { indexName: true, allowIndexPatterns: true };
 * assert.equal(encodePathSegment("logs-*", 1, options), "logs-*");
 * ```
 */
export interface PathValueOptions {
  /** The value is bound as an index (or alias) name. */
  readonly indexName?: boolean;
  /** Wildcards, lists, `_all` and exclusions are allowed in index names for this call. */
  readonly allowIndexPatterns?: boolean;
  /** The argument's name, for messages (named arguments). */
  readonly name?: string;
}

const NO_OPTIONS: PathValueOptions = {};

/**
 * Encodes a value for a `{?}` in a path segment: the value stays inside its segment, whatever it
 * contains (`/ ? # % & = +`, spaces and non-ASCII are percent-encoded). Strings, finite numbers,
 * bigints, booleans and dates are accepted; an array becomes a comma-separated list
 * (`/a,b/_search`).
 *
 * @param value The argument.
 * @param argIndex The 1-based argument index (for error messages).
 * @param options Whether the value is an index name and whether patterns are allowed.
 * @returns The percent-encoded text.
 * @throws {InvalidArgumentError} For `.`, `..`, empty and their percent-encoded forms; in an
 * index name for `*`, `?`, `,`, `:`, `<`, `>`, `|`, a leading `_`, `-` or `+` (unless allowed).
 * @throws {BindError} For null, undefined, objects and non-finite numbers.
 *
 * @example
 * ```ts
 * import { encodePathSegment } from "./path_segment.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(encodePathSegment("../_all", 1), "..%2F_all");
 * assert.equal(encodePathSegment(["logs-1", "logs-2"], 1), "logs-1,logs-2");
 * assert.throws(() => encodePathSegment("..", 2), /argument 2: "\.\." .*climb/);
 * assert.throws(() => encodePathSegment("%2e", 2), /argument 2/);
 * assert.throws(() => encodePathSegment("", 2), /argument 2: an empty string/);
 * assert.throws(() => encodePathSegment("*", 1, { indexName: true }), /widens the target/);
 * ```
 */
export function encodePathSegment(
  value: unknown,
  argIndex: number,
  options: PathValueOptions = NO_OPTIONS,
): string {
  if (typeof value === "string") return stringSegment(value, argIndex, options);
  if (value instanceof IndexPattern) return patternSegment(value.pattern, argIndex, options);
  if (!Array.isArray(value)) return percent(scalarText(value, argIndex, "path segment"), argIndex);
  if (value.length === 0) fail(argIndex, "", "an empty array cannot be used in a path segment");
  let out = "";
  for (let k = 0; k < value.length; k++) {
    const v = value[k];
    if (k > 0) out += ",";
    out += typeof v === "string"
      ? stringSegment(v, argIndex, options)
      : v instanceof IndexPattern
      ? patternSegment(v.pattern, argIndex, options)
      : percent(scalarText(v, argIndex, "path segment"), argIndex);
  }
  return out;
}

/** A string value: one segment, and no pattern where an index name goes unless allowed. */
function stringSegment(text: string, argIndex: number, options: PathValueOptions): string {
  oneSegment(text, argIndex, options);
  if (options.indexName && !options.allowIndexPatterns) {
    const why = SUSPECT.test(text) ? widens(text) : undefined;
    if (why !== undefined) {
      refuse(
        argIndex,
        options,
        `${JSON.stringify(text)} bound as an index name widens the target (${why}); pass ` +
          "new IndexPattern(value) or { allowIndexPatterns: true } when a pattern is meant",
      );
    }
  }
  return percent(text, argIndex);
}

/** An {@linkcode IndexPattern}'s text: one segment, its pattern syntax meant. */
function patternSegment(text: string, argIndex: number, options: PathValueOptions): string {
  oneSegment(text, argIndex, options);
  return percent(text, argIndex);
}

/** Refuses a value that is no single path segment (empty, `.`, `..`). */
function oneSegment(text: string, argIndex: number, options: PathValueOptions): void {
  if (text === "") {
    refuse(argIndex, options, "an empty string cannot be a path segment; pass a non-empty value");
  }
  if (climbs(text)) {
    refuse(
      argIndex,
      options,
      `${
        JSON.stringify(text)
      } would climb out of its path segment (URLs treat . and .. as directory steps), so the ` +
        "request would address another resource; pass the real id or name",
    );
  }
}

/** `.`, `..` and their percent-encoded forms (decoded once or twice), which URLs normalise away. */
function climbs(text: string): boolean {
  const c = text.charCodeAt(0);
  if (text.length > 12 || (c !== 46 && c !== 37)) return false; // starts with . or %
  let t = text;
  for (let round = 0; round < 3; round++) {
    if (t === "." || t === "..") return true;
    if (!t.includes("%")) return false;
    try {
      t = decodeURIComponent(t);
    } catch {
      return false;
    }
  }
  return false;
}

const WIDENING = /[*?,:<>|]/;
/** Anything `widens` could object to; most names fail this test and skip the detail. */
const SUSPECT = /^[-+_]|[*?,:<>|%]/;

function widens(text: string): string | undefined {
  const c = text.charCodeAt(0);
  if (text === "_all") return "_all is every index";
  if (c === 95) return "a leading _ names an API or _all, not an index"; // _
  if (c === 45) return "a leading - excludes indices from a wider pattern"; // -
  if (c === 43) return "a leading + is pattern syntax"; // +
  const m = WIDENING.exec(text);
  if (m) {
    return m[0] === ","
      ? ", separates several indices"
      : m[0] === ":"
      ? ": addresses a remote cluster"
      : `${m[0]} is pattern syntax`;
  }
  if (text.includes("%")) {
    try {
      const decoded = decodeURIComponent(text);
      if (decoded !== text) return widens(decoded);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function refuse(argIndex: number, options: PathValueOptions, problem: string): never {
  const who = options.name === undefined ? `argument ${argIndex}` : `argument "${options.name}"`;
  throw new InvalidArgumentError(`Cannot bind ${who}: ${problem}`, {
    index: argIndex,
    name: options.name,
  });
}
