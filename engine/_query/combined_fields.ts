// `combined_fields`: Lucene's CombinedFieldQuery (BM25F). Each query term is scored once over its
// fields taken as one: frequencies and field lengths summed with the field weights, statistics
// merged (doc count and doc frequency the fields' largest, total lengths weighted and summed).

import { encodeNorm, NORM_TABLE } from "../_index/norms.ts";
import { idf, TermScorer } from "./bm25.ts";
import { type Hits, NO_HITS, type Scoring } from "./doc_set.ts";
import { type ExecContext, perSegment } from "./exec_context.ts";

/** One field of the query with its weight (its boost, at least 1). */
export interface WeightedField {
  readonly field: string;
  readonly boost: number;
}

/**
 * The docs holding `clause.term` in any of `fields`, scored as one BM25F field (times
 * `clause.boost`: a term the query repeats is one clause, its boosts summed, as Lucene merges it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Engine } from "../engine.ts";
 * const engine = new Engine({ flavour: "opensearch" });
 * const call = (method: string, path: string, body?: unknown) =>
 *   engine.fetch(`http://engine${path}`, {
 *     method,
 *     headers: { "content-type": "application/json" },
 *     body: body === undefined ? undefined : JSON.stringify(body),
 *   }).then((r) => r.json());
 * await call("PUT", "/t/_doc/1?refresh=true", { a: "fox", b: "dog" });
 * const out = await call("POST", "/t/_search", {
 *   query: { combined_fields: { query: "fox", fields: ["a", "b"] } },
 * });
 * // One doc, one term in a combined length of 2 (avg 2): idf(1, 1) × 1 / (1 + 1.2), as
 * // OpenSearch 3.8.0 answers.
 * assert.equal(out.hits.max_score, 0.13076457);
 * ```
 */
export function combinedTermHits(
  ctx: ExecContext,
  fields: readonly WeightedField[],
  clause: { readonly term: string; readonly boost: number },
  scoring: Scoring,
): Hits {
  const { term, boost } = clause;
  const snapshot = ctx.snapshot;
  let docCount = 0;
  let sumLengths = 0;
  let docFreq = 0;
  for (const { field, boost: w } of fields) {
    const stats = snapshot.fieldStats(field);
    docCount = Math.max(docCount, stats.docCount);
    sumLengths += w * Math.round(stats.avgLength * stats.docCount);
    docFreq = Math.max(docFreq, snapshot.docFreq(field, term));
  }
  if (docFreq === 0) return NO_HITS;
  const avg = docCount ? Math.floor(sumLengths) / docCount : 1;
  const scorer = scoring === "score"
    ? new TermScorer(ctx, idf(docCount, docFreq), boost, avg)
    : null;
  return perSegment(ctx, (v) => {
    const freqOf = new Map<number, number>();
    for (const { field, boost: w } of fields) {
      const p = v.segment.fields.get(field)?.terms.get(term);
      if (!p) continue;
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i]!;
        freqOf.set(d, (freqOf.get(d) ?? 0) + w * (p.freqs ? p.freqs[i]! : 1));
      }
    }
    if (freqOf.size === 0) return NO_HITS;
    const docs = Int32Array.from(freqOf.keys()).sort();
    if (!scorer) return { docs, scores: null };
    const norms = fields.map(({ field, boost: w }) => ({
      w,
      norms: v.segment.fields.get(field)?.norms ?? null,
    }));
    const scores = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      let length = 0;
      for (const n of norms) {
        if (n.norms) length = Math.fround(length + n.w * NORM_TABLE[n.norms[d]!]!);
      }
      scores[i] = scorer.score(Math.fround(freqOf.get(d)!), encodeNorm(Math.round(length)));
    }
    return { docs, scores };
  });
}
