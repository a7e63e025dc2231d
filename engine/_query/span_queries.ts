// Running span queries (parsed in span_parser.ts): each clause yields, per doc, its spans
// [start, end) over token positions of one text field; a doc matches when the top clause has a span. Scored with BM25 over the number of
// spans and the idf of the terms involved.

import { illegalArgument } from "../_errors.ts";
import { idf, TermScorer } from "./bm25.ts";
import { NO_HITS, type Scoring } from "./doc_set.ts";
import type { Hits } from "./doc_set.ts";
import { type ExecContext, perSegment } from "./exec_context.ts";
import { fieldOf, type SpanNode } from "./span_nodes.ts";

type Span = readonly [number, number];
/** Spans per local doc of one segment. */
type Spans = Map<number, Span[]>;

interface FieldPostings {
  terms: Map<
    string,
    { docs: Int32Array; posStart?: Int32Array | null; positions?: Int32Array | null }
  >;
}

function termSpans(
  f: FieldPostings | undefined,
  test: (t: string) => boolean,
  exact?: string,
): Spans {
  const out: Spans = new Map();
  if (!f) return out;
  const add = (
    p: { docs: Int32Array; posStart?: Int32Array | null; positions?: Int32Array | null },
  ) => {
    if (!p.positions || !p.posStart) return;
    for (let i = 0; i < p.docs.length; i++) {
      const doc = p.docs[i]!;
      let list = out.get(doc);
      if (!list) out.set(doc, list = []);
      for (let k = p.posStart[i]!; k < p.posStart[i + 1]!; k++) {
        const pos = p.positions[k]!;
        list.push([pos, pos + 1]);
      }
    }
  };
  if (exact !== undefined) {
    const p = f.terms.get(exact);
    if (p) add(p);
  } else for (const [t, p] of f.terms) if (test(t)) add(p);
  for (const list of out.values()) list.sort(byStart);
  return out;
}

function byStart(a: Span, b: Span): number {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * Near spans in order as Lucene finds them, each sub-list read once (position order): every span
 * of the first clause is stretched to the next spans starting after the previous end. A window
 * matches when the gaps between its spans add up to at most `slop`.
 */
function nearInOrder(lists: Span[][], slop: number): Span[] {
  const out: Span[] = [];
  const cursors = new Int32Array(lists.length);
  for (const first of lists[0]!) {
    let prevEnd = first[1];
    let gaps = 0;
    let end = first[1];
    for (let k = 1; k < lists.length; k++) {
      const list = lists[k]!;
      let c = cursors[k]!;
      while (c < list.length && list[c]![0] < prevEnd) c++;
      cursors[k] = c;
      if (c === list.length) return dedupe(out);
      gaps += list[c]![0] - prevEnd;
      prevEnd = end = list[c]![1];
    }
    if (gaps <= slop) out.push([first[0], end]);
  }
  return dedupe(out);
}

/**
 * Near spans in any order as Lucene finds them, each sub-list read once (position order): a
 * window over one span of each clause slides by advancing the one that starts first. A window
 * matches when the gaps between its spans add up to at most `slop`.
 */
function nearAnyOrder(lists: Span[][], slop: number): Span[] {
  const out: Span[] = [];
  const cursors = new Int32Array(lists.length);
  for (;;) {
    let min = 0;
    let maxEnd = -Infinity;
    let width = 0;
    for (let k = 0; k < lists.length; k++) {
      const s = lists[k]![cursors[k]!]!;
      if (byStart(s, lists[min]![cursors[min]!]!) < 0) min = k;
      maxEnd = Math.max(maxEnd, s[1]);
      width += s[1] - s[0];
    }
    const start = lists[min]![cursors[min]!]![0];
    if (maxEnd - start - width <= slop) out.push([start, maxEnd]);
    if (++cursors[min]! === lists[min]!.length) return dedupe(out);
  }
}

/** Sorted, each span once. */
function dedupe(spans: Span[]): Span[] {
  spans.sort(byStart);
  return spans.filter((s, i) => i === 0 || byStart(s, spans[i - 1]!) !== 0);
}

/** The big spans holding a little one (sorted inputs; a sparse table of the little ends). */
function containing(bigs: Span[], littles: Span[]): Span[] {
  if (littles.length === 0) return [];
  const levels: Int32Array[] = [Int32Array.from(littles, (l) => l[1])];
  for (let w = 1; 2 * w <= littles.length; w *= 2) {
    const prev = levels[levels.length - 1]!;
    const next = new Int32Array(littles.length - 2 * w + 1);
    for (let i = 0; i < next.length; i++) next[i] = Math.min(prev[i]!, prev[i + w]!);
    levels.push(next);
  }
  const minEnd = (lo: number, hi: number) => {
    const level = 31 - Math.clz32(hi - lo);
    return Math.min(levels[level]![lo]!, levels[level]![hi - (1 << level)]!);
  };
  const firstStart = (v: number) => {
    let lo = 0;
    let hi = littles.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (littles[mid]![0] < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return bigs.filter((b) => {
    const lo = firstStart(b[0]);
    const hi = firstStart(b[1] + 1);
    return hi > lo && minEnd(lo, hi) <= b[1];
  });
}

/** The little spans inside a big one (both sorted by start: a running maximum of big ends). */
function within(bigs: Span[], littles: Span[]): Span[] {
  let b = 0;
  let maxEnd = -Infinity;
  return littles.filter((l) => {
    while (b < bigs.length && bigs[b]![0] <= l[0]) maxEnd = Math.max(maxEnd, bigs[b++]![1]);
    return maxEnd >= l[1];
  });
}

/** The include spans no exclude span comes near (`pre` before, `post` after). */
function notNear(include: Span[], exclude: Span[], pre: number, post: number): Span[] {
  // Excludes by start with a running maximum of their ends: those starting before s[1] + post
  // are a prefix, and one of them hits when the largest end passes s[0] - pre.
  const sorted = [...exclude].sort(byStart);
  const maxEnd = new Float64Array(sorted.length);
  sorted.forEach((e, i) => (maxEnd[i] = Math.max(i > 0 ? maxEnd[i - 1]! : -Infinity, e[1])));
  return include.filter((s) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]![0] < s[1] + post) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 || maxEnd[lo - 1]! <= s[0] - pre;
  });
}

function spansOf(n: SpanNode, fields: Map<string, FieldPostings>): Spans {
  switch (n.kind) {
    case "term":
      return termSpans(fields.get(n.field), () => false, n.term);
    case "multi":
      return termSpans(fields.get(n.field), n.test);
    case "or": {
      const out: Spans = new Map();
      for (const c of n.clauses) {
        for (const [doc, list] of spansOf(c, fields)) {
          out.set(doc, [...(out.get(doc) ?? []), ...list]);
        }
      }
      for (const list of out.values()) list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      return out;
    }
    case "near": {
      const parts = n.clauses.map((c) => spansOf(c, fields));
      const out: Spans = new Map();
      for (const [doc, first] of parts[0]!) {
        const lists = [first, ...parts.slice(1).map((p) => p.get(doc) ?? [])];
        if (lists.some((l) => l.length === 0)) continue;
        const found = n.inOrder ? nearInOrder(lists, n.slop) : nearAnyOrder(lists, n.slop);
        if (found.length) out.set(doc, found);
      }
      return out;
    }
    case "not": {
      const inc = spansOf(n.include, fields);
      const exc = spansOf(n.exclude, fields);
      const out: Spans = new Map();
      for (const [doc, list] of inc) {
        const kept = notNear(list, exc.get(doc) ?? [], n.pre, n.post);
        if (kept.length) out.set(doc, kept);
      }
      return out;
    }
    case "first": {
      const out: Spans = new Map();
      for (const [doc, list] of spansOf(n.match, fields)) {
        const kept = list.filter((s) => s[1] <= n.end);
        if (kept.length) out.set(doc, kept);
      }
      return out;
    }
    case "containing":
    case "within": {
      const big = spansOf(n.big, fields);
      const little = spansOf(n.little, fields);
      const out: Spans = new Map();
      for (const [doc, bigs] of big) {
        const ls = little.get(doc) ?? [];
        const kept = n.kind === "containing" ? containing(bigs, ls) : within(bigs, ls);
        if (kept.length) out.set(doc, kept);
      }
      return out;
    }
  }
}

function exactTerms(n: SpanNode): string[] {
  switch (n.kind) {
    case "term":
      return [n.term];
    case "multi":
      return [];
    case "near":
    case "or":
      return n.clauses.flatMap(exactTerms);
    case "not":
      return exactTerms(n.include);
    case "first":
      return exactTerms(n.match);
    default:
      return exactTerms(n.big);
  }
}

/** Runs a span query: docs with at least one span, scored over their span count. */
export function runSpan(span: SpanNode, boost: number, ctx: ExecContext, scoring: Scoring): Hits {
  const field = fieldOf(span);
  const info = ctx.fields.byPath.get(field);
  if (!info) return NO_HITS;
  if (info.kind !== "text") {
    throw illegalArgument(
      `field:[${field}] was indexed without position data; cannot run SpanTermQuery`,
    );
  }
  const stats = ctx.snapshot.fieldStats(field);
  let idfSum = 0;
  for (const t of exactTerms(span)) {
    idfSum = Math.fround(idfSum + idf(stats.docCount, ctx.snapshot.docFreq(field, t)));
  }
  const scorer = new TermScorer(ctx, idfSum || 1, boost, stats.avgLength);
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(field);
    const spans = spansOf(span, v.segment.fields as unknown as Map<string, FieldPostings>);
    const docs = [...spans.keys()].sort((a, b) => a - b);
    if (!f || docs.length === 0) return NO_HITS;
    const scores = scoring === "score"
      ? Float64Array.from(
        docs,
        (d) => scorer.score(spans.get(d)!.length, f.norms ? f.norms[d]! : 1),
      )
      : null;
    return { docs: Int32Array.from(docs), scores };
  });
}
