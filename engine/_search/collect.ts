// Runs the query on every target and orders the matches: by score, by sort keys, after search_after.

import { illegalArgument } from "../_errors.ts";
import type { AggInput } from "./aggregations.ts";
import { intersect } from "./doc_set.ts";
import type { ExecContext } from "./exec_context.ts";
import { fieldMapOf } from "./field_map.ts";
import { matchLive } from "./query_exec.ts";
import type { SearchRequest } from "./search_request.ts";
import {
  compareValues,
  type SortKey,
  sortReader,
  sortsByScore,
  type SortValue,
  type ValueReader,
} from "./sort.ts";
import { topK } from "./top_k.ts";
import type { SearchTarget } from "./types.ts";
import { parseDateAt } from "./dates.ts";

/** One ordered hit: target index, global doc ordinal, score and sort values. */
export interface Candidate {
  /** Index into the targets array. */
  readonly t: number;
  /** Global doc ordinal in that target's snapshot. */
  readonly doc: number;
  /** Score (0 when not scored). */
  readonly score: number;
  /** Sort values when sorting by keys. */
  readonly sort: SortValue[] | null;
}

/** The result of collection. */
export interface Collected {
  /** All matches (after post_filter). */
  readonly total: number;
  /** Max score, or null when not reported. */
  readonly maxScore: number | null;
  /** Hits in order: the first `from + size`, or all of them. */
  readonly ordered: Candidate[];
  /** Docs for aggregations (before post_filter). */
  readonly aggInputs: AggInput[];
  /** Whether scores are reported per hit. */
  readonly scoresReported: boolean;
}

/** The `_shard_doc` value base of a target, as Elasticsearch packs shard index and doc id. */
export const SHARD_DOC_SPAN = 2 ** 32;

/** Executes `req` on targets and orders the matches; `all` keeps every hit (scroll). */
export function collect(
  targets: SearchTarget[],
  req: SearchRequest,
  sort: SortKey[],
  now: number,
  all: boolean,
): Collected {
  const scoring = sort.length === 0 || sort.some((k) => k.field === "_score") || req.trackScores ||
    req.minScore !== null;
  const aggInputs: AggInput[] = [];
  const ts: number[] = [];
  const docs: number[] = [];
  const scores: number[] = [];
  const readers: ValueReader[][] = [];
  targets.forEach((target, t) => {
    const ctx: ExecContext = {
      snapshot: target.snapshot,
      fields: fieldMapOf(target.mappings),
      now,
      index: target.index,
      maxRegexLength: target.maxRegexLength,
    };
    readers.push(
      sort.map((k) => sortReader(k, target.snapshot, ctx.fields, target.index, t * SHARD_DOC_SPAN)),
    );
    let hits = matchLive(req.query, ctx, scoring);
    if (req.minScore !== null && hits.scores) {
      const keep = [...hits.docs.keys()].filter((i) => hits.scores![i] >= req.minScore!);
      hits = {
        docs: Int32Array.from(keep, (i) => hits.docs[i]),
        scores: Float64Array.from(keep, (i) => hits.scores![i]),
      };
    }
    aggInputs.push({ ctx, docs: hits.docs });
    if (req.postFilter) hits = intersect(hits, matchLive(req.postFilter, ctx, false));
    for (let i = 0; i < hits.docs.length; i++) {
      ts.push(t);
      docs.push(hits.docs[i]);
      scores.push(hits.scores ? hits.scores[i] : 0);
    }
  });
  const n = docs.length;
  const byScore = sort.length === 0;
  const values: SortValue[][] | null = byScore
    ? null
    : docs.map((d, i) => readers[ts[i]].map((r) => r(d, scores[i])));
  const compare = (a: number, b: number): number => {
    if (values) {
      for (let k = 0; k < sort.length; k++) {
        const c = compareValues(values[a][k], values[b][k], sort[k]);
        if (c) return c;
      }
    } else if (scores[a] !== scores[b]) return scores[b] - scores[a];
    return ts[a] - ts[b] || docs[a] - docs[b];
  };
  let indices: number[] | null = null;
  if (req.searchAfter) {
    const keys = byScore ? [{ field: "_score", order: -1, missing: "_last" } as SortKey] : sort;
    if (req.searchAfter.length !== keys.length) {
      throw illegalArgument(
        `search_after has ${req.searchAfter.length} value(s) but sort has ${keys.length}.`,
      );
    }
    const after = req.searchAfter.map((v, k) => afterValue(v, keys[k], targets));
    indices = [];
    for (let i = 0; i < n; i++) {
      const own = values ? values[i] : [scores[i]];
      let c = 0;
      for (let k = 0; k < keys.length && c === 0; k++) c = compareValues(own[k], after[k], keys[k]);
      if (c > 0) indices.push(i);
    }
  }
  const pool = indices ?? null;
  const count = pool ? pool.length : n;
  const cmpPool = pool ? (a: number, b: number) => compare(pool[a], pool[b]) : compare;
  const window = all ? count : Math.min(count, req.from + req.size);
  const picked = topK(count, window, cmpPool).map((i) => (pool ? pool[i] : i));
  const ordered = picked.map((i) => ({
    t: ts[i],
    doc: docs[i],
    score: scores[i],
    sort: values ? values[i] : null,
  }));
  const report = scoring && (sortsByScore(sort) || req.trackScores);
  let maxScore: number | null = null;
  if (report && n > 0) {
    maxScore = -Infinity;
    for (const s of scores) if (s > maxScore) maxScore = s;
  }
  return { total: n, maxScore, ordered, aggInputs, scoresReported: scoring };
}

function afterValue(v: unknown, key: SortKey, targets: SearchTarget[]): SortValue {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return v;
  if (key.field.startsWith("_")) return Number(v);
  for (const t of targets) {
    const info = fieldMapOf(t.mappings).byPath.get(key.field);
    if (!info) continue;
    if (info.kind === "date") {
      return typeof v === "string" && !/^\d+$/.test(v)
        ? parseDateAt(v, info.format, info.nanos)
        : Number(v);
    }
    if (info.kind === "number" || info.kind === "boolean") {
      return v === true ? 1 : v === false ? 0 : Number(v);
    }
    return String(v);
  }
  return typeof v === "boolean" ? String(v) : (v as SortValue);
}
