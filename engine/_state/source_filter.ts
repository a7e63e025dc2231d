// `_source` filtering of GET responses: includes / excludes with `*` wildcards over dotted paths.

import { setOwn } from "../_index/own.ts";
import { matchPattern } from "./names.ts";
import { type JsonObject } from "../_json.ts";

function matchesAny(patterns: string[], path: string): boolean {
  return patterns.some((p) => matchPattern(p, path) || path.startsWith(p + "."));
}

function couldMatchBelow(patterns: string[], path: string): boolean {
  return patterns.some((p) =>
    p.startsWith(path + ".") ||
    p.includes("*") && matchPattern(p.split(".")[0], path.split(".")[0]) || p === "*"
  );
}

function filterObject(
  source: JsonObject,
  includes: string[],
  excludes: string[],
  prefix: string,
): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (excludes.length > 0 && excludes.some((p) => matchPattern(p, path))) continue;
    const included = includes.length === 0 || matchesAny(includes, path);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      if (included || couldMatchBelow(includes, path)) {
        const inner = filterObject(value as JsonObject, included ? [] : includes, excludes, path);
        if (included || Object.keys(inner).length > 0) setOwn(out, key, inner);
      }
    } else if (Array.isArray(value) && !included && couldMatchBelow(includes, path)) {
      const items = value
        .filter((v) => v !== null && typeof v === "object" && !Array.isArray(v))
        .map((v) => filterObject(v as JsonObject, includes, excludes, path))
        .filter((v) => Object.keys(v).length > 0);
      if (items.length > 0) setOwn(out, key, items);
    } else if (included) {
      setOwn(out, key, value);
    }
  }
  return out;
}

/** Applies include / exclude patterns to a `_source` object. */
export function filterSource(
  source: JsonObject,
  includes: string[],
  excludes: string[],
): JsonObject {
  if (includes.length === 0 && excludes.length === 0) return source;
  return filterObject(source, includes, excludes, "");
}

/** Splits a comma list parameter. */
export function listParam(value: string | null): string[] {
  return value === null || value === ""
    ? []
    : value.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * Reads `_source`, `_source_includes`, `_source_excludes` parameters:
 * false → no source; otherwise the include and exclude lists.
 */
export function sourceSpec(
  source: unknown,
  includes: string[],
  excludes: string[],
): false | { includes: string[]; excludes: string[] } {
  if (source === false || source === "false") return false;
  let inc = includes;
  let exc = excludes;
  if (typeof source === "string" && source !== "true" && source !== "") {
    inc = [...inc, ...listParam(source)];
  }
  if (Array.isArray(source)) inc = [...inc, ...source.map(String)];
  if (source !== null && typeof source === "object" && !Array.isArray(source)) {
    const s = source as JsonObject;
    const i = s.includes ?? s.include;
    const e = s.excludes ?? s.exclude;
    if (i !== undefined) inc = [...inc, ...(Array.isArray(i) ? i.map(String) : [String(i)])];
    if (e !== undefined) exc = [...exc, ...(Array.isArray(e) ? e.map(String) : [String(e)])];
  }
  return { includes: inc, excludes: exc };
}
