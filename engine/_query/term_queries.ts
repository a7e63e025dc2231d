// Term-level queries: term, terms, range, prefix, wildcard, regexp, exists, ids.

import { checkTermsCount, MAX_TERMS_COUNT } from "../_index/limits.ts";
import { EngineError, illegalArgument } from "../_errors.ts";
import { dateValueAt } from "../_index/dates.ts";
import { parseTimeZone } from "../_index/time_zones.ts";
import { constantHits, type Hits, NO_HITS, union } from "./doc_set.ts";
import {
  allOrdinals,
  type ExecContext,
  perSegment,
  queryShardError,
  sortedUnique,
  unionDocs,
} from "./exec_context.ts";
import { type Automaton, wildcardAutomaton, wildcardPrefix } from "../_index/automaton.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import { compileRegexp } from "./regexp_syntax.ts";
import type { QueryOf } from "./query_nodes.ts";
import { termScorer } from "./bm25.ts";
import type { FieldIndex } from "../_index/segment.ts";
import { type Exact, exactInteger, toDouble } from "../_index/exact_long.ts";

/**
 * Converts a query value to the number stored for a numeric/date/boolean field (a bigint for a
 * whole number beyond 2^53, kept exact); NaN if impossible.
 */
export function numericValue(
  info: FieldInfo,
  value: unknown,
  ctx: ExecContext,
  lenient: boolean,
): Exact {
  let n: Exact;
  if (info.kind === "date") {
    n = dateValueAt(value, ctx.now, false, info.format, info.nanos);
  } else if (info.kind === "boolean") {
    n = value === true || value === "true" ? 1 : value === false || value === "false" ? 0 : NaN;
  } else if (info.integer && isWhole(value)) {
    n = exactInteger(value);
  } else {
    n = typeof value === "number" || typeof value === "bigint"
      ? Number(value)
      : typeof value === "string" && value.trim() !== ""
      ? Number(value)
      : NaN;
    if (info.round && typeof value !== "boolean") n = info.round(n);
  }
  if (Number.isNaN(n) && !lenient) {
    if (info.kind === "date") {
      throw queryShardError(
        ctx,
        `failed to parse date field [${value}] with format [${
          info.format ?? "strict_date_optional_time||epoch_millis"
        }]`,
      );
    }
    if (info.kind === "boolean") {
      throw queryShardError(
        ctx,
        `Can't parse boolean value [${value}], expected [true] or [false]`,
      );
    }
    throw queryShardError(ctx, `failed to create query: For input string: "${value}"`);
  }
  return n;
}

/** The indexed term for a keyword/text/boolean field value. */
/** The indexed form of a term query's value in a field (booleans spelled, keywords normalised). */
export function termText(info: FieldInfo, value: unknown): string {
  if (info.kind === "boolean") {
    return value === true || value === "true"
      ? "true"
      : value === false || value === "false"
      ? "false"
      : String(value);
  }
  return info.normalize(String(value));
}

function isWhole(value: unknown): boolean {
  return typeof value === "bigint" || Number.isInteger(value) ||
    (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value));
}

/** Docs whose numeric doc values fall in [lo, hi] within one segment. */
function pointRange(f: FieldIndex, lo: Exact, hi: Exact): Int32Array {
  const values = f.pointValues!;
  // Doubles round monotonically, so the candidates are those whose double lies within the
  // bounds' doubles; only the ones equal to a bound's double can be beyond it exactly.
  const loD = toDouble(lo);
  const hiD = toDouble(hi);
  let a = 0;
  let b = values.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (values[m]! < loD) a = m + 1;
    else b = m;
  }
  let end = a;
  while (end < values.length && values[end]! <= hiD) end++;
  const exact = f.pointExact;
  if (exact) {
    const at = (p: number): Exact => exact[p] ?? values[p]!;
    while (a < end && values[a] === loD && at(a) < lo) a++;
    while (end > a && values[end - 1] === hiD && at(end - 1) > hi) end--;
  }
  return sortedUnique(f.pointDocs!.subarray(a, end), f.dvStart.length - 1);
}

/** BM25-scored docs of one exact term. */
export function termHits(
  ctx: ExecContext,
  field: string,
  term: string,
  boost: number,
  scoring: boolean,
): Hits {
  const scorer = scoring ? termScorer(ctx.snapshot, field, term, boost) : null;
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(field);
    const p = f?.terms.get(term);
    if (!p) return NO_HITS;
    return { docs: p.docs, scores: scorer ? scorer.scorePosting(p, f!.norms) : null };
  });
}

/** Exact value match on any field kind: scored for terms, constant for numbers and dates. */
export function valueHits(
  ctx: ExecContext,
  info: FieldInfo,
  value: unknown,
  boost: number,
  scoring: boolean,
  lenient: boolean,
): Hits {
  if (info.kind === "number" || info.kind === "date") {
    const n = numericValue(info, value, ctx, lenient);
    if (typeof n === "number" && Number.isNaN(n)) return NO_HITS;
    return perSegment(ctx, (v) => {
      const f = v.segment.fields.get(info.path);
      return f ? constantHits(pointRange(f, n, n), boost, scoring) : NO_HITS;
    });
  }
  if (
    info.kind === "boolean" &&
    numericValue(info, value, ctx, lenient) !== numericValue(info, value, ctx, true)
  ) return NO_HITS;
  return termHits(ctx, info.path, termText(info, value), boost, scoring);
}

function idsHits(ctx: ExecContext, ids: readonly unknown[], boost: number, scoring: boolean): Hits {
  return perSegment(ctx, (v) => {
    const docs: number[] = [];
    for (const id of ids) {
      const d = v.segment.ids.get(String(id));
      if (d !== undefined) docs.push(d);
    }
    return constantHits(sortedUnique(docs), boost, scoring);
  });
}

function metaField(
  ctx: ExecContext,
  field: string,
  values: readonly unknown[],
  boost: number,
  scoring: boolean,
): Hits | null {
  if (field === "_id") return idsHits(ctx, values, boost, scoring);
  if (field === "_index") {
    if (!values.some((v) => String(v) === ctx.index)) return NO_HITS;
    return constantHits(
      allOrdinals(ctx.snapshot),
      boost,
      scoring,
    );
  }
  return null;
}

/** Terms matching a predicate in one segment's field, as a constant-score union. */
function scanTerms(
  ctx: ExecContext,
  field: string,
  boost: number,
  scoring: boolean,
  pick: (terms: string[]) => string[],
): Hits {
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(field);
    if (!f) return NO_HITS;
    const lists = pick(v.segment.sortedTerms(field)).map((t) => f.terms.get(t)!.docs);
    return unionDocs(lists, boost, scoring);
  });
}

function lowerBound(terms: string[], key: string): number {
  let a = 0;
  let b = terms.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (terms[m]! < key) a = m + 1;
    else b = m;
  }
  return a;
}

/** `term` query. */
export function runTerm(q: QueryOf<"term">, ctx: ExecContext, scoring: boolean): Hits {
  const meta = metaField(ctx, q.field, [q.value], q.boost, scoring);
  if (meta) return meta;
  const info = ctx.fields.byPath.get(q.field);
  if (!info) return NO_HITS;
  if (q.caseInsensitive && (info.kind === "keyword" || info.kind === "text")) {
    const want = String(q.value).toLowerCase();
    return scanTerms(
      ctx,
      q.field,
      q.boost,
      scoring,
      (ts) => ts.filter((t) => t.toLowerCase() === want),
    );
  }
  return valueHits(ctx, info, q.value, q.boost, scoring, false);
}

/** `terms` query (constant score). */
export function runTerms(q: QueryOf<"terms">, ctx: ExecContext, scoring: boolean): Hits {
  checkTermsCount(q.values.length, ctx.maxTermsCount ?? MAX_TERMS_COUNT);
  const meta = metaField(ctx, q.field, q.values, q.boost, scoring);
  if (meta) return meta;
  const info = ctx.fields.byPath.get(q.field);
  if (!info) return NO_HITS;
  const parts = q.values.map((v) => valueHits(ctx, info, v, 1, false, false));
  const u = union(parts, ctx.snapshot.maxDoc);
  return constantHits(u.docs, q.boost, scoring);
}

/** A numeric or date `range`'s inclusive bounds (exact for whole numbers), or null for other fields. */
export function rangeBounds(
  q: QueryOf<"range">,
  ctx: ExecContext,
): { path: string; lo: Exact; hi: Exact } | null {
  const info = ctx.fields.byPath.get(q.field);
  if (!info || (info.kind !== "number" && info.kind !== "date")) return null;
  const zone = q.timeZone === undefined ? undefined : parseTimeZone(q.timeZone);
  const conv = (v: unknown, roundUp: boolean): Exact => {
    if (info.kind === "date") {
      const n = dateValueAt(v, ctx.now, roundUp, q.format ?? info.format, info.nanos, zone);
      if (Number.isNaN(n)) {
        throw queryShardError(
          ctx,
          `failed to parse date field [${v}] with format [${
            q.format ?? info.format ?? "strict_date_optional_time||epoch_millis"
          }]`,
        );
      }
      return n;
    }
    return numericValue(info, v, ctx, false);
  };
  let lo: Exact = -Infinity;
  let hi: Exact = Infinity;
  if (q.gte !== undefined) lo = conv(q.gte, false);
  if (q.gt !== undefined) {
    lo = nextUp(conv(q.gt, true), info.kind === "date" ? !info.nanos : info.integer);
  }
  if (q.lte !== undefined) hi = conv(q.lte, true);
  if (q.lt !== undefined) {
    hi = nextDown(conv(q.lt, false), info.kind === "date" ? !info.nanos : info.integer);
  }
  return { path: info.path, lo, hi };
}

/** `range` query (constant score). */
export function runRange(q: QueryOf<"range">, ctx: ExecContext, scoring: boolean): Hits {
  const info = ctx.fields.byPath.get(q.field);
  if (!info) return NO_HITS;
  const bounds = rangeBounds(q, ctx);
  if (bounds) {
    const { lo, hi } = bounds;
    return perSegment(ctx, (v) => {
      const f = v.segment.fields.get(info.path);
      return f?.pointValues ? constantHits(pointRange(f, lo, hi), q.boost, scoring) : NO_HITS;
    });
  }
  const s = (v: unknown) => (v === undefined ? undefined : String(v));
  const gt = s(q.gt), gte = s(q.gte), lt = s(q.lt), lte = s(q.lte);
  return scanTerms(ctx, q.field, q.boost, scoring, (ts) => {
    let a = gte !== undefined ? lowerBound(ts, gte) : gt !== undefined ? lowerBound(ts, gt) : 0;
    if (gt !== undefined && ts[a] === gt) a++;
    const out: string[] = [];
    for (let i = a; i < ts.length; i++) {
      const t = ts[i]!;
      if ((lt !== undefined && t >= lt) || (lte !== undefined && t > lte)) break;
      out.push(t);
    }
    return out;
  });
}

function nextUp(v: Exact, integer: boolean): Exact {
  if (typeof v === "bigint") return v + 1n;
  const n = v;
  if (integer) {
    const m = Math.floor(n) + 1;
    return Number.isSafeInteger(m) || !Number.isFinite(m)
      ? m
      : exactInteger(BigInt(Math.floor(n)) + 1n);
  }
  return n + Math.max(Number.EPSILON * Math.abs(n), Number.MIN_VALUE);
}

function nextDown(v: Exact, integer: boolean): Exact {
  if (typeof v === "bigint") return v - 1n;
  const n = v;
  if (integer) {
    const m = Math.ceil(n) - 1;
    return Number.isSafeInteger(m) || !Number.isFinite(m)
      ? m
      : exactInteger(BigInt(Math.ceil(n)) - 1n);
  }
  return n - Math.max(Number.EPSILON * Math.abs(n), Number.MIN_VALUE);
}

/** `prefix` query (constant score). */
export function runPrefix(query: QueryOf<"prefix">, ctx: ExecContext, scoring: boolean): Hits {
  const q = { ...query, value: normalized(ctx, query.field, query.value) };
  if (q.field === "_id") return idsByPattern(ctx, (id) => id.startsWith(q.value), q.boost, scoring);
  if (q.caseInsensitive) {
    const want = q.value.toLowerCase();
    return scanTerms(
      ctx,
      q.field,
      q.boost,
      scoring,
      (ts) => ts.filter((t) => t.toLowerCase().startsWith(want)),
    );
  }
  return scanTerms(ctx, q.field, q.boost, scoring, (ts) => {
    const out: string[] = [];
    for (let i = lowerBound(ts, q.value); i < ts.length && ts[i]!.startsWith(q.value); i++) {
      out.push(ts[i]!);
    }
    return out;
  });
}

function idsByPattern(
  ctx: ExecContext,
  test: (id: string) => boolean,
  boost: number,
  scoring: boolean,
): Hits {
  return perSegment(ctx, (v) => {
    const docs: number[] = [];
    for (const [id, d] of v.segment.ids) if (test(id)) docs.push(d);
    return constantHits(sortedUnique(docs), boost, scoring);
  });
}

/** A keyword pattern through the field's normalizer. */
function normalized(ctx: ExecContext, field: string, value: string): string {
  const info = ctx.fields.byPath.get(field);
  if (info?.kind === "keyword") return info.normalize(value);
  // Text fields normalise patterns the way their analyzer does (lower-casing for standard).
  if (info?.kind === "text" && info.searchAnalyzer("A")[0]?.term === "a") {
    return value.toLowerCase();
  }
  return value;
}

/** `wildcard` query on terms (constant score). */
export function runWildcard(query: QueryOf<"wildcard">, ctx: ExecContext, scoring: boolean): Hits {
  const q = { ...query, value: normalized(ctx, query.field, query.value) };
  const re = wildcardAutomaton(q.value, q.caseInsensitive);
  if (q.field === "_id") return idsByPattern(ctx, (id) => re.test(id), q.boost, scoring);
  const literal = q.caseInsensitive ? "" : wildcardPrefix(q.value);
  return scanTerms(ctx, q.field, q.boost, scoring, (ts) => {
    const out: string[] = [];
    for (let i = lowerBound(ts, literal); i < ts.length && ts[i]!.startsWith(literal); i++) {
      if (re.test(ts[i]!)) out.push(ts[i]!);
    }
    return out;
  });
}

/** `regexp` query on terms (constant score). */
export function runRegexp(q: QueryOf<"regexp">, ctx: ExecContext, scoring: boolean): Hits {
  const max = ctx.maxRegexLength ?? 1000;
  if (q.value.length > max) {
    throw illegalArgument(
      `The length of regex [${q.value.length}] used in the Regexp Query request has exceeded the allowed maximum of [${max}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`,
    );
  }
  let re: Automaton;
  try {
    re = compileRegexp(q.value, {
      flags: q.flags,
      caseInsensitive: q.caseInsensitive,
      maxDeterminizedStates: q.maxDeterminizedStates,
    });
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    throw queryShardError(ctx, `failed to create query: ${e.message}`, e);
  }
  const test = (t: string): boolean => {
    try {
      return re.test(t);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      throw queryShardError(ctx, `failed to create query: ${e.message}`, e);
    }
  };
  if (q.field === "_id") return idsByPattern(ctx, test, q.boost, scoring);
  return scanTerms(ctx, q.field, q.boost, scoring, (ts) => ts.filter(test));
}

/** `exists` query: docs with a value in the field or, for objects, in any sub-field. */
export function runExists(q: QueryOf<"exists">, ctx: ExecContext, scoring: boolean): Hits {
  const paths = q.field.includes("*")
    ? ctx.fields.expand(q.field)
    : ctx.fields.byPath.has(q.field)
    ? [q.field]
    : [...ctx.fields.byPath.keys()].filter((p) => p.startsWith(q.field + "."));
  if (q.field === "_id" || q.field === "_index") {
    return constantHits(
      allOrdinals(ctx.snapshot),
      q.boost,
      scoring,
    );
  }
  return perSegment(ctx, (v) => {
    const lists: Int32Array[] = [];
    for (const p of paths) {
      const f = v.segment.fields.get(p);
      if (f && f.present.length) lists.push(f.present);
    }
    return unionDocs(lists, q.boost, scoring);
  });
}

/** `ids` query (constant score). */
export function runIds(q: QueryOf<"ids">, ctx: ExecContext, scoring: boolean): Hits {
  return idsHits(ctx, q.values, q.boost, scoring);
}
