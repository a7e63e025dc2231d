// Query execution in steps: the long loops of the common long queries (a `match` of common words
// over every document, `match_all`, a `knn` scan) run block by block, with a pause point between
// blocks where a time-sliced search lets the event loop serve other requests. Each answer is
// `matchLive`'s.

import {
  atLeast,
  constantHits,
  type CountedHits,
  type Hits,
  type Scoring,
  union,
} from "./doc_set.ts";
import { allOrdinals, type ExecContext, liveOnly } from "./exec_context.ts";
import { resolveMsm } from "./full_text.ts";
import { execute, rewritesToNone } from "./query_exec.ts";
import { knnTopKSteps, rememberKnn } from "./knn.ts";
import type { QueryNode, QueryOf } from "./query_nodes.ts";
import { termHits } from "./term_queries.ts";

/** Documents (or candidates) handled between two pause points of a stepped loop. */
export const STEP_BLOCK = 32_768;

/** Options of {@link matchLiveSteps}. */
export interface StepOptions {
  /** Query context (scores computed) or filter context. */
  readonly scoring: Scoring;
}

/**
 * `matchLive` in steps: the generator yields where a time-sliced caller may pause (between the
 * terms of a `match`, between blocks of documents of a long union, of `match_all`'s scores and of
 * the live-document check), and returns the hits `matchLive` returns. Other queries run in one
 * step. Driven to its end without pausing, it costs what `matchLive` costs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchLiveSteps } from "./query_steps.ts";
 * import { execContextOf } from "./exec_context.ts";
 * import { Shard } from "../_index/shard.ts";
 *
 * const mappings = { properties: { title: { type: "text" } } };
 * const shard = new Shard();
 * const doc = { id: "1", source: { title: "a b" }, version: 1, seqNo: 0, primaryTerm: 1 };
 * shard.refresh([{ id: "1", doc }], mappings);
 * const target = { index: "i", snapshot: shard.snapshot(), mappings, maxResultWindow: 10 };
 * const query = { kind: "match", field: "title", query: "a b", operator: "or", boost: 1 } as const;
 * const steps = matchLiveSteps({ ...query, zeroTermsAll: false }, execContextOf(target, 0), {
 *   scoring: "score",
 * });
 * let step = steps.next();
 * while (!step.done) step = steps.next();
 * assert.deepEqual([...step.value.docs], [0]);
 * ```
 */
export function* matchLiveSteps(
  q: QueryNode,
  ctx: ExecContext,
  options: StepOptions,
): Generator<void, Hits, void> {
  const hits = yield* executeSteps(q, ctx, options);
  const snapshot = ctx.snapshot;
  if (snapshot.views.every((v) => v.deleted === null) || hits.docs.length <= STEP_BLOCK) {
    return liveOnly(snapshot, hits);
  }
  // The live check block by block: its results, concatenated, are the whole list's.
  const parts: Hits[] = [];
  let total = 0;
  for (let at = 0; at < hits.docs.length; at += STEP_BLOCK) {
    if (at > 0) yield;
    const end = Math.min(at + STEP_BLOCK, hits.docs.length);
    const part = liveOnly(snapshot, {
      docs: hits.docs.subarray(at, end),
      scores: hits.scores ? hits.scores.subarray(at, end) : null,
    });
    parts.push(part);
    total += part.docs.length;
  }
  return concat(parts, total, hits);
}

function* executeSteps(
  q: QueryNode,
  ctx: ExecContext,
  options: StepOptions,
): Generator<void, Hits, void> {
  if (q.kind === "match_all") return yield* allSteps(ctx, q.boost, options);
  if (q.kind === "knn") return yield* knnSteps(q, ctx, options);
  if (HOLDS_CLAUSES.has(q.kind)) yield* knnAheadSteps(q, ctx);
  if (q.kind === "match") {
    const hits = yield* matchSteps(q, ctx, options);
    if (hits) return hits;
  }
  return execute(q, ctx, options.scoring);
}

/** The `knn` query as `execute` runs it: its filter, then the scan, both in steps. */
function* knnSteps(
  q: QueryOf<"knn">,
  ctx: ExecContext,
  { scoring }: StepOptions,
): Generator<void, Hits, void> {
  const allowed = q.filter ? yield* executeSteps(q.filter, ctx, { scoring: "filter" }) : null;
  const hits = yield* knnTopKSteps(q, ctx, allowed);
  return scoring === "score" ? hits : { docs: hits.docs, scores: null };
}

const NO_CLAUSES: readonly QueryNode[] = [];

/** The kinds {@link sameContextClauses} looks into (no generator is made for the others). */
const HOLDS_CLAUSES = new Set<QueryNode["kind"]>([
  "bool",
  "constant_score",
  "dis_max",
  "function_score",
  "boosting",
  "script_score",
]);

/**
 * The queries `execute` runs under `q` with the same context: a bool's clauses, a
 * `constant_score`'s filter, a `dis_max`'s queries, a `function_score`'s query and its functions'
 * filters, a `boosting`'s two, a `script_score`'s query (not a `nested` one's: it runs on the
 * nested objects, in a context of its own).
 */
function sameContextClauses(q: QueryNode): readonly QueryNode[] {
  switch (q.kind) {
    case "bool":
      return [...q.must, ...q.filter, ...q.should, ...q.mustNot];
    case "constant_score":
      return [q.filter];
    case "dis_max":
      return q.queries;
    case "function_score": {
      const out = [q.query];
      for (const f of q.functions) if (f.filter) out.push(f.filter);
      return out;
    }
    case "boosting":
      return [q.positive, q.negative];
    case "script_score":
      return [q.query];
    default:
      return NO_CLAUSES;
  }
}

/**
 * The `knn` clauses under `q` (a hybrid search: `should: [knn, match]`; a `knn` inside a
 * `constant_score`, `dis_max`, `function_score`, `boosting` or `script_score`), found ahead in
 * steps and remembered for `execute`, which runs the query as before and takes them instead of
 * scanning in one step. Bools that `execute` skips (rewritten to `match_none`) are skipped; a
 * clause that fails is left to fail where `execute` reaches it.
 */
function* knnAheadSteps(q: QueryNode, ctx: ExecContext): Generator<void, void, void> {
  if (q.kind === "bool" && rewritesToNone(q, ctx.flavour)) return;
  for (const c of sameContextClauses(q)) {
    if (c.kind !== "knn") {
      yield* knnAheadSteps(c, ctx);
      continue;
    }
    let hits: Hits;
    try {
      const allowed = c.filter ? yield* executeSteps(c.filter, ctx, { scoring: "filter" }) : null;
      hits = yield* knnTopKSteps(c, ctx, allowed);
    } catch {
      continue;
    }
    rememberKnn(c, ctx, hits);
  }
}

/** `match_all`: every ordinal, its constant score filled block by block. */
function* allSteps(
  ctx: ExecContext,
  score: number,
  { scoring }: StepOptions,
): Generator<void, Hits, void> {
  const docs = allOrdinals(ctx.snapshot);
  if (scoring === "filter" || docs.length <= STEP_BLOCK) return constantHits(docs, score, scoring);
  const scores = new Float64Array(docs.length);
  for (let at = 0; at < docs.length; at += STEP_BLOCK) {
    if (at > 0) yield;
    scores.fill(score, at, Math.min(at + STEP_BLOCK, docs.length));
  }
  return { docs, scores };
}

/**
 * A `match` of several terms on one text field, as `runMatch` runs it (each term's BM25 hits,
 * then their union and the minimum to match), a term per step and the union by blocks of
 * documents; null for any other `match` (run whole by `execute`).
 */
function* matchSteps(
  q: QueryOf<"match">,
  ctx: ExecContext,
  { scoring }: StepOptions,
): Generator<void, Hits | null, void> {
  if (
    q.field.includes("*") || q.operator !== "or" || q.analyzer !== undefined || q.prefixLast ||
    q.fuzziness !== undefined
  ) return null;
  const info = ctx.fields.byPath.get(q.field);
  if (!info || info.kind !== "text") return null;
  const terms = info.searchAnalyzer(String(q.query)).map((t) => t.term);
  if (terms.length < 2) return null;
  const parts: Hits[] = [];
  for (const t of terms) {
    if (parts.length > 0) yield;
    parts.push(termHits(ctx, { field: q.field, boost: q.boost }, t, scoring));
  }
  const min = resolveMsm(q.minimumShouldMatch, parts.length, 1);
  return atLeast(yield* unionSteps(parts, ctx.snapshot.maxDoc), min);
}

/**
 * `union(lists, maxDoc)` by windows of the document space when the lists are long: a doc's entry
 * depends only on the lists' entries for that doc, so the windows' unions, concatenated, are the
 * whole union. Windowed only where `union` would merge the lists anyway (two lists, or a few
 * short ones) and every list is scored, or none, so each window's scores are there when the
 * whole union's are.
 */
function* unionSteps(lists: Hits[], maxDoc: number): Generator<void, CountedHits, void> {
  const live = lists.filter((l) => l.docs.length > 0);
  let total = 0;
  for (const l of live) total += l.docs.length;
  const scoring = lists.some((l) => l.scores !== null);
  if (
    total <= 2 * STEP_BLOCK || live.length < 2 ||
    lists.some((l) => (l.scores !== null) !== scoring) ||
    !(live.length <= 2 || (live.length <= 8 && total * 8 < maxDoc))
  ) return union(lists, maxDoc);
  const windows = Math.ceil(total / STEP_BLOCK);
  const at = new Int32Array(live.length);
  const docs = new Int32Array(total);
  const counts = new Uint16Array(total);
  const scores = scoring ? new Float64Array(total) : null;
  let k = 0;
  for (let w = 1; w <= windows; w++) {
    if (w > 1) yield;
    const end = w === windows ? 2147483647 : Math.floor(maxDoc * w / windows);
    const part = union(
      live.map((l, i) => {
        const from = at[i]!;
        const to = lowerBound(l.docs, end, from);
        at[i] = to;
        return {
          docs: l.docs.subarray(from, to),
          scores: l.scores ? l.scores.subarray(from, to) : null,
        };
      }),
      maxDoc,
    );
    docs.set(part.docs, k);
    counts.set(part.counts, k);
    if (scores && part.scores) scores.set(part.scores, k);
    k += part.docs.length;
  }
  return {
    docs: docs.subarray(0, k),
    scores: scores ? scores.subarray(0, k) : null,
    counts: counts.subarray(0, k),
  };
}

/** The first index at or after `from` of ascending `docs` whose doc is `end` or more. */
function lowerBound(docs: Int32Array, end: number, from: number): number {
  let lo = from;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < end) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `parts` (blocks of `whole`, in order, `total` docs in all) as one list. */
function concat(parts: Hits[], total: number, whole: Hits): Hits {
  const docs = new Int32Array(total);
  const scores = whole.scores ? new Float64Array(total) : null;
  let at = 0;
  for (const p of parts) {
    docs.set(p.docs, at);
    if (scores && p.scores) scores.set(p.scores, at);
    at += p.docs.length;
  }
  return { docs, scores };
}
