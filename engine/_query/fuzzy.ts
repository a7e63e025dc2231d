// Fuzzy term expansion: indexed terms within an edit distance of a query term.

import { constantHits, disMax, type Scoring } from "./doc_set.ts";
import type { Hits } from "./doc_set.ts";
import type { ExecContext } from "./exec_context.ts";
import type { BoostedField } from "./query_nodes.ts";
import { termHits } from "./term_queries.ts";

/** Max edits for a `fuzziness` value (`AUTO` = 0 for 1-2 chars, 1 for 3-5, 2 above). */
export function maxEdits(fuzziness: string, term: string): number {
  const f = fuzziness.toUpperCase();
  if (f.startsWith("AUTO")) {
    const [, lo = "3", hi = "6"] = /^AUTO(?::(\d+),(\d+))?$/.exec(f) ?? [];
    return term.length < Number(lo) ? 0 : term.length < Number(hi) ? 1 : 2;
  }
  return Math.min(2, Math.max(0, Math.trunc(Number(f)) || 0));
}

/**
 * What counts as one edit besides inserting, deleting or replacing a character: with
 * `"transpositions"`, swapping two adjacent ones too (the optimal string alignment distance, a
 * fuzzy query's default); with `"levenshtein"`, nothing more.
 */
export type EditRule = "transpositions" | "levenshtein";

/** The edit distance of `a` and `b` under `rule`, or `max + 1` as soon as it exceeds `max`. */
export function editDistance(a: string, b: string, max: number, rule: EditRule): number {
  const transpositions = rule === "transpositions";
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** How a fuzzy term expands, as a `match` query's options say it. */
export interface FuzzyMatch extends BoostedField {
  /** `fuzziness`: `AUTO`, `AUTO:lo,hi` or a number of edits (none when absent). */
  readonly fuzziness?: string;
  /** Leading characters an expansion shares with the term (0 when absent). */
  readonly prefixLength?: number;
  /** Whether swapping two adjacent characters is one edit (true when absent). */
  readonly transpositions?: boolean;
  /** `fuzzy_rewrite: constant_score…`: every expansion scores the boost (Lucene's rewrite). */
  readonly constantRewrite?: boolean;
}

/**
 * Docs containing any term of `q.field` within `q.fuzziness` edits of `term` (sharing its first
 * `q.prefixLength` chars); the best expansion scores.
 */
export function fuzzyHits(ctx: ExecContext, q: FuzzyMatch, term: string, scoring: Scoring): Hits {
  const { field, boost } = q;
  const edits = maxEdits(q.fuzziness ?? "0", term);
  const rule = (q.transpositions ?? true) ? "transpositions" : "levenshtein";
  if (edits === 0) return termHits(ctx, q, term, scoring);
  const prefix = term.slice(0, q.prefixLength ?? 0);
  const matches = new Map<string, number>();
  for (const v of ctx.snapshot.views) {
    for (const t of v.segment.sortedTerms(field)) {
      if (!t.startsWith(prefix) || matches.has(t)) continue;
      const d = editDistance(term, t, edits, rule);
      if (d <= edits) matches.set(t, d);
    }
  }
  // Like Lucene, an expansion's weight shrinks with its distance.
  const parts = [...matches].map(([t, d]) =>
    termHits(
      ctx,
      { field, boost: boost * (1 - d / Math.max(1, Math.min(t.length, term.length))) },
      t,
      scoring,
    )
  );
  const best = disMax(parts, ctx.snapshot.maxDoc, 0);
  return q.constantRewrite ? constantHits(best.docs, boost, scoring) : best;
}
