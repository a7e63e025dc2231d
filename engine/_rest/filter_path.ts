// The `filter_path` response filter: dotted paths with `*` (one key) and `**` (any depth), `-` excludes.

import { RawJson } from "../_index/raw_source.ts";
import { parseExactJson } from "../_index/exact_json.ts";
import { setOwn } from "../_index/own.ts";
import { matchPattern } from "../_index/name_pattern.ts";

type Pattern = string[];

function step(patterns: Pattern[], key: string): { whole: boolean; next: Pattern[] } {
  let whole = false;
  const next: Pattern[] = [];
  for (const p of patterns) {
    if (p[0] === "**") {
      next.push(p);
      if (p.length > 1 && matchPattern(p[1]!, key)) {
        if (p.length === 2) whole = true;
        else next.push(p.slice(2));
      }
      continue;
    }
    if (!matchPattern(p[0]!, key)) continue;
    if (p.length === 1) whole = true;
    else next.push(p.slice(1));
  }
  return { whole, next };
}

function include(value: unknown, patterns: Pattern[]): unknown {
  if (value instanceof RawJson) value = parseExactJson(value.text);
  if (Array.isArray(value)) {
    const items = value.map((v) => include(v, patterns)).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const { whole, next } = step(patterns, key);
    if (whole) setOwn(out, key, child);
    else if (next.length > 0) {
      const kept = include(child, next);
      if (kept !== undefined) setOwn(out, key, kept);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function exclude(value: unknown, patterns: Pattern[]): unknown {
  if (value instanceof RawJson) value = parseExactJson(value.text);
  if (Array.isArray(value)) return value.map((v) => exclude(v, patterns));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const { whole, next } = step(patterns, key);
    if (whole) continue;
    setOwn(out, key, next.length > 0 ? exclude(child, next) : child);
  }
  return out;
}

/** Applies a `filter_path` parameter value to a response body. */
export function filterPath(body: unknown, filter: string): unknown {
  const parts = filter.split(",").map((p) => p.trim()).filter((p) => p !== "");
  const includes = parts.filter((p) => !p.startsWith("-")).map((p) => p.split("."));
  const excludes = parts.filter((p) => p.startsWith("-")).map((p) => p.slice(1).split("."));
  let out = body;
  if (includes.length > 0) out = include(out, includes) ?? {};
  if (excludes.length > 0) out = exclude(out, excludes);
  return out;
}
