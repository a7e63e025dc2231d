// Term-level queries: term, terms, exists, ids, and the exact-term pieces the range and pattern
// queries (range_query.ts, pattern_queries.ts) share: numeric values, point ranges, term scans.

import { illegalArgument } from "../_errors.ts";
import { checkTermsCount, MAX_TERMS_COUNT } from "../_index/limits.ts";
import { dateValueAt } from "../_index/dates.ts";
import { geoPresent } from "../_index/geo_values.ts";
import { constantHits, type Hits, NO_HITS, union } from "./doc_set.ts";
import {
  allOrdinals,
  type ExecContext,
  perSegment,
  queryShardError,
  sortedUnique,
  unionDocs,
} from "./exec_context.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import type { QueryOf } from "./query_nodes.ts";
import { termScorer } from "./bm25.ts";
import type { FieldIndex } from "../_index/segment.ts";
import { type Exact, exactInteger, toDouble } from "../_index/exact_long.ts";
import { ipSpan, ipToBigInt } from "../_index/ip_address.ts";

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
    n = dateValueAt(value, ctx.now, info);
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
export function pointRange(f: FieldIndex, lo: Exact, hi: Exact): Int32Array {
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
  const scorer = scoring ? termScorer(ctx, field, term, boost) : null;
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(field);
    const p = f?.terms.get(term);
    if (!p) return NO_HITS;
    return { docs: p.docs, scores: scorer ? scorer.scorePosting(p, f!.norms) : null };
  });
}

/**
 * Whether a term on `info` scores as a constant: OpenSearch 3 searches a keyword field that keeps
 * doc values with an index-or-doc-values query, which scores its boost, not BM25 (a keyword
 * without doc values still scores BM25).
 */
export function constantKeyword(ctx: ExecContext, info: FieldInfo): boolean {
  return ctx.flavour === "opensearch" && info.kind === "keyword" && info.docValues;
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
  if (info.type === "ip") return ipHits(ctx, info, value, boost, scoring, lenient);
  if (constantKeyword(ctx, info)) {
    const term = termText(info, value);
    return perSegment(ctx, (v) => {
      const p = v.segment.fields.get(info.path)?.terms.get(term);
      return p ? constantHits(p.docs, boost, scoring) : NO_HITS;
    });
  }
  if (
    info.kind === "boolean" &&
    numericValue(info, value, ctx, lenient) !== numericValue(info, value, ctx, true)
  ) return NO_HITS;
  return termHits(ctx, info.path, termText(info, value), boost, scoring);
}

/**
 * An `ip` field's docs holding an address (or one of a CIDR block's), constant-scored: the real
 * engines index addresses as points, so a term on one is a point query, not a BM25 term.
 */
function ipHits(
  ctx: ExecContext,
  info: FieldInfo,
  value: unknown,
  boost: number,
  scoring: boolean,
  lenient: boolean,
): Hits {
  let span;
  try {
    span = ipSpan(String(value));
  } catch (e) {
    if (lenient) return NO_HITS;
    const reason = (e as Error).message;
    throw queryShardError(ctx, `failed to create query: ${reason}`, illegalArgument(reason));
  }
  return scanTerms(ctx, info.path, boost, scoring, (terms) =>
    terms.filter((t) => {
      const n = ipToBigInt(t);
      return n !== null && n >= span.from && n <= span.to;
    }));
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
export function scanTerms(
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

/** The first index of sorted `terms` not below `key`. */
export function lowerBound(terms: string[], key: string): number {
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
      if (ctx.fields.byPath.get(p)?.type === "geo_point") {
        lists.push(geoPresent(v.segment, p));
        continue;
      }
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
