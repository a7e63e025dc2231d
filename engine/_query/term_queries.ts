// Term-level queries: term, terms, exists, ids, and the exact-term pieces the range and pattern
// queries (range_query.ts, pattern_queries.ts) share: numeric values, point ranges, term scans.

import { type EngineError, illegalArgument } from "../_errors.ts";
import { checkTermsCount, MAX_TERMS_COUNT } from "../_index/limits.ts";
import { dateValueAt } from "../_index/dates.ts";
import { geoPresent } from "../_index/geo_values.ts";
import { constantHits, type Hits, NO_HITS, type Scoring, union } from "./doc_set.ts";
import {
  allOrdinals,
  type ExecContext,
  perSegment,
  queryShardError,
  sortedUnique,
  unionDocs,
} from "./exec_context.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import type { BoostedField, QueryOf } from "./query_nodes.ts";
import { termScorer } from "./bm25.ts";
import type { FieldIndex } from "../_index/segment.ts";
import { type Exact, exactInteger, toDouble } from "../_index/exact_long.ts";
import { lowerBound } from "../_index/sorted_search.ts";
import { ipSpan, ipToBigInt } from "../_index/ip_address.ts";

/**
 * Converts a query value to the number stored for a numeric/date/boolean field (a bigint for a
 * whole number beyond 2^53, kept exact); a value the field cannot hold fails the query, with the
 * real engines' error.
 */
export function numericValue(info: FieldInfo, value: unknown, ctx: ExecContext): Exact {
  const n = numericValueOrNaN(info, value, ctx);
  if (typeof n === "number" && Number.isNaN(n)) throw notNumeric(info, value, ctx);
  return n;
}

/** `numericValue` for a lenient query: NaN where the field cannot hold the value. */
export function numericValueOrNaN(info: FieldInfo, value: unknown, ctx: ExecContext): Exact {
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
  return n;
}

/** The error of a query value a numeric, date or boolean field cannot hold. */
function notNumeric(info: FieldInfo, value: unknown, ctx: ExecContext): EngineError {
  if (info.kind === "date") {
    return queryShardError(
      ctx,
      `failed to parse date field [${value}] with format [${
        info.format ?? "strict_date_optional_time||epoch_millis"
      }]`,
    );
  }
  if (info.kind === "boolean") {
    return queryShardError(
      ctx,
      `Can't parse boolean value [${value}], expected [true] or [false]`,
    );
  }
  return queryShardError(ctx, `failed to create query: For input string: "${value}"`);
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
  let a = lowerBound(values, loD);
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

/** BM25-scored docs of one exact term in `on.field`, its weight times `on.boost`. */
export function termHits(
  ctx: ExecContext,
  on: BoostedField,
  term: string,
  scoring: Scoring,
): Hits {
  const field = on.field;
  const scorer = scoring === "score" ? termScorer(ctx, field, term, on.boost) : null;
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

/**
 * One exact value to find in a field: a `term` query's value, a `terms` query's one value, or a
 * `match` query's text on a field that is not text.
 */
export interface ValueQuery {
  /** The value as the request gave it. */
  readonly value: unknown;
  /** The score of a constant-scored match, the weight of a BM25-scored one. */
  readonly boost: number;
  /** A value the field cannot hold matches nothing instead of failing the query. */
  readonly lenient?: boolean;
}

/** Exact value match on any field kind: scored for terms, constant for numbers and dates. */
export function valueHits(
  ctx: ExecContext,
  info: FieldInfo,
  q: ValueQuery,
  scoring: Scoring,
): Hits {
  const { value, boost } = q;
  if (info.kind === "number" || info.kind === "date") {
    const n = queryNumber(info, q, ctx);
    if (typeof n === "number" && Number.isNaN(n)) return NO_HITS;
    return perSegment(ctx, (v) => {
      const f = v.segment.fields.get(info.path);
      return f ? constantHits(pointRange(f, n, n), boost, scoring) : NO_HITS;
    });
  }
  if (info.type === "ip") return ipHits(ctx, info, q, scoring);
  if (constantKeyword(ctx, info)) {
    const term = termText(info, value);
    return perSegment(ctx, (v) => {
      const p = v.segment.fields.get(info.path)?.terms.get(term);
      return p ? constantHits(p.docs, boost, scoring) : NO_HITS;
    });
  }
  // A value a boolean field cannot hold fails a strict query and matches nothing in a lenient one.
  if (info.kind === "boolean" && Number.isNaN(queryNumber(info, q, ctx))) return NO_HITS;
  return termHits(ctx, { field: info.path, boost }, termText(info, value), scoring);
}

/** A value query's number: NaN where the field cannot hold it and the query is lenient. */
function queryNumber(info: FieldInfo, q: ValueQuery, ctx: ExecContext): Exact {
  return q.lenient ? numericValueOrNaN(info, q.value, ctx) : numericValue(info, q.value, ctx);
}

/**
 * An `ip` field's docs holding an address (or one of a CIDR block's), constant-scored: the real
 * engines index addresses as points, so a term on one is a point query, not a BM25 term.
 */
function ipHits(ctx: ExecContext, info: FieldInfo, q: ValueQuery, scoring: Scoring): Hits {
  let span;
  try {
    span = ipSpan(String(q.value));
  } catch (e) {
    if (q.lenient) return NO_HITS;
    const reason = (e as Error).message;
    throw queryShardError(ctx, `failed to create query: ${reason}`, illegalArgument(reason));
  }
  return scanTerms(
    ctx,
    { field: info.path, boost: q.boost },
    scoring,
    (terms) =>
      terms.filter((t) => {
        const n = ipToBigInt(t);
        return n !== null && n >= span.from && n <= span.to;
      }),
  );
}

function idsHits(ctx: ExecContext, ids: readonly unknown[], boost: number, scoring: Scoring): Hits {
  return perSegment(ctx, (v) => {
    const docs: number[] = [];
    for (const id of ids) {
      const d = v.segment.ids.get(String(id));
      if (d !== undefined) docs.push(d);
    }
    return constantHits(sortedUnique(docs), boost, scoring);
  });
}

/** A `term` or `terms` query on `_id` or `_index`, or null on any other field. */
function metaField(
  ctx: ExecContext,
  q: BoostedField,
  values: readonly unknown[],
  scoring: Scoring,
): Hits | null {
  const { field, boost } = q;
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

/**
 * The terms `pick` chooses among each segment's sorted terms of `on.field`, as a union that
 * scores `on.boost` (constant score).
 */
export function scanTerms(
  ctx: ExecContext,
  on: BoostedField,
  scoring: Scoring,
  pick: (terms: string[]) => string[],
): Hits {
  const { field, boost } = on;
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(field);
    if (!f) return NO_HITS;
    const lists = pick(v.segment.sortedTerms(field)).map((t) => f.terms.get(t)!.docs);
    return unionDocs(lists, boost, scoring);
  });
}

/** `term` query. */
export function runTerm(q: QueryOf<"term">, ctx: ExecContext, scoring: Scoring): Hits {
  const meta = metaField(ctx, q, [q.value], scoring);
  if (meta) return meta;
  const info = ctx.fields.byPath.get(q.field);
  if (!info) return NO_HITS;
  if (q.caseInsensitive && (info.kind === "keyword" || info.kind === "text")) {
    const want = String(q.value).toLowerCase();
    return scanTerms(ctx, q, scoring, (ts) => ts.filter((t) => t.toLowerCase() === want));
  }
  return valueHits(ctx, info, { value: q.value, boost: q.boost }, scoring);
}

/** `terms` query (constant score). */
export function runTerms(q: QueryOf<"terms">, ctx: ExecContext, scoring: Scoring): Hits {
  checkTermsCount(q.values.length, ctx.maxTermsCount ?? MAX_TERMS_COUNT);
  const meta = metaField(ctx, q, q.values, scoring);
  if (meta) return meta;
  const info = ctx.fields.byPath.get(q.field);
  if (!info) return NO_HITS;
  const parts = q.values.map((v) => valueHits(ctx, info, { value: v, boost: 1 }, "filter"));
  const u = union(parts, ctx.snapshot.maxDoc);
  return constantHits(u.docs, q.boost, scoring);
}

/** `exists` query: docs with a value in the field or, for objects, in any sub-field. */
export function runExists(q: QueryOf<"exists">, ctx: ExecContext, scoring: Scoring): Hits {
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
export function runIds(q: QueryOf<"ids">, ctx: ExecContext, scoring: Scoring): Hits {
  return idsHits(ctx, q.values, q.boost, scoring);
}
