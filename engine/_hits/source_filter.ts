// `_source` filtering: true/false, include and exclude patterns with `*` wildcards.

import { setOwn } from "../_index/own.ts";
import { parsingError } from "../_errors.ts";
import { nameList, nameMatcher } from "../_index/name_pattern.ts";
import { isJsonObject } from "../_json.ts";

/** What to return of `_source`: nothing, everything, or a filtered copy. */
export interface SourceFilter {
  /** False when `_source: false`. */
  readonly fetch: boolean;
  /** Include patterns (empty = all). */
  readonly includes: readonly string[];
  /** Exclude patterns. */
  readonly excludes: readonly string[];
  /** `exclude_vectors` as the request gave it (Elasticsearch 9): false keeps vectors. */
  readonly excludeVectors?: boolean;
}

/** Returns the whole source. */
export const FETCH_ALL: SourceFilter = { fetch: true, includes: [], excludes: [] };

function list(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.map(String);
  return nameList(String(v));
}

/** Builds the filter from the body's `_source` and the URL's `_source`, `_source_includes`, `_source_excludes`. */
export function parseSourceFilter(body: unknown, params: URLSearchParams): SourceFilter {
  const p = params.get("_source");
  const pi = params.get("_source_includes") ?? params.get("_source_include");
  const pe = params.get("_source_excludes") ?? params.get("_source_exclude");
  if (p !== null || pi !== null || pe !== null) {
    if (p === "false") return { fetch: false, includes: [], excludes: [] };
    const includes = p !== null && p !== "true" ? list(p) : list(pi);
    return { fetch: true, includes, excludes: list(pe) };
  }
  if (body === undefined || body === null || body === true) return FETCH_ALL;
  if (body === false) return { fetch: false, includes: [], excludes: [] };
  if (typeof body === "string" || Array.isArray(body)) {
    return { fetch: true, includes: list(body), excludes: [] };
  }
  if (typeof body === "object") {
    const o = body as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (!["includes", "include", "excludes", "exclude", "exclude_vectors"].includes(k)) {
        throw parsingError(`Unknown key for a START_ARRAY in [_source].`);
      }
    }
    return {
      fetch: true,
      includes: list(o.includes ?? o.include),
      excludes: list(o.excludes ?? o.exclude),
      ...(typeof o.exclude_vectors === "boolean" ? { excludeVectors: o.exclude_vectors } : {}),
    };
  }
  throw parsingError(`Expected one of [true, false, string, array, object] for [_source]`);
}

function re(pattern: string): { test(path: string): boolean } {
  return { test: nameMatcher(pattern) };
}

/** True when `path` or one of its parents matches a pattern. */
function matchesSelfOrParent(path: string, patterns: readonly string[]): boolean {
  for (const p of patterns) {
    if (re(p).test(path)) return true;
    let at = path.indexOf(".");
    while (at > 0) {
      if (re(p).test(path.slice(0, at))) return true;
      at = path.indexOf(".", at + 1);
    }
  }
  return false;
}

/** True when `path` could still lead to an included leaf (a pattern starts with `path.`). */
function couldInclude(path: string, patterns: readonly string[]): boolean {
  return patterns.some((p) =>
    p.startsWith(path + ".") || p.startsWith("*") || re(p.split(".")[0]!).test(path.split(".")[0]!)
  );
}

function filterValue(value: unknown, path: string, f: SourceFilter): unknown {
  if (f.excludes.length && matchesSelfOrParent(path, f.excludes)) return undefined;
  const included = f.includes.length === 0 || matchesSelfOrParent(path, f.includes);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) {
      if (typeof v === "object" && v !== null && !Array.isArray(v)) {
        const o = filterObject(v as Record<string, unknown>, path, f);
        if (Object.keys(o).length || included) out.push(o);
      } else if (included) out.push(v);
    }
    return out.length || included ? out : undefined;
  }
  if (typeof value === "object" && value !== null) {
    if (!included && !couldInclude(path, f.includes)) return undefined;
    const o = filterObject(value as Record<string, unknown>, path, f);
    return Object.keys(o).length || (included && !f.excludes.length) ? o : undefined;
  }
  return included ? value : undefined;
}

function filterObject(
  source: Record<string, unknown>,
  prefix: string,
  f: SourceFilter,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(source)) {
    const kept = filterValue(v, prefix ? `${prefix}.${k}` : k, f);
    if (kept !== undefined) setOwn(out, k, kept);
  }
  return out;
}

/**
 * The filter of the document APIs (a GET, the `get` of an update, a bulk update): `_source` as a
 * flag, a comma list, a list or an `{includes, excludes}` object, joined with the
 * `_source_includes` and `_source_excludes` lists.
 */
export function documentSourceFilter(
  source: unknown,
  includes: readonly string[],
  excludes: readonly string[],
): SourceFilter {
  if (source === false || source === "false") return { fetch: false, includes: [], excludes: [] };
  const inc = [...includes];
  const exc = [...excludes];
  if (typeof source === "string" && source !== "true") inc.push(...nameList(source));
  if (Array.isArray(source)) inc.push(...source.map(String));
  if (isJsonObject(source)) {
    const i = source.includes ?? source.include;
    const e = source.excludes ?? source.exclude;
    if (i !== undefined) inc.push(...(Array.isArray(i) ? i.map(String) : [String(i)]));
    if (e !== undefined) exc.push(...(Array.isArray(e) ? e.map(String) : [String(e)]));
  }
  return { fetch: true, includes: inc, excludes: exc };
}

/**
 * The filter with an index's vector fields left out, as Elasticsearch 9 does by default
 * (`index.mapping.exclude_source_vectors`): unless the request asks for `exclude_vectors: false`
 * or names fields to include (a vector it names is returned, the others are not anyway).
 */
export function withoutVectors(f: SourceFilter, vectors: readonly string[]): SourceFilter {
  if (!vectors.length || !f.fetch || f.excludeVectors === false || f.includes.length) return f;
  return { ...f, excludes: [...f.excludes, ...vectors] };
}

/** Applies a filter; returns undefined when `_source` is not fetched. */
export function applySourceFilter(
  source: Record<string, unknown>,
  f: SourceFilter,
): Record<string, unknown> | undefined {
  if (!f.fetch) return undefined;
  if (f.includes.length === 0 && f.excludes.length === 0) return source;
  return filterObject(source, "", f);
}
