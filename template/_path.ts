// Named-argument paths: `name`, `a.b[0].c`, `a["key"]`, `0` (an index into an array source).
// Parsed once into a list of keys; resolved against the argument object at bind time.

/** A parsed argument path: the source text and its keys. */
export interface ArgPath {
  readonly source: string;
  readonly keys: readonly string[];
}

const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);
const PATH = /^[A-Za-z_$0-9][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["[^"\\]*"\]|\['[^'\\]*'\])*$/;

/**
 * Parses a path. Returns `undefined` when the text is not a path (the caller reports where).
 */
export function parsePath(text: string): ArgPath | undefined {
  const source = text.trim();
  if (!PATH.test(source)) return undefined;
  const keys: string[] = [];
  const re = /([A-Za-z_$0-9][\w$]*)|\[(\d+)\]|\["([^"\\]*)"\]|\['([^'\\]*)'\]/g;
  for (const m of source.matchAll(re)) keys.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
  if (keys.some((k) => FORBIDDEN.has(k))) return undefined;
  return { source, keys };
}

/** Marks a path that has no value in the argument source. */
export const MISSING: unique symbol = Symbol("missing");

/**
 * Reads a path from an argument source. Maps are read with `get`; any other object by property.
 * Returns {@linkcode MISSING} when some step is absent (null/undefined before the last key, or an
 * absent last key).
 */
export function resolvePath(source: unknown, path: ArgPath): unknown {
  const keys = path.keys;
  if (
    keys.length === 1 && source !== null && typeof source === "object" && !(source instanceof Map)
  ) {
    const key = keys[0]!;
    return key in source ? (source as Record<string, unknown>)[key] : MISSING;
  }
  let value: unknown = source;
  for (const key of keys) {
    if (value === null || value === undefined) return MISSING;
    if (value instanceof Map) {
      if (!value.has(key)) return MISSING;
      value = value.get(key);
    } else if (typeof value === "object" || typeof value === "function") {
      if (!(key in (value as object))) return MISSING;
      value = (value as Record<string, unknown>)[key];
    } else {
      return MISSING;
    }
  }
  return value;
}
