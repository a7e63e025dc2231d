// The top-level `knn` search section: each entry's global top k (across every target) joins the
// query's hits, and a doc found by several sources gets the sum of their scores, as in
// Elasticsearch.

import type { SearchTarget } from "../_index/search_target.ts";
import type { VectorColumn } from "../_index/vectors.ts";
import { type Hits, union } from "./doc_set.ts";
import { type ExecContext, execContextOf } from "./exec_context.ts";
import { globalTopK, knnTopKSteps } from "./knn.ts";
import type { QueryOf } from "./query_nodes.ts";
import { matchLiveSteps } from "./query_steps.ts";

/**
 * Runs the knn entries over all targets and returns how to combine one target's query hits
 * with its share of the nearest neighbours (the identity when there is no knn section). In
 * steps: it yields between entries and targets, inside each filter (`matchLiveSteps`) and
 * between blocks of each scan (`knnTopKSteps`), where a time-sliced search may let other work
 * in; driven to its end at once, it is the one-go search.
 */
export function* knnSectionSteps(
  targets: readonly SearchTarget[],
  entries: readonly QueryOf<"knn">[],
  now: number,
): Generator<void, (target: number, hits: Hits) => Hits, void> {
  if (entries.length === 0) return (_, hits) => hits;
  const contexts: ExecContext[] = targets.map((target) => execContextOf(target, now));
  const found: Hits[][] = [];
  for (const q of entries) {
    const perTarget: Hits[] = [];
    for (const ctx of contexts) {
      if (found.length > 0 || perTarget.length > 0) yield;
      const allowed = q.filter ? yield* matchLiveSteps(q.filter, ctx, { scoring: "filter" }) : null;
      perTarget.push(yield* knnTopKSteps(q, ctx, allowed));
    }
    found.push(globalTopK(perTarget, q.k));
  }
  return (t, hits) => {
    const lists = [hits, ...found.map((perTarget) => perTarget[t]!)];
    return union(lists, contexts[t]!.snapshot.maxDoc);
  };
}

/**
 * The vector columns (of every segment of `targets`) that the knn clauses found in `roots` (the
 * knn section's entries, the query) score, so that their quantised codes can be made in steps.
 */
export function knnColumns(
  targets: readonly SearchTarget[],
  roots: readonly unknown[],
): VectorColumn[] {
  // No segment with a vector column: nothing to find (the usual search; no walk of its query).
  const columns: VectorColumn[] = [];
  if (!targets.some((t) => t.snapshot.views.some((v) => v.segment.vectors.size > 0))) {
    return columns;
  }
  const fields = new Set<string>();
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (typeof v !== "object" || v === null || ArrayBuffer.isView(v) || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    const node = v as Record<string, unknown>;
    if (node.kind === "knn" && typeof node.field === "string") fields.add(node.field);
    for (const key in node) walk(node[key]);
  };
  walk(roots);
  if (fields.size === 0) return columns;
  for (const target of targets) {
    for (const view of target.snapshot.views) {
      for (const field of fields) {
        const col = view.segment.vectors.get(field);
        if (col && col.spec.quantizedBits) columns.push(col);
      }
    }
  }
  return columns;
}
