// The `nested` query: a document matches when one of its objects under the path matches the whole
// inner query on its own; its score combines the matching objects' scores (`score_mode`).

import { esError } from "../_errors.ts";
import type { Hits, Scoring } from "./doc_set.ts";
import { type ExecContext, liveOnly, queryShardError } from "./exec_context.ts";
import { nestedScope, scopeContext } from "./nested_objects.ts";
import type { NestedScoreMode, QueryNode, QueryOf } from "./query_nodes.ts";

/** Runs a query node (handed in, so this file does not import the executor that lists it). */
export type Execute = (q: QueryNode, ctx: ExecContext, scoring: Scoring) => Hits;

/** Checks that `path` is a nested field of the context: false when unmapped and ignored. */
export function checkNestedPath(ctx: ExecContext, path: string, ignoreUnmapped: boolean): boolean {
  if (ctx.fields.nested.has(path)) return true;
  if (!ctx.fields.objects.has(path) && ignoreUnmapped) return false;
  const reason = ctx.fields.objects.has(path)
    ? `[nested] nested object under path [${path}] is not of nested type`
    : `[nested] failed to find nested object under path [${path}]`;
  throw queryShardError(
    ctx,
    `failed to create query: ${reason}`,
    esError("illegal_state_exception", reason),
  );
}

/** The objects under a nested path that match a query, with their scores (live objects only). */
export function matchObjects(
  ctx: ExecContext,
  path: string,
  query: QueryNode,
  scoring: Scoring,
  execute: Execute,
): { hits: Hits; parent: Int32Array; ctx: ExecContext } {
  const scope = nestedScope(ctx, path);
  const objects = scopeContext(ctx, scope, path);
  const hits = liveOnly(scope.snapshot, execute(query, objects, scoring));
  return { hits, parent: scope.parent, ctx: objects };
}

function combine(mode: NestedScoreMode, sum: number, min: number, max: number, n: number): number {
  switch (mode) {
    case "avg":
      return sum / n;
    case "sum":
      return sum;
    case "min":
      return min;
    case "max":
      return max;
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
  if (!checkNestedPath(ctx, q.path, q.ignoreUnmapped)) {
    return { docs: new Int32Array(0), scores: null };
  }
  const scored = scoring === "score" && q.scoreMode !== "none" ? "score" : "filter";
  const { hits, parent } = matchObjects(ctx, q.path, q.query, scored, execute);
  const docs: number[] = [];
  const scores: number[] = [];
  // Objects are in parent order, so each parent's matches are one run.
  let i = 0;
  while (i < hits.docs.length) {
    const p = parent[hits.docs[i]!]!;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    let n = 0;
    for (; i < hits.docs.length && parent[hits.docs[i]!] === p; i++) {
      const s = hits.scores?.[i] ?? 0;
      sum += s;
      if (s < min) min = s;
      if (s > max) max = s;
      n++;
    }
    docs.push(p);
    if (scoring === "score") scores.push(combine(q.scoreMode, sum, min, max, n) * q.boost);
  }
  return {
    docs: Int32Array.from(docs),
    scores: scoring === "score" ? Float64Array.from(scores) : null,
  };
}
