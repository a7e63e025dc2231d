// The `range` query over numbers, dates and terms, and the inclusive bounds it reads (shared with
// the range filter).

import { dateValueAt } from "../_index/dates.ts";
import { parseTimeZone } from "../_index/time_zones.ts";
import { constantHits, type Hits, NO_HITS, type Scoring } from "./doc_set.ts";
import { type ExecContext, perSegment, queryShardError } from "./exec_context.ts";
import type { QueryOf } from "./query_nodes.ts";
import { type Exact, exactInteger } from "../_index/exact_long.ts";

import { numericValue, pointRange, scanTerms } from "./term_queries.ts";
import { lowerBound } from "../_index/sorted_search.ts";
import { EngineError, esError, illegalArgument } from "../_errors.ts";
import { ipSpan, ipToBigInt } from "../_index/ip_address.ts";

/**
 * The failure of a `range` bound its date field cannot read, as real OpenSearch 3.8.0 and
 * Elasticsearch 9.5.4 report it (an aggregation's `missing` too): `parse_exception`, caused by `illegal_argument_exception`, caused
 * by Java's `date_time_parse_exception`.
 */
export function dateParseError(value: unknown, format: string): EngineError {
  const reason = `failed to parse date field [${value}] with format [${format}]`;
  const java = new EngineError(
    400,
    "date_time_parse_exception",
    `Text '${value}' could not be parsed`,
  );
  return esError("parse_exception", `${reason}: [${reason}]`, {}, illegalArgument(reason, java));
}

/** A numeric or date `range`'s inclusive bounds (exact for whole numbers), or null for other fields. */
export function rangeBounds(
  q: QueryOf<"range">,
  ctx: ExecContext,
): { path: string; lo: Exact; hi: Exact } | null {
  const info = ctx.fields.byPath.get(q.field);
  if (!info || (info.kind !== "number" && info.kind !== "date")) return null;
  const zone = q.timeZone === undefined ? undefined : parseTimeZone(q.timeZone);
  // Elasticsearch 9.5.4 reads every bound as epoch_millis when one is a JSON number and no format
  // is given (a text bound beside it then fails); OpenSearch 3.8.0 keeps the field's format.
  const numeric = [q.gte, q.gt, q.lte, q.lt].some((b) => typeof b === "number");
  const format = q.format ??
    (numeric && ctx.flavour !== "opensearch" && info.kind === "date"
      ? "epoch_millis"
      : info.format);
  // Date math rounds a bound down (`gte`, `lt`) or up (`gt`, `lte`), as Elasticsearch rounds it.
  const conv = (v: unknown, round: "down" | "up"): Exact => {
    if (info.kind === "date") {
      // OpenSearch reads a JSON number with the field's format like text: with `yyyy-MM-dd`,
      // 946684800000 is no date (real OpenSearch 3.8.0: failed to parse date field).
      const read = typeof v === "number" && ctx.flavour === "opensearch" && format !== undefined &&
          !format.includes("epoch_")
        ? String(v)
        : v;
      const n = dateValueAt(
        read,
        ctx.now,
        { format, nanos: info.nanos, zone },
        round,
      );
      if (Number.isNaN(n)) {
        throw dateParseError(v, format ?? "strict_date_optional_time||epoch_millis");
      }
      return n;
    }
    return numericValue(info, v, ctx);
  };
  const grain: Grain = (info.kind === "date" ? !info.nanos : info.integer) ? "whole" : "fraction";
  let lo: Exact = -Infinity;
  let hi: Exact = Infinity;
  if (q.gte !== undefined) lo = conv(q.gte, "down");
  if (q.gt !== undefined) lo = nextUp(conv(q.gt, "up"), grain);
  if (q.lte !== undefined) hi = conv(q.lte, "up");
  if (q.lt !== undefined) hi = nextDown(conv(q.lt, "down"), grain);
  return { path: info.path, lo, hi };
}

/** `range` query (constant score). */
export function runRange(q: QueryOf<"range">, ctx: ExecContext, scoring: Scoring): Hits {
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
  if (info.type === "ip") return ipRange(q, ctx, scoring);
  const s = (v: unknown) => (v === undefined ? undefined : String(v));
  const gt = s(q.gt), gte = s(q.gte), lt = s(q.lt), lte = s(q.lte);
  return scanTerms(ctx, q, scoring, (ts) => {
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

/** What a field's values are: whole numbers (integers, millisecond dates) or fractional. */
type Grain = "whole" | "fraction";

/** The least value of `grain` above `v`. */
function nextUp(v: Exact, grain: Grain): Exact {
  if (typeof v === "bigint") return v + 1n;
  const n = v;
  if (grain === "whole") {
    const m = Math.floor(n) + 1;
    return Number.isSafeInteger(m) || !Number.isFinite(m)
      ? m
      : exactInteger(BigInt(Math.floor(n)) + 1n);
  }
  return n + Math.max(Number.EPSILON * Math.abs(n), Number.MIN_VALUE);
}

/** The greatest value of `grain` below `v`. */
function nextDown(v: Exact, grain: Grain): Exact {
  if (typeof v === "bigint") return v - 1n;
  const n = v;
  if (grain === "whole") {
    const m = Math.ceil(n) - 1;
    return Number.isSafeInteger(m) || !Number.isFinite(m)
      ? m
      : exactInteger(BigInt(Math.ceil(n)) - 1n);
  }
  return n - Math.max(Number.EPSILON * Math.abs(n), Number.MIN_VALUE);
}

/** A `range` on an `ip` field: by address, as the real engines compare points, not as text. */
function ipRange(q: QueryOf<"range">, ctx: ExecContext, scoring: Scoring): Hits {
  const span = (v: unknown) => {
    try {
      return ipSpan(String(v));
    } catch (e) {
      const reason = (e as Error).message;
      throw queryShardError(ctx, `failed to create query: ${reason}`, illegalArgument(reason));
    }
  };
  let lo = 0n;
  let hi = (1n << 128n) - 1n;
  if (q.gte !== undefined) lo = span(q.gte).from;
  if (q.gt !== undefined) lo = span(q.gt).to + 1n;
  if (q.lte !== undefined) hi = span(q.lte).to;
  if (q.lt !== undefined) hi = span(q.lt).from - 1n;
  return scanTerms(ctx, q, scoring, (ts) =>
    ts.filter((t) => {
      const n = ipToBigInt(t);
      return n !== null && n >= lo && n <= hi;
    }));
}
