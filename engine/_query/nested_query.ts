// The `nested` query: a document matches when one of its objects under the path matches the whole
// inner query on its own; its score combines the matching objects' scores (`score_mode`).

import { esError } from "../_errors.ts";
import type { Hits, Scoring } from "./doc_set.ts";
import { type ExecContext, liveOnly, queryShardError } from "./exec_context.ts";
import { nestedScope, scopeContext } from "./nested_objects.ts";
import type { NestedScoreMode, QueryNode, QueryOf } from "./query_nodes.ts";

/** Runs a query node (handed in, so this file does not import the executor that lists it). */
export type Execute = (q: QueryNode, ctx: ExecContext, scoring: Scoring) => Hits;

/** Where a nested query (or inner hits, or a nested sort) looks: its path, and whether an unmapped one is ignored. */
export interface NestedPath {
  /** The nested path (full). */
  readonly path: string;
  /** `ignore_unmapped`: an unmapped path matches nothing instead of failing (false when absent). */
  readonly ignoreUnmapped?: boolean;
}

/** Checks that `at.path` is a nested field of the context: false when unmapped and ignored. */
export function checkNestedPath(ctx: ExecContext, at: NestedPath): boolean {
  const path = at.path;
  if (ctx.fields.nested.has(path)) return true;
  if (!ctx.fields.objects.has(path) && at.ignoreUnmapped) return false;
  const reason = ctx.fields.objects.has(path)
    ? `[nested] nested object under path [${path}] is not of nested type`
    : `[nested] failed to find nested object under path [${path}]`;
  throw queryShardError(
    ctx,
    `failed to create query: ${reason}`,
    esError("illegal_state_exception", reason),
  );
}

/** The objects under `q.path` that match `q.query`, with their scores (live objects only). */
export function matchObjects(
  ctx: ExecContext,
  q: { readonly path: string; readonly query: QueryNode },
  scoring: Scoring,
  execute: Execute,
): { hits: Hits; parent: Int32Array; ctx: ExecContext } {
  const { path, query } = q;
  const scope = nestedScope(ctx, path);
  const objects = scopeContext(ctx, scope, path);
  const hits = liveOnly(scope.snapshot, execute(query, objects, scoring));
  return { hits, parent: scope.parent, ctx: objects };
}

/** One parent's matching objects' scores: their sum, least, greatest and count. */
interface ObjectScores {
  sum: number;
  min: number;
  max: number;
  n: number;
}

/** A parent's score from its objects' scores, per `score_mode`. */
function combine(mode: NestedScoreMode, s: ObjectScores): number {
  switch (mode) {
    case "avg":
      return s.sum / s.n;
    case "sum":
      return s.sum;
    case "min":
      return s.min;
    case "max":
      return s.max;
    default:
      return 0;
  }
}

/** Runs a `nested` query: parents of the matching objects, scored per `score_mode`. */
export function runNested(
  q: QueryOf<"nested">,
  ctx: ExecContext,
  scoring: Scoring,
  execute: Execute,
): Hits {
  if (!checkNestedPath(ctx, q)) {
    return { docs: new Int32Array(0), scores: null };
  }
  const scored = scoring === "score" && q.scoreMode !== "none" ? "score" : "filter";
  const { hits, parent } = matchObjects(ctx, q, scored, execute);
  const docs: number[] = [];
  const scores: number[] = [];
  // Objects are in parent order, so each parent's matches are one run.
  const run: ObjectScores = { sum: 0, min: Infinity, max: -Infinity, n: 0 };
  let i = 0;
  while (i < hits.docs.length) {
    const p = parent[hits.docs[i]!]!;
    run.sum = 0;
    run.min = Infinity;
    run.max = -Infinity;
    run.n = 0;
    for (; i < hits.docs.length && parent[hits.docs[i]!] === p; i++) {
      const s = hits.scores?.[i] ?? 0;
      run.sum += s;
      if (s < run.min) run.min = s;
      if (s > run.max) run.max = s;
      run.n++;
    }
    docs.push(p);
    if (scoring === "score") scores.push(combine(q.scoreMode, run) * q.boost);
  }
  return {
    docs: Int32Array.from(docs),
    scores: scoring === "score" ? Float64Array.from(scores) : null,
  };
}
