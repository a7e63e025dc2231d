/**
 * Turns bound argument values into text for the three places a placeholder can sit: a JSON
 * body, a path segment and a query-string value. Every failure is a {@linkcode BindError} naming
 * the 1-based argument index.
 *
 * @module
 */

import { BindError } from "../errors.ts";

/**
 * `JSON.stringify` of a string, quoted by hand when it is short and holds nothing to escape
 * (no `"`, `\`, control character or surrogate half): the common bound value, a word or an id,
 * then costs a scan of its characters instead of a runtime call (about 4 ns against 30 on Deno
 * 2.9). Anything else is `JSON.stringify`'s, so the text is the same either way.
 *
 * @param text The string.
 * @returns Its JSON text.
 *
 * @example
 * ```ts
 * import { quoteJson } from "./value_encoder.ts";
 * import assert from "node:assert/strict";
 *
 * for (const s of ["", "t7", 'say "hi"', "a\\b", "tab\t", "\ud800", "é😀", "x".repeat(100)]) {
 *   assert.equal(quoteJson(s), JSON.stringify(s));
 * }
 * ```
 */
export function quoteJson(text: string): string {
  const n = text.length;
  if (n > 64) return JSON.stringify(text);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) {
      return JSON.stringify(text);
    }
  }
  return '"' + text + '"';
}

/**
 * Encodes a value as compact JSON text for a body placeholder.
 *
 * - strings are JSON-escaped; `null` is `null`; finite numbers and booleans as usual;
 * - `bigint` is an exact JSON number; `Date` an ISO-8601 string; `Uint8Array` a base64 string;
 * - arrays, plain objects, class instances (own enumerable properties), `Map` (string keys) and
 *   `Set` become JSON; objects with `toJSON` go through it;
 * - `undefined` properties of objects and maps are left out (as `JSON.stringify` does);
 * - `undefined` elsewhere, `NaN`, `±Infinity`, functions, symbols, invalid dates, other typed
 *   arrays, circular objects and values nested deeper than {@linkcode MAX_VALUE_DEPTH} levels
 *   (arrays, objects, maps, sets and `toJSON` results count one each) throw a
 *   {@linkcode BindError} before anything is sent — never a `RangeError` from the stack.
 *
 * @param value The argument.
 * @param argIndex The 1-based argument index (for error messages).
 * @returns JSON text.
 * @throws {BindError} When the value has no JSON form.
 *
 * @example
 * ```ts
 * import { encodeJson } from "./value_encoder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(encodeJson('"}, "x": {', 1), '"\\"}, \\"x\\": {"');
 * assert.equal(encodeJson(12345678901234567890n, 1), "12345678901234567890");
 * assert.equal(encodeJson(new Date(Date.UTC(2024, 0, 2)), 1), '"2024-01-02T00:00:00.000Z"');
 * assert.equal(encodeJson(new Map([["a", new Set([1, 2])]]), 1), '{"a":[1,2]}');
 * assert.equal(encodeJson(new Uint8Array([104, 105]), 1), '"aGk="');
 * assert.throws(() => encodeJson(undefined, 3), /argument 3: value is undefined; pass null/);
 *
 * let deep: unknown = 1;
 * for (let i = 0; i < 100_000; i++) deep = [deep];
 * assert.throws(() => encodeJson(deep, 2), /argument 2 .*nests deeper than 512 levels/);
 * ```
 */
export function encodeJson(value: unknown, argIndex: number): string {
  switch (typeof value) {
    case "string":
      return quoteJson(value);
    case "number":
      if (value - value === 0) return "" + value;
      return fail(argIndex, "", `${value} is not valid JSON; pass null or a finite number`);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "object":
      if (value === null) return "null";
      return new JsonWriter(argIndex).object(value, "", "");
    default:
      return fail(argIndex, "", describeBad(value));
  }
}

function describeBad(value: unknown): string {
  if (value === undefined) return "value is undefined; pass null for a JSON null";
  return `a ${typeof value} has no JSON form; pass a plain value`;
}

/** Throws a BindError naming the argument. */
export function fail(argIndex: number, at: string, problem: string): never {
  const where = at ? ` (at ${at})` : "";
  throw new BindError(`Cannot bind argument ${argIndex}${where}: ${problem}`, { index: argIndex });
}

/**
 * The deepest nesting of a bound value (as of a command's body, and well inside the 1,000 levels
 * Elasticsearch parses): deeper values are a BindError, found before any recursion could exhaust
 * the stack.
 *
 * @example
 * ```ts
 * import { MAX_VALUE_DEPTH } from "./value_encoder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MAX_VALUE_DEPTH, 512);
 * ```
 */
export const MAX_VALUE_DEPTH = 512;

function tooDeep(argIndex: number, at: string): never {
  return fail(
    argIndex,
    at.length > 60 ? at.slice(0, 60) + "…" : at,
    `the value nests deeper than ${MAX_VALUE_DEPTH} levels; pass a flatter value`,
  );
}

/**
 * Checks that JSON text bound as a whole body (or NDJSON lines) nests at most
 * {@linkcode MAX_VALUE_DEPTH} levels: one pass over the text, no recursion.
 *
 * @param text JSON text (already known to parse).
 * @param argIndex The 1-based argument index (for error messages).
 * @throws {BindError} When it nests deeper.
 */
export function checkJsonTextDepth(text: string, argIndex: number): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: skip it, escapes included
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) {
        if (text.charCodeAt(i) === 92) i++;
      }
    } else if (c === 123 || c === 91) { // { [
      if (++depth > MAX_VALUE_DEPTH) tooDeep(argIndex, "");
    } else if (c === 125 || c === 93) depth--; // } ]
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function member(at: string, key: string): string {
  return IDENTIFIER.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`;
}

class JsonWriter {
  readonly argIndex: number;
  readonly stack: object[] = [];
  /** Objects being encoded, `toJSON` results included (the stack holds only containers). */
  depth = 0;

  constructor(argIndex: number) {
    this.argIndex = argIndex;
  }

  /** Encodes any value; `undefined` only when `optional` (then the caller omits it). */
  value(value: unknown, at: string, key: string): string {
    switch (typeof value) {
      case "string":
        return quoteJson(value);
      case "number":
        if (value - value === 0) return "" + value;
        return fail(this.argIndex, at, `${value} is not valid JSON; pass null or a finite number`);
      case "boolean":
        return value ? "true" : "false";
      case "bigint":
        return value.toString();
      case "object":
        return value === null ? "null" : this.object(value, at, key);
      default:
        return fail(this.argIndex, at, describeBad(value));
    }
  }

  object(value: object, at: string, key: string): string {
    if (this.depth >= MAX_VALUE_DEPTH) tooDeep(this.argIndex, at);
    this.depth++;
    const out = this.objectText(value, at, key);
    this.depth--;
    return out;
  }

  objectText(value: object, at: string, key: string): string {
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) {
        fail(this.argIndex, at, "the Date is invalid; pass a valid Date or null");
      }
      return `"${value.toISOString()}"`;
    }
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
      return this.value((value as { toJSON(key: string): unknown }).toJSON(key), at, key);
    }
    if (value instanceof Uint8Array) return `"${base64(value)}"`;
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
      fail(
        this.argIndex,
        at,
        "only Uint8Array is encoded (as base64); convert other binary data with Array.from",
      );
    }
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return this.value(value.valueOf(), at, key);
    }
    if (this.stack.includes(value)) {
      fail(this.argIndex, at, "the object is circular (it contains itself); pass a tree of values");
    }
    this.stack.push(value);
    let out: string;
    if (Array.isArray(value)) out = this.array(value, at);
    else if (value instanceof Set) out = this.array([...value], at);
    else if (value instanceof Map) out = this.map(value, at);
    else out = this.record(value as Record<string, unknown>, at);
    this.stack.pop();
    return out;
  }

  array(value: readonly unknown[], at: string): string {
    let out = "[";
    for (let k = 0; k < value.length; k++) {
      if (k > 0) out += ",";
      out += this.value(value[k], `${at}[${k}]`, String(k));
    }
    return out + "]";
  }

  record(value: Record<string, unknown>, at: string): string {
    let out = "{";
    for (const key of Object.keys(value)) {
      const v = value[key];
      if (v === undefined) continue;
      if (out.length > 1) out += ",";
      out += quoteJson(key) + ":" + this.value(v, member(at, key), key);
    }
    return out + "}";
  }

  map(value: Map<unknown, unknown>, at: string): string {
    let out = "{";
    for (const [key, v] of value) {
      if (typeof key !== "string") {
        fail(this.argIndex, at, `a Map key must be a string, got ${typeof key}`);
      }
      if (v === undefined) continue;
      if (out.length > 1) out += ",";
      out += quoteJson(key) + ":" + this.value(v, member(at, key), key);
    }
    return out + "}";
  }
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let k = 0; k < bytes.length; k += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  }
  return btoa(binary);
}

/** The text of a scalar path or query value (before percent-encoding). */
export function scalarText(value: unknown, argIndex: number, where: string): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      if (value - value === 0) return "" + value;
      return fail(argIndex, "", `${value} cannot be used in a ${where}; pass a finite number`);
    case "bigint":
    case "boolean":
      return String(value);
    case "object":
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) fail(argIndex, "", "the Date is invalid");
        return value.toISOString();
      }
      if (value === null) {
        return fail(argIndex, "", `null cannot be used in a ${where}; pass a string or number`);
      }
      return fail(argIndex, "", `an object cannot be used in a ${where}; pass a string or number`);
    default:
      return fail(argIndex, "", describeBad(value));
  }
}

/** Percent-encodes text for a URL component; a lone surrogate is a BindError. */
export function percent(text: string, argIndex: number): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return fail(argIndex, "", "the string contains a lone surrogate (broken Unicode)");
  }
}

function listOrScalar(value: unknown, argIndex: number, where: string): string {
  if (!Array.isArray(value)) return percent(scalarText(value, argIndex, where), argIndex);
  if (value.length === 0) fail(argIndex, "", `an empty array cannot be used in a ${where}`);
  return value.map((v) => percent(scalarText(v, argIndex, where), argIndex)).join(",");
}

/**
 * Encodes a value for a `{?}` query-string value (`?q={?}`): percent-encoded so that `&`, `=`,
 * `#`, `+` and spaces stay inside the value. Accepts strings (also empty), finite numbers, bigints, booleans
 * and dates; an array becomes a comma-separated list.
 *
 * @param value The argument.
 * @param argIndex The 1-based argument index (for error messages).
 * @returns The percent-encoded text.
 * @throws {BindError} For null, undefined, objects and non-finite numbers.
 *
 * @example
 * ```ts
 * import { encodeQueryValue } from "./value_encoder.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(encodeQueryValue("a&b=c d", 1), "a%26b%3Dc%20d");
 * assert.equal(encodeQueryValue(true, 1), "true");
 * assert.throws(() => encodeQueryValue(null, 4), /argument 4: null/);
 * ```
 */
export function encodeQueryValue(value: unknown, argIndex: number): string {
  return listOrScalar(value, argIndex, "query-string value");
}
