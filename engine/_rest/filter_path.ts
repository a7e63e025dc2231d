// The `filter_path` response filter: dotted paths with `*` (one key) and `**` (any depth), `-` excludes.

import { RawJson } from "../_index/raw_source.ts";
import { parseExactJson } from "../_index/exact_json.ts";
import { setOwn } from "../_index/own.ts";
import { matchPattern } from "../_index/name_pattern.ts";

type Pattern = string[];

/**
 * Where matching stands: pattern positions as `pattern * stride + position`, each once. A `**`
 * keeps its position and may also step past its next segment; deduplicating the positions keeps
 * many `**` linear (one entry per segment at most) rather than doubling per level.
 */
interface Matcher {
  patterns: Pattern[];
  stride: number;
}

type Positions = number[];

function start(patterns: Pattern[]): { matcher: Matcher; at: Positions } {
  const stride = Math.max(1, ...patterns.map((p) => p.length + 1));
  return { matcher: { patterns, stride }, at: patterns.map((_, i) => i * stride) };
}

function step(m: Matcher, at: Positions, key: string): { whole: boolean; next: Positions } {
  let whole = false;
  const seen = new Set<number>();
  const next: Positions = [];
  const push = (id: number) => {
    if (!seen.has(id)) {
      seen.add(id);
      next.push(id);
    }
  };
  for (const id of at) {
    const p = m.patterns[Math.floor(id / m.stride)]!;
    const pos = id % m.stride;
    const base = id - pos;
    if (p[pos] === "**") {
      push(id);
      if (p.length - pos > 1 && matchPattern(p[pos + 1]!, key)) {
        if (p.length - pos === 2) whole = true;
        else push(base + pos + 2);
      }
      continue;
    }
    if (!matchPattern(p[pos]!, key)) continue;
    if (p.length - pos === 1) whole = true;
    else push(base + pos + 1);
  }
  return { whole, next };
}

function include(value: unknown, m: Matcher, patterns: Positions): unknown {
  if (value instanceof RawJson) value = parseExactJson(value.text);
  if (Array.isArray(value)) {
    const items = value.map((v) => include(v, m, patterns)).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const { whole, next } = step(m, patterns, key);
    if (whole) setOwn(out, key, child);
    else if (next.length > 0) {
      const kept = include(child, m, next);
      if (kept !== undefined) setOwn(out, key, kept);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function exclude(value: unknown, m: Matcher, patterns: Positions): unknown {
  if (value instanceof RawJson) value = parseExactJson(value.text);
  if (Array.isArray(value)) return value.map((v) => exclude(v, m, patterns));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const { whole, next } = step(m, patterns, key);
    if (whole) continue;
    setOwn(out, key, next.length > 0 ? exclude(child, m, next) : child);
  }
  return out;
}

/** Applies a `filter_path` parameter value to a response body. */
export function filterPath(body: unknown, filter: string): unknown {
  const parts = filter.split(",").map((p) => p.trim()).filter((p) => p !== "");
  const includes = parts.filter((p) => !p.startsWith("-")).map((p) => p.split("."));
  const excludes = parts.filter((p) => p.startsWith("-")).map((p) => p.slice(1).split("."));
  let out = body;
  if (includes.length > 0) {
    const { matcher, at } = start(includes);
    out = include(out, matcher, at) ?? {};
  }
  if (excludes.length > 0) {
    const { matcher, at } = start(excludes);
    out = exclude(out, matcher, at);
  }
  return out;
}
