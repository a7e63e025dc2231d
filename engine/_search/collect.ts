// Runs the query on every target and orders the matches: by score, by sort keys, after search_after.

import { illegalArgument } from "../_errors.ts";
import type { AggInput } from "../_aggs/agg_values.ts";
import { type Hits, intersect } from "../_query/doc_set.ts";
import { execContextOf } from "../_query/exec_context.ts";
import { nameMatcher } from "../_index/name_pattern.ts";
import { fieldMapOf } from "../_index/field_map.ts";
import { quantizeSteps } from "../_index/vectors.ts";
import { matchLive } from "../_query/query_exec.ts";
import { matchLiveSteps, STEP_BLOCK } from "../_query/query_steps.ts";
import { topScored } from "../_query/max_score.ts";
import { topFirstPlan } from "../_query/top_first_plan.ts";
import { knnColumns, knnSectionSteps } from "../_query/knn_section.ts";
import type { SearchRequest } from "./search_request.ts";
import {
  compareValues,
  ipAfterValue,
  presentSortValue,
  type SortKey,
  sortReader,
  sortsByScore,
  type SortValue,
  type ValueReader,
} from "../_hits/sort.ts";
import { topKSteps } from "../_hits/top_k.ts";
import type { Candidate } from "../_hits/hits_render.ts";
import type { SearchTarget } from "../_index/search_target.ts";
import { parseDateAt } from "../_index/dates.ts";
import { sortFailure } from "./shard_failure.ts";
import { shardDocValues } from "../_hits/shard_doc.ts";
import { perShardSteps, shardContexts } from "./shard_scoring.ts";
import { exactInteger } from "../_index/exact_long.ts";

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

/** Whether a request needs every hit, not only its page: a scroll, or `terminate_after`. */
function keepsAll(req: SearchRequest): boolean {
  return req.scroll !== null || req.terminateAfter > 0;
}

/**
 * Whether no part of the answer reads a score: no hit is shown (an aggregation-only request, whose
 * `max_score` is null) and no aggregation, `min_score` or `knn` section reads scores. The query
 * then runs in filter context, as Elasticsearch collects it without scores: the same docs, no
 * score array over every match.
 */
function scoresUnread(req: SearchRequest): boolean {
  if (keepsAll(req) || req.from + req.size > 0 || req.searchAfter || req.minScore !== null) {
    return false;
  }
  if (req.knn.length > 0 || req.rescoreWindow > 0) return false;
  return !/top_hits|top_metrics|_score|script/.test(JSON.stringify(req.aggs ?? {}));
}

/** The `_shard_doc` value base of a target, as Elasticsearch packs shard index and doc id. */
export const SHARD_DOC_SPAN = 2 ** 32;

/**
 * Executes `req` on targets and orders the matches; `all` keeps every hit (scroll). It yields
 * where a time-sliced search may pause: after the query on each target but the last, inside the
 * long loops of a query (`query_steps.ts`), and between blocks of candidates ordered.
 */
export function* collect(
  targets: SearchTarget[],
  req: SearchRequest,
  sort: SortKey[],
  now: number,
): Generator<void, Collected, void> {
  const all = keepsAll(req);
  // Codes of quantised vectors not made yet are made in steps, not in one long kNN search.
  const columns = knnColumns(targets, [req.knn, req.query]);
  if (columns.length > 0) yield* quantizeSteps(columns);
  const fast = topFirst(targets, req, sort, now);
  if (fast) return fast;
  const scored = sort.length === 0 || sort.some((k) => k.field === "_score") || req.trackScores ||
    req.minScore !== null;
  const scoring = scored && !scoresUnread(req);
  const aggInputs: AggInput[] = [];
  const parts: Array<{ t: number; hits: Hits }> = [];
  const readers: ValueReader[][] = [];
  const types: Array<Array<string | undefined>> = [];
  let n = 0;
  const withKnn = yield* knnSectionSteps(targets, req.knn, now);
  let nextShard = 0;
  for (let t = 0; t < targets.length; t++) {
    if (t > 0) yield;
    const target = targets[t]!;
    const ctx = execContextOf(target, now);
    const firstShard = nextShard;
    nextShard += target.shards ?? 1;
    readers.push(sortReaders(target, sort, { ctx, t, firstShard }));
    types.push(sort.map((k) => ctx.fields.full.byPath.get(k.field)?.type));
    // query_then_fetch: each shard scores with its own statistics (dfs: with the index's).
    // (Unscored, the shards still match on their own: a rewrite can depend on a shard's terms.)
    const shardCtx = scored && !req.dfs ? shardContexts(target, ctx) : null;
    const steps = { scoring: scoring ? "score" : "filter" } as const;
    let hits = withKnn(
      t,
      shardCtx
        ? yield* perShardSteps(shardCtx, (c) => matchLiveSteps(req.query, c, steps))
        : yield* matchLiveSteps(req.query, ctx, steps),
    );
    if (req.minScore !== null) hits = withMinScore(hits, req.minScore);
    aggInputs.push({ ctx, docs: hits.docs, scored: hits });
    if (req.postFilter) {
      yield;
      hits = intersect(hits, matchLive(req.postFilter, ctx, "filter"));
    }
    hits = indexBoosted(hits, req.indicesBoost, target.index);
    parts.push({ t, hits });
    n += hits.docs.length;
  }
  // The best score is reported for a search sorted by score: in OpenSearch when the first key is
  // `_score` (descending), in Elasticsearch only when it is the one key (a longer sort, even
  // `_score` then `_doc`, reports null unless `track_scores`).
  const bestReported = targets[0]?.flavour === "opensearch"
    ? sortsByScore(sort)
    : sort.length <= 1 && sortsByScore(sort);
  const report = scoring && (bestReported || req.trackScores);
  if (!all && req.from + req.size === 0 && !req.searchAfter) {
    // No hit is shown (an aggregation-only request): the count and the best score are all the
    // candidates give, so they are neither copied nor read for sorting.
    const maxScore = report && n > 0 ? bestScore(parts) : null;
    return { total: n, maxScore, ordered: [], aggInputs, scoresReported: scoring };
  }
  // Candidates as parallel typed arrays; sort values as one column per key.
  const ts = new Int32Array(n);
  const docs = new Int32Array(n);
  const scores = new Float64Array(n);
  let at = 0;
  for (const { t, hits } of parts) {
    ts.fill(t, at, at + hits.docs.length);
    docs.set(hits.docs, at);
    if (hits.scores) scores.set(hits.scores, at);
    at += hits.docs.length;
  }
  const byScore = sort.length === 0;
  const places = targets.map((tg) => (tg.shards ?? 1) > 1 ? shardDocValues(tg, 0) : null);
  // A key repeated with the same settings cannot change the order: its column is read once and
  // compared once, however many times the request lists it.
  const columnOf = new Map<string, SortValue[]>();
  const distinct: number[] = [];
  // Sort key k's values of candidates from … to - 1 (outside the generator, where V8 optimises
  // a long loop while it runs).
  const readColumn = (col: SortValue[], k: number, from: number, to: number) => {
    for (let i = from; i < to; i++) col[i] = readers[ts[i]!]![k]!(docs[i]!, scores[i]!);
  };
  const cols: SortValue[][] = [];
  for (let k = 0; k < sort.length; k++) {
    const signature = JSON.stringify(sort[k], (_k, v) => typeof v === "bigint" ? `${v}n` : v);
    const known = columnOf.get(signature);
    if (known) {
      cols.push(known);
      continue;
    }
    const col = new Array<SortValue>(n);
    for (let from = 0; from < n; from += STEP_BLOCK) {
      if (from > 0) yield;
      readColumn(col, k, from, Math.min(from + STEP_BLOCK, n));
    }
    columnOf.set(signature, col);
    distinct.push(k);
    cols.push(col);
  }
  const compare = (a: number, b: number): number => {
    if (!byScore) {
      for (const k of distinct) {
        const x = cols[k]![a]!;
        const y = cols[k]![b]!;
        const c = typeof x === "number" && typeof y === "number"
          ? (x - y) * sort[k]!.order
          : compareValues(x, y, sort[k]!);
        if (c) return c;
      }
    } else if (scores[a] !== scores[b]) return scores[b]! - scores[a]!;
    if (ts[a] !== ts[b]) return ts[a]! - ts[b]!;
    // Ties go to the lower shard, then the lower Lucene doc id, as the shards' results merge.
    const place = places[ts[a]!];
    return place ? place[docs[a]!]! - place[docs[b]!]! : docs[a]! - docs[b]!;
  };
  const rowOf = (i: number): SortValue[] =>
    cols.map((c, k) => presentSortValue(c[i]!, types[ts[i]!]![k]));
  let indices: number[] | null = null;
  if (req.searchAfter) {
    indices = pastSearchAfter(req.searchAfter, {
      keys: byScore ? [{ field: "_score", order: -1, missing: "_last" } as SortKey] : sort,
      columns: byScore ? [Array.from(scores)] : cols,
      n,
      targets,
    });
  }
  const pool = indices ?? null;
  const count = pool ? pool.length : n;
  const cmpPool = pool ? (a: number, b: number) => compare(pool[a]!, pool[b]!) : compare;
  const window = all || req.collapse ? count : Math.min(count, req.from + req.size);
  if (count > STEP_BLOCK) yield;
  let picked = (yield* topKSteps(count, window, cmpPool, STEP_BLOCK)).map((i) =>
    pool ? pool[i]! : i
  );
  let keys: SortValue[] | null = null;
  if (req.collapse) {
    const limit = all ? Infinity : req.from + req.size;
    ({ picked, keys } = collapsed(picked, {
      targets,
      field: req.collapse,
      limit,
      ts,
      docs,
      scores,
    }));
  }
  const ordered = picked.map((i, j) => ({
    t: ts[i]!,
    doc: docs[i]!,
    score: scores[i]!,
    sort: byScore ? null : rowOf(i),
    ...(keys ? { collapse: keys[j] } : {}),
  }));
  let maxScore: number | null = null;
  if (report && n > 0) {
    maxScore = -Infinity;
    for (const s of scores) if (s > maxScore) maxScore = s;
  }
  return { total: n, maxScore, ordered, aggInputs, scoresReported: scoring };
}

/** The readers of a target's sort values, one per sort key (a failing first key fails the shard). */
function sortReaders(
  target: SearchTarget,
  sort: SortKey[],
  at: { ctx: ReturnType<typeof execContextOf>; t: number; firstShard: number },
): ValueReader[] {
  return sort.map((k, i) => {
    if (k.field === "_shard_doc") {
      const values = shardDocValues(target, at.firstShard);
      return (d: number) => values[d]!;
    }
    try {
      return sortReader(
        k,
        {
          snapshot: target.snapshot,
          fields: at.ctx.fields,
          index: target.index,
          flavour: target.flavour,
        },
        at.t * SHARD_DOC_SPAN,
      );
    } catch (err) {
      // OpenSearch 3.8.0 builds a primary field sort in can_match, a `_geo_distance` one in
      // the query phase.
      throw i === 0 && !k.geo ? sortFailure(err) : err;
    }
  });
}

/**
 * `search_after`: the candidates (by index into `columns`, one column per sort key) that sort
 * after the given values.
 */
function pastSearchAfter(
  searchAfter: unknown[],
  c: { keys: SortKey[]; columns: ArrayLike<SortValue>[]; n: number; targets: SearchTarget[] },
): number[] {
  const { keys, columns } = c;
  if (searchAfter.length !== keys.length) {
    throw illegalArgument(
      `search_after has ${searchAfter.length} value(s) but sort has ${keys.length}.`,
    );
  }
  const after = searchAfter.map((v, k) => afterValue(v, keys[k]!, c.targets));
  const indices: number[] = [];
  // Compared column by column, without building a row per document: this runs on every
  // match of every page of a point-in-time or search_after walk.
  for (let i = 0; i < c.n; i++) {
    let d = 0;
    for (let k = 0; k < keys.length && d === 0; k++) {
      const x = columns[k]![i]!;
      const y = after[k]!;
      d = typeof x === "number" && typeof y === "number"
        ? (x - y) * keys[k]!.order
        : compareValues(x, y, keys[k]!);
    }
    if (d > 0) indices.push(i);
  }
  return indices;
}

/** `min_score`: the scored hits below it are dropped. */
function withMinScore(hits: Hits, minScore: number): Hits {
  const scores = hits.scores;
  if (!scores) return hits;
  const keep = [...hits.docs.keys()].filter((i) => scores[i]! >= minScore);
  return {
    docs: Int32Array.from(keep, (i) => hits.docs[i]!),
    scores: Float64Array.from(keep, (i) => scores[i]!),
  };
}

/** `indices_boost`: the first pattern naming the index multiplies its hits' scores. */
function indexBoosted(
  hits: Hits,
  indicesBoost: SearchRequest["indicesBoost"],
  index: string,
): Hits {
  const boost = indicesBoost.find(([pattern]) => nameMatcher(pattern)(index))?.[1];
  if (boost === undefined || !hits.scores) return hits;
  return { docs: hits.docs, scores: hits.scores.map((s) => s * boost) };
}

/** The best score of the targets' hits (0 for hits without scores), read without copying them. */
function bestScore(parts: ReadonlyArray<{ hits: Hits }>): number {
  let maxScore = -Infinity;
  for (const { hits } of parts) {
    const s = hits.scores;
    if (!s) {
      if (hits.docs.length > 0 && maxScore < 0) maxScore = 0; // scores default to 0
      continue;
    }
    for (let i = 0; i < s.length; i++) if (s[i]! > maxScore) maxScore = s[i]!;
  }
  return maxScore;
}

/**
 * Field collapsing: of the candidates `picked` in order, the best per value of the field, up to
 * `limit` of them, and each one's value.
 */
function collapsed(
  picked: number[],
  c: {
    targets: SearchTarget[];
    field: string;
    limit: number;
    ts: Int32Array;
    docs: Int32Array;
    scores: Float64Array;
  },
): { picked: number[]; keys: SortValue[] } {
  const { targets, field, ts, docs, scores } = c;
  const readerOf = targets.map((tg) =>
    sortReader(
      { field, order: 1, missing: "_last" },
      { snapshot: tg.snapshot, fields: fieldMapOf(tg.mappings), index: tg.index },
      0,
    )
  );
  const seen = new Set<SortValue>();
  const kept: number[] = [];
  const keys: SortValue[] = [];
  for (const i of picked) {
    const key = presentSortValue(
      readerOf[ts[i]!]!(docs[i]!, scores[i]!),
      fieldMapOf(targets[ts[i]!]!.mappings).byPath.get(field)?.type,
    );
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(i);
    keys.push(key);
    if (kept.length >= c.limit) break;
  }
  return { picked: kept, keys };
}

/**
 * A scored disjunction (`match`, `multi_match` best/most fields, `bool` of such shoulds with
 * filters; see `top_first_plan.ts`) sorted by score on one target, whose request needs only the top
 * `from + size` and totals up to `track_total_hits`: answered by MaxScore (`max_score.ts`), with
 * the same hits, order and scores as the exhaustive path. Null when anything needs every match
 * (aggregations, post_filter, min_score, collapse, rescore, knn, search_after, scroll, exact totals).
 */
function topFirst(
  targets: SearchTarget[],
  req: SearchRequest,
  sort: SortKey[],
  now: number,
): Collected | null {
  if (
    keepsAll(req) || sort.length > 0 || targets.length !== 1 || req.trackTotalHits === true ||
    req.collapse || req.searchAfter || req.minScore !== null || req.postFilter || req.aggs ||
    req.knn.length > 0 || req.indicesBoost.length > 0 || req.rescoreWindow > 0 ||
    // dfs on several shards: the index's statistics, but ties by shard (the exhaustive path).
    (req.dfs && (targets[0]?.shards ?? 1) > 1)
  ) return null;
  const target = targets[0]!;
  const ctx = execContextOf(target, now);
  const track = req.trackTotalHits === false ? -1 : req.trackTotalHits;
  const k = req.from + req.size;
  // On a multi-shard index each shard finds its own best (with its own statistics), then the
  // shards' lists merge: by score, then by shard and Lucene doc id; totals add up.
  const contexts = (req.dfs ? null : shardContexts(target, ctx)) ?? [ctx];
  let total = 0;
  let docs: Int32Array | undefined;
  let scores: Float64Array | undefined;
  const found: Array<{ doc: number; score: number }> = [];
  for (const c of contexts) {
    const plan = topFirstPlan(req.query, c);
    if (!plan) return null;
    const top = topScored(c, plan, k, track);
    total += top.total;
    // One shard (the usual case): its hits are the answer's, in order, as they come.
    if (contexts.length === 1) ({ docs, scores } = top);
    else top.docs.forEach((doc, i) => found.push({ doc, score: top.scores[i]! }));
  }
  if (contexts.length > 1) {
    const place = shardDocValues(target, 0);
    found.sort((a, b) => b.score - a.score || place[a.doc]! - place[b.doc]!);
    found.length = Math.min(found.length, k);
    docs = new Int32Array(found.length);
    scores = new Float64Array(found.length);
    for (let i = 0; i < found.length; i++) {
      docs[i] = found[i]!.doc;
      scores[i] = found[i]!.score;
    }
  }
  docs ??= new Int32Array(0); // (there is always a context: never taken)
  scores ??= new Float64Array(0);
  const ordered: Candidate[] = new Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    ordered[i] = { t: 0, doc: docs[i]!, score: scores[i]!, sort: null };
  }
  return {
    total,
    maxScore: ordered.length ? ordered[0]!.score : null,
    ordered,
    aggInputs: [{ ctx, docs, scored: { docs, scores } }],
    scoresReported: true,
  };
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
        ? parseDateAt(v, { format: key.format ?? info.format, nanos: info.nanos })
        : Number(v);
    }
    if (info.type === "ip") return ipAfterValue(v);
    if (info.kind === "number" || info.kind === "boolean") {
      if (info.integer && (typeof v === "bigint" || typeof v === "string")) return exactInteger(v);
      return v === true ? 1 : v === false ? 0 : Number(v);
    }
    return String(v);
  }
  return typeof v === "boolean" ? String(v) : (v as SortValue);
}
