// Integers beyond 2^53 through the writes that rebuild a source (partial update, upsert,
// scripts, update by query, reindex). A stored source object holds doubles; its kept text
// holds the exact digits. These helpers read the exact form of a stored source or a request
// body (bigints), and give a rebuilt source back its exact text, so a `long` survives the write
// whether or not the write touches it. Sources and bodies without a run of 16 digits never
// leave the plain path.

import { own, setOwn } from "../_index/own.ts";
import { parseExactJson } from "../_index/exact_json.ts";
import { keepSourceText, sourceText, stringifyReply } from "../_index/raw_source.ts";
import { isJsonObject, type JsonObject } from "../_json.ts";

const LONG_DIGITS = /\d{16}/;

/** The exact form (bigints beyond 2^53) of a stored source, when its kept text may hold one. */
export function exactStored(source: object): JsonObject | undefined {
  const text = sourceText(source);
  if (text === undefined || !LONG_DIGITS.test(text)) return undefined;
  const value = parseExactJson(text);
  return isJsonObject(value) ? value : undefined;
}

/** A request body parsed with exact integers, when its text may hold one beyond 2^53. */
export function exactBody(text: string | undefined): JsonObject | undefined {
  if (text === undefined || !LONG_DIGITS.test(text)) return undefined;
  try {
    const value = parseExactJson(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined; // the doubles parse already reported the error
  }
}

function hasBigint(value: unknown): boolean {
  if (typeof value === "bigint") return true;
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(hasBigint);
  for (const key in value) if (hasBigint((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * The source to store for a value that may hold bigints: the value itself when it holds none,
 * else its doubles object with the exact text kept beside it.
 */
export function settleExact(exact: JsonObject): JsonObject {
  if (!hasBigint(exact)) return exact;
  const text = stringifyReply(exact);
  const source = JSON.parse(text) as JsonObject;
  keepSourceText(source, text);
  return source;
}

/**
 * A source a script or a copy rebuilt from doubles, with its exact integers back: a whole
 * number beyond 2^53 takes the exact value that stood at the same place in `before` when they
 * are the same double, else a bigint of `params` that is that double. Other numbers stay the
 * doubles the script computed.
 */
export function restoreExact(result: JsonObject, before: unknown, params: unknown): JsonObject {
  if (before === undefined && params === undefined) return result;
  const pool = new Map<number, bigint>();
  const collect = (value: unknown): void => {
    if (typeof value === "bigint") {
      if (!pool.has(Number(value))) pool.set(Number(value), value);
    } else if (Array.isArray(value)) value.forEach(collect);
    else if (isJsonObject(value)) Object.values(value).forEach(collect);
  };
  collect(params);
  let found = false;
  const walk = (value: unknown, old: unknown): unknown => {
    if (typeof value === "number") {
      if (Number.isSafeInteger(value) || !Number.isInteger(value)) return value;
      const exact = typeof old === "bigint" && Number(old) === value ? old : pool.get(value);
      if (exact === undefined) return value;
      found = true;
      return exact;
    }
    if (Array.isArray(value)) {
      return value.map((v, i) => walk(v, Array.isArray(old) ? old[i] : undefined));
    }
    if (!isJsonObject(value)) return value;
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      setOwn(out, key, walk(value[key], isJsonObject(old) ? own(old, key) : undefined));
    }
    return out;
  };
  const exact = walk(result, before) as JsonObject;
  return found ? settleExact(exact) : result;
}
