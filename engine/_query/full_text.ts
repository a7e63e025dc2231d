// Full-text queries: match (incl. bool_prefix), match_phrase and multi_match.

import { isIpText } from "../_index/ip_address.ts";
import { analyzerFor } from "../_index/analysis.ts";
import type { Posting, SmallInts } from "../_index/segment.ts";
import { idf, TermScorer } from "./bm25.ts";
import {
  atLeast,
  boostHits,
  constantHits,
  disMax,
  type Hits,
  intersect,
  NO_HITS,
  type Scoring,
  union,
} from "./doc_set.ts";
import { allOrdinals, type ExecContext, perSegment, unionDocs } from "./exec_context.ts";
import type { BoostedField, QueryOf } from "./query_nodes.ts";
import { fuzzyHits } from "./fuzzy.ts";
import { constantKeyword, termHits, valueHits } from "./term_queries.ts";
import { combinedTermHits } from "./combined_fields.ts";

/** Resolves a `minimum_should_match` spec against the number of optional clauses. */
export function resolveMsm(spec: string | undefined, optional: number, fallback: number): number {
  if (spec === undefined) return fallback;
  const m = /^\s*(-?\d+)(%?)\s*$/.exec(spec);
  if (!m) return fallback;
  const n = Number(m[1]);
  let result: number;
  if (m[2]) {
    result = n < 0 ? optional - Math.floor(optional * -n / 100) : Math.floor(optional * n / 100);
  } else result = n < 0 ? optional + n : n;
  // Not capped at the optional clauses: more than there are matches nothing, as in the real
  // engines (`token visitor` with minimum_should_match 3 finds no document).
  return Math.max(0, result);
}

/** The docs holding a term of `on.field` that begins with `prefix`, scoring `on.boost`. */
function prefixHits(ctx: ExecContext, on: BoostedField, prefix: string, scoring: Scoring): Hits {
  const { field, boost } = on;
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(field);
    if (!f) return NO_HITS;
    const lists: Int32Array[] = [];
    const ts = v.segment.sortedTerms(field);
    for (const t of ts) if (t.startsWith(prefix)) lists.push(f.terms.get(t)!.docs);
    return unionDocs(lists, boost, scoring);
  });
}

/** `match` query on one concrete field. */
export function runMatch(q: QueryOf<"match">, ctx: ExecContext, scoring: Scoring): Hits {
  const info = ctx.fields.byPath.get(q.field);
  if (!info) return NO_HITS;
  if (info.kind !== "text") {
    if (q.prefixLast && info.kind === "keyword") {
      return prefixHits(ctx, q, String(q.query), scoring);
    }
    if (q.fuzziness !== undefined && info.kind === "keyword") {
      return fuzzyHits(ctx, q, String(q.query), scoring);
    }
    return valueHits(ctx, info, { value: q.query, boost: q.boost, lenient: q.lenient }, scoring);
  }
  const analyzer = q.analyzer ? analyzerFor(q.analyzer) : info.searchAnalyzer;
  const terms = analyzer(String(q.query)).map((t) => t.term);
  if (terms.length === 0) {
    return q.zeroTermsAll ? constantHits(allOrdinals(ctx.snapshot), 1, scoring) : NO_HITS;
  }
  const parts = terms.map((t, i) =>
    q.prefixLast && i === terms.length - 1
      ? prefixHits(ctx, q, t, scoring)
      : q.fuzziness !== undefined
      ? fuzzyHits(ctx, q, t, scoring)
      : termHits(ctx, q, t, scoring)
  );
  if (parts.length === 1) return parts[0]!;
  if (q.operator === "and") {
    // Every term required leaves no optional one: a positive minimum_should_match matches nothing.
    return resolveMsm(q.minimumShouldMatch, 0, 0) > 0 ? NO_HITS : parts.reduce(intersect);
  }
  const min = resolveMsm(q.minimumShouldMatch, parts.length, 1);
  return atLeast(union(parts, ctx.snapshot.maxDoc), min);
}

/**
 * Frequency of the phrase in one doc, given each term's positions (exact or within `slop`). Each
 * later term's nearest position to where it should stand is found with a cursor that only moves
 * forward (the starts ascend), so a doc costs its positions times the terms, not their square.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { phraseFreq } from "./full_text.ts";
 * // "quick fox" in "quick fox quick brown fox": once exactly, twice within a slop of 1.
 * const quick = Int32Array.of(0, 2);
 * const fox = Int32Array.of(1, 4);
 * assert.equal(phraseFreq([quick, fox], 0), 1);
 * assert.equal(phraseFreq([quick, fox], 1), 1.5);
 * ```
 */
export function phraseFreq(positions: SmallInts[], slop: number): number {
  if (slop > 0 && positions.length > 1 && !sharesPositions(positions)) {
    return sloppyFreq(positions, slop);
  }
  let freq = 0;
  const first = positions[0]!;
  const cursors = new Int32Array(positions.length);
  const used: number[] = [];
  for (const start of first) {
    let ok = true;
    let dist = 0;
    used.length = 0;
    used.push(start);
    for (let k = 1; k < positions.length && ok; k++) {
      const want = start + k;
      const list = positions[k]!;
      let c = cursors[k]!;
      while (c + 1 < list.length && list[c + 1]! <= want) c++;
      cursors[k] = c;
      // A repeated term's occurrence stands for one place of the phrase only: the nearest
      // occurrence not yet taken, on either side (at most `used.length` are skipped each way).
      let best = Infinity;
      let pick = -1;
      for (let i = c; i >= 0 && list[i]! <= want; i--) {
        if (used.includes(list[i]!)) continue;
        [best, pick] = [want - list[i]!, list[i]!];
        break;
      }
      for (let i = c; i < list.length; i++) {
        if (list[i]! <= want || used.includes(list[i]!)) continue;
        if (list[i]! - want < best) [best, pick] = [list[i]! - want, list[i]!];
        break;
      }
      used.push(pick);
      dist += best;
      ok = dist <= slop;
    }
    if (ok) freq += slop === 0 ? 1 : 1 / (1 + dist);
  }
  return freq;
}

/** Whether two of the lists hold one position (a term repeated in the phrase). */
function sharesPositions(positions: SmallInts[]): boolean {
  const seen = new Set<number>();
  for (const list of positions) {
    for (const p of list) {
      if (seen.has(p)) return true;
    }
    for (const p of list) seen.add(p);
  }
  return false;
}

/**
 * Lucene's SloppyPhraseMatcher (terms not repeated): each term's position less its offset in the
 * phrase; the lowest one advances while it stays lowest, each stop where the spread is within
 * `slop` counts 1 / (1 + spread), summed in floats.
 */
function sloppyFreq(positions: SmallInts[], slop: number): number {
  const n = positions.length;
  const at = new Int32Array(n);
  const pos = (k: number) => positions[k]![at[k]!]! - k;
  const queued = new Uint8Array(n).fill(1);
  let end = -Infinity;
  for (let k = 0; k < n; k++) end = Math.max(end, pos(k));
  const popMin = (): number => {
    let best = -1;
    for (let k = 0; k < n; k++) {
      if (queued[k] && (best < 0 || pos(k) < pos(best))) best = k;
    }
    queued[best] = 0;
    return best;
  };
  const topMin = (): number => {
    let best = Infinity;
    for (let k = 0; k < n; k++) if (queued[k] && pos(k) < best) best = pos(k);
    return best;
  };
  const advance = (k: number): boolean => {
    if (at[k]! + 1 >= positions[k]!.length) return false;
    at[k]!++;
    if (pos(k) > end) end = pos(k);
    return true;
  };
  let freq = 0;
  for (let positioned = true; positioned;) {
    let k = popMin();
    let matchLength = end - pos(k);
    let next = topMin();
    let matched = false;
    for (;;) {
      if (!advance(k)) {
        positioned = false;
        matched = matchLength <= slop;
        break;
      }
      if (pos(k) > next) {
        queued[k] = 1;
        if (matchLength <= slop) {
          matched = true;
          break;
        }
        k = popMin();
        next = topMin();
        matchLength = end - pos(k);
      } else matchLength = Math.min(matchLength, end - pos(k));
    }
    if (matched) freq = Math.fround(freq + Math.fround(1 / (1 + matchLength)));
  }
  return freq;
}

/** The first `max` indexed terms of a field that begin with `prefix`, in term order. */
function prefixExpansions(ctx: ExecContext, field: string, prefix: string, max: number): string[] {
  const found = new Set<string>();
  for (const v of ctx.snapshot.views) {
    for (const t of v.segment.sortedTerms(field)) if (t.startsWith(prefix)) found.add(t);
  }
  return [...found].sort((a, b) => a < b ? -1 : a > b ? 1 : 0).slice(0, Math.max(1, max));
}

/**
 * A phrase whose positions each accept several terms (Lucene's MultiPhraseQuery): scored with
 * the idf of every term of every position summed.
 */
function multiPhraseHits(
  ctx: ExecContext,
  q: { field: string; slop: number; boost: number },
  positions: string[][],
  scoring: Scoring,
): Hits {
  const field = q.field;
  const stats = ctx.snapshot.fieldStats(field);
  let idfSum = 0;
  for (const terms of positions) {
    for (const t of terms) {
      idfSum = Math.fround(idfSum + idf(stats.docCount, ctx.snapshot.docFreq(field, t)));
    }
  }
  const scorer = new TermScorer(ctx, idfSum, q.boost, stats.avgLength);
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(field);
    if (!f) return NO_HITS;
    const lists = positions.map((terms) =>
      terms.map((t) => f.terms.get(t)).filter((p): p is Posting => p !== undefined)
    );
    if (lists.some((l) => l.length === 0)) return NO_HITS;
    // Per position, the docs holding any of its terms; candidates hold every position.
    const perPosition = lists.map((l) =>
      l.length === 1
        ? constantHits(l[0]!.docs, 0, "filter")
        : union(l.map((p) => constantHits(p.docs, 0, "filter")), v.segment.maxDoc)
    );
    const cand = perPosition.reduce(intersect);
    const docs: number[] = [];
    const scores: number[] = [];
    for (const doc of cand.docs) {
      const pos = lists.map((l) => positionsIn(l, doc));
      const freq = phraseFreq(pos, q.slop);
      if (freq > 0) {
        docs.push(doc);
        if (scoring === "score") scores.push(scorer.score(freq, f.norms ? f.norms[doc]! : 1));
      }
    }
    return {
      docs: Int32Array.from(docs),
      scores: scoring === "score" ? Float64Array.from(scores) : null,
    };
  });
}

/** The positions of any of the postings' terms in one doc, ascending. */
function positionsIn(postings: readonly Posting[], doc: number): SmallInts {
  const out: number[] = [];
  for (const p of postings) {
    let lo = 0;
    let hi = p.docs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (p.docs[mid]! < doc) lo = mid + 1;
      else hi = mid;
    }
    if (p.docs[lo] !== doc) continue;
    const at = p.positions!.subarray(p.posStart![lo], p.posStart![lo + 1]);
    for (const x of at) out.push(x);
  }
  return Int32Array.from(out).sort();
}

/** `match_phrase` query on one concrete field: positions must line up. */
export function runPhrase(q: QueryOf<"match_phrase">, ctx: ExecContext, scoring: Scoring): Hits {
  const info = ctx.fields.byPath.get(q.field);
  if (!info) return NO_HITS;
  if (info.kind !== "text") {
    return valueHits(ctx, info, { value: q.query, boost: q.boost }, scoring);
  }
  const terms = info.searchAnalyzer(String(q.query)).map((t) => t.term);
  if (terms.length === 0) return NO_HITS;
  if (q.prefixLast) {
    // Lucene's MultiPhrasePrefixQuery: the last term stands for the indexed terms it begins (the
    // first `max_expansions` of them), at the position after the others.
    const expansions = prefixExpansions(ctx, q.field, terms.pop()!, q.maxExpansions ?? 50);
    if (expansions.length === 0) return NO_HITS;
    if (terms.length === 0) {
      // One position: a disjunction of the expanded terms, scores summed.
      const parts = expansions.map((t) => termHits(ctx, q, t, scoring));
      return parts.length === 1 ? parts[0]! : union(parts, ctx.snapshot.maxDoc);
    }
    return multiPhraseHits(ctx, q, [...terms.map((t) => [t]), expansions], scoring);
  }
  if (terms.length === 1) return termHits(ctx, q, terms[0]!, scoring);
  const stats = ctx.snapshot.fieldStats(q.field);
  let idfSum = 0;
  for (const t of terms) {
    idfSum = Math.fround(idfSum + idf(stats.docCount, ctx.snapshot.docFreq(q.field, t)));
  }
  const scorer = new TermScorer(ctx, idfSum, q.boost, stats.avgLength);
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(q.field);
    const postings = terms.map((t) => f?.terms.get(t));
    if (!f || postings.some((p) => !p)) return NO_HITS;
    let cand = constantHits(postings[0]!.docs, 0, "filter");
    for (let i = 1; i < postings.length; i++) {
      cand = intersect(cand, constantHits(postings[i]!.docs, 0, "filter"));
    }
    const docs: number[] = [];
    const scores: number[] = [];
    const cursors = new Int32Array(postings.length);
    for (const doc of cand.docs) {
      const pos = postings.map((p, k) => {
        while (p!.docs[cursors[k]!]! < doc) cursors[k]!++;
        const i = cursors[k]!;
        return p!.positions!.subarray(p!.posStart![i], p!.posStart![i + 1]);
      });
      const freq = phraseFreq(pos, q.slop);
      if (freq > 0) {
        docs.push(doc);
        if (scoring === "score") scores.push(scorer.score(freq, f.norms ? f.norms[doc]! : 1));
      }
    }
    return {
      docs: Int32Array.from(docs),
      scores: scoring === "score" ? Float64Array.from(scores) : null,
    };
  });
}

/** `multi_match`: one match per (expanded) field, combined as dis_max or summed. */
export function runMultiMatch(q: QueryOf<"multi_match">, ctx: ExecContext, scoring: Scoring): Hits {
  const fields: { field: string; boost: number }[] = [];
  for (const f of q.fields) {
    for (const path of ctx.fields.expand(f.field)) {
      const info = ctx.fields.byPath.get(path)!;
      // `*` expansion only searches fields that can take the text, as Elasticsearch's lenient default field does.
      if (f.field.includes("*") && info.kind !== "text" && info.kind !== "keyword") continue;
      // A leniently searched `ip` field is left out when the text is no address.
      if (info.type === "ip" && (q.lenient || f.field.includes("*")) && !isIpText(q.query)) {
        continue;
      }
      fields.push({ field: path, boost: f.boost });
    }
  }
  if (q.type === "cross_fields" || q.type === "combined_fields") {
    return crossFields(q, fields, ctx, scoring);
  }
  const parts = fields.map(({ field, boost }) => {
    const lenient = q.lenient;
    if (q.type === "phrase" || q.type === "phrase_prefix") {
      return runPhrase(
        {
          kind: "match_phrase",
          field,
          query: q.query,
          slop: 0,
          boost,
          prefixLast: q.type === "phrase_prefix",
        },
        ctx,
        scoring,
      );
    }
    return runMatch(
      {
        kind: "match",
        field,
        query: q.query,
        operator: q.operator,
        minimumShouldMatch: q.minimumShouldMatch,
        boost,
        zeroTermsAll: false,
        lenient,
        prefixLast: q.type === "bool_prefix",
        analyzer: q.analyzer,
        fuzziness: q.fuzziness,
        prefixLength: q.prefixLength,
        transpositions: q.transpositions,
        constantRewrite: q.constantRewrite,
      },
      ctx,
      scoring,
    );
  });
  if (parts.length === 0) return NO_HITS;
  const sum = q.type === "most_fields" || q.type === "bool_prefix";
  const merged = parts.length === 1
    ? parts[0]
    : sum
    ? union(parts, ctx.snapshot.maxDoc)
    : disMax(parts, ctx.snapshot.maxDoc, q.tieBreaker);
  return boostHits(merged!, q.boost);
}

/**
 * The document frequency each field scores a term with in `cross_fields`, as Elasticsearch's
 * BlendedTermQuery blends them: the largest of the fields' (one more for each less frequent
 * field, a bias towards the popular ones), at most the field's document count and the smallest
 * total term frequency among the fields holding the term.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blendedDocFreqs } from "./full_text.ts";
 * import { ShardSnapshot } from "../_index/shard_snapshot.ts";
 * import { fieldMapOf } from "../_index/field_map.ts";
 * const ctx = { snapshot: new ShardSnapshot([], 0), fields: fieldMapOf({}), now: 0, index: "i" };
 * // A term no field holds keeps its frequencies.
 * assert.deepEqual(blendedDocFreqs(ctx, ["a", "b"], "x"), [0, 0]);
 * ```
 */
export function blendedDocFreqs(
  ctx: ExecContext,
  fields: readonly string[],
  term: string,
): number[] {
  const snapshot = ctx.snapshot;
  const df = fields.map((f) => snapshot.docFreq(f, term));
  const out = df.slice();
  let max = 0;
  let minSumTtf = Infinity;
  fields.forEach((f, i) => {
    max = Math.max(max, df[i]!);
    if (df[i]! > 0) {
      const stats = snapshot.fieldStats(f);
      minSumTtf = Math.min(minSumTtf, Math.round(stats.avgLength * stats.docCount));
    }
  });
  if (fields.length <= 1 || max === 0) return out;
  const cap = Math.min(snapshot.maxDoc, minSumTtf);
  const order = fields.map((_, i) => i).sort((a, b) => df[b]! - df[a]! || a - b);
  let actual = Math.min(cap, max);
  let prev = df[order[0]!]!;
  for (const i of order) {
    const current = df[i]!;
    if (current === 0) break;
    if (prev > current) actual++;
    out[i] = Math.min(actual, snapshot.fieldStats(fields[i]!).docCount, cap);
    prev = current;
  }
  return out;
}

/**
 * `cross_fields` (and `combined_fields`): term-centric. Each query term may match in any of the
 * text fields (the best field scores it, plus `tie_breaker` × the others; for `combined_fields`
 * the fields are scored as one, BM25F); the operator and
 * `minimum_should_match` then count terms, not fields. `cross_fields` groups the fields by
 * analyzer as the real engines do: keyword fields take the whole text as one term (see
 * {@link keywordGroup}), and the groups combine as a dis_max with the `tie_breaker`.
 */
function crossFields(
  q: QueryOf<"multi_match">,
  fields: { field: string; boost: number }[],
  ctx: ExecContext,
  scoring: Scoring,
): Hits {
  const groups: Hits[] = [];
  const text = textGroup(q, fields, ctx, scoring);
  if (text) groups.push(text);
  if (q.type === "cross_fields") {
    const keyword = fields.filter((f) => ctx.fields.byPath.get(f.field)?.kind === "keyword");
    const byNormalizer = new Map<(s: string) => string, { field: string; boost: number }[]>();
    for (const f of keyword) {
      const normalize = ctx.fields.byPath.get(f.field)!.normalize;
      const list = byNormalizer.get(normalize);
      if (list) list.push(f);
      else byNormalizer.set(normalize, [f]);
    }
    for (const [normalize, group] of byNormalizer) {
      groups.push(keywordGroup(ctx, group, { term: normalize(String(q.query)), scoring, q }));
    }
  }
  if (groups.length === 0) return NO_HITS;
  const merged = groups.length === 1
    ? groups[0]!
    : disMax(groups, ctx.snapshot.maxDoc, q.tieBreaker);
  return boostHits(merged, q.boost);
}

/**
 * A `cross_fields` group of keyword fields sharing a normalizer: the whole text is one term.
 * Elasticsearch 9.5.4 blends its document frequency over the fields (`blended(terms:[...])`);
 * OpenSearch 3.8.0 searches each keyword field with doc values as a constant score of its boost
 * (`(ConstantScore(a:t) | ConstantScore(b:t))`), as its term queries on them score.
 */
function keywordGroup(
  ctx: ExecContext,
  group: { field: string; boost: number }[],
  on: { term: string; scoring: Scoring; q: QueryOf<"multi_match"> },
): Hits {
  const { term, scoring, q } = on;
  const dfs = blendedDocFreqs(ctx, group.map((f) => f.field), term);
  const perField = group.map((f, i) => {
    if (scoring === "filter") return termHits(ctx, f, term, scoring);
    if (constantKeyword(ctx, ctx.fields.byPath.get(f.field)!)) {
      return constantHits(termHits(ctx, f, term, "filter").docs, f.boost, scoring);
    }
    if (group.length === 1) return termHits(ctx, f, term, scoring);
    const stats = ctx.snapshot.fieldStats(f.field);
    const scorer = new TermScorer(ctx, idf(stats.docCount, dfs[i]!), f.boost, stats.avgLength);
    return perSegment(ctx, (v) => {
      const fi = v.segment.fields.get(f.field);
      const p = fi?.terms.get(term);
      return p ? { docs: p.docs, scores: scorer.scorePosting(p, fi!.norms) } : NO_HITS;
    });
  });
  return perField.length === 1 ? perField[0]! : disMax(perField, ctx.snapshot.maxDoc, q.tieBreaker);
}

/** The text fields' group of `cross_fields` (or all of `combined_fields`), or null without one. */
function textGroup(
  q: QueryOf<"multi_match">,
  fields: { field: string; boost: number }[],
  ctx: ExecContext,
  scoring: Scoring,
): Hits | null {
  const text = fields.filter((f) => ctx.fields.byPath.get(f.field)?.kind === "text");
  const first = text[0] && ctx.fields.byPath.get(text[0].field);
  if (!first) return null;
  const analyzer = q.analyzer ? analyzerFor(q.analyzer) : first.searchAnalyzer;
  const all = analyzer(String(q.query)).map((t) => t.term);
  const terms = [...new Set(all)];
  if (terms.length === 0) return null;
  const parts: Hits[] = terms.map((t) => {
    // Lucene merges a repeated term's clauses into one, their boosts summed.
    const times = all.filter((x) => x === t).length;
    if (q.type === "combined_fields") {
      return combinedTermHits(ctx, text, { term: t, boost: times }, scoring);
    }
    const dfs = blendedDocFreqs(ctx, text.map((f) => f.field), t);
    const perField = text.map((f, i) => {
      const boost = f.boost * times;
      if (scoring === "filter" || text.length === 1) {
        return termHits(ctx, { field: f.field, boost }, t, scoring);
      }
      const stats = ctx.snapshot.fieldStats(f.field);
      const scorer = new TermScorer(ctx, idf(stats.docCount, dfs[i]!), boost, stats.avgLength);
      return perSegment(ctx, (v) => {
        const fi = v.segment.fields.get(f.field);
        const p = fi?.terms.get(t);
        return p ? { docs: p.docs, scores: scorer.scorePosting(p, fi!.norms) } : NO_HITS;
      });
    });
    return perField.length === 1
      ? perField[0]!
      : disMax(perField, ctx.snapshot.maxDoc, q.tieBreaker);
  });
  if (parts.length === 1) return parts[0]!;
  if (q.operator === "and") return parts.reduce(intersect);
  const min = resolveMsm(q.minimumShouldMatch, parts.length, 1);
  return atLeast(union(parts, ctx.snapshot.maxDoc), min);
}
