// Running span queries (parsed in span_parser.ts): each clause yields, per doc, its spans
// [start, end) over token positions of one text field; a doc matches when the top clause has a span. Scored with BM25 over the number of
// spans and the idf of the terms involved.

import { illegalArgument } from "../_errors.ts";
import { idf, TermScorer } from "./bm25.ts";
import { NO_HITS } from "./doc_set.ts";
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
  for (const list of out.values()) list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return out;
}

function nearIn(lists: Span[][], slop: number, inOrder: boolean): Span[] {
  const out: Span[] = [];
  const walk = (i: number, chosen: Span[]): void => {
    if (i === lists.length) {
      const start = Math.min(...chosen.map((s) => s[0]));
      const end = Math.max(...chosen.map((s) => s[1]));
      const width = chosen.reduce((a, s) => a + (s[1] - s[0]), 0);
      if (end - start - width <= slop) out.push([start, end]);
      return;
    }
    for (const s of lists[i]!) {
      if (inOrder && i > 0 && s[0] < chosen[i - 1]![1]) continue;
      if (!inOrder && chosen.some((c) => s[0] < c[1] && c[0] < s[1])) continue;
      if (out.length > 10_000) return;
      walk(i + 1, [...chosen, s]);
    }
  };
  walk(0, []);
  const seen = new Set<string>();
  return out.filter((s) => !seen.has(`${s[0]}:${s[1]}`) && !!seen.add(`${s[0]}:${s[1]}`))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
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
        const found = nearIn(lists, n.slop, n.inOrder);
        if (found.length) out.set(doc, found);
      }
      return out;
    }
    case "not": {
      const inc = spansOf(n.include, fields);
      const exc = spansOf(n.exclude, fields);
      const out: Spans = new Map();
      for (const [doc, list] of inc) {
        const ex = exc.get(doc) ?? [];
        const kept = list.filter((s) =>
          !ex.some((e) => e[0] < s[1] + n.post && s[0] - n.pre < e[1])
        );
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
        const inside = (b: Span, l: Span) => b[0] <= l[0] && l[1] <= b[1];
        const kept = n.kind === "containing"
          ? bigs.filter((b) => ls.some((l) => inside(b, l)))
          : ls.filter((l) => bigs.some((b) => inside(b, l)));
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
export function runSpan(span: SpanNode, boost: number, ctx: ExecContext, scoring: boolean): Hits {
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
  const scorer = new TermScorer(ctx, field, idfSum || 1, boost);
  return perSegment(ctx, (v) => {
    const f = v.segment.fields.get(field);
    const spans = spansOf(span, v.segment.fields as unknown as Map<string, FieldPostings>);
    const docs = [...spans.keys()].sort((a, b) => a - b);
    if (!f || docs.length === 0) return NO_HITS;
    const scores = scoring
      ? Float64Array.from(
        docs,
        (d) => scorer.score(spans.get(d)!.length, f.norms ? f.norms[d]! : 1),
      )
      : null;
    return { docs: Int32Array.from(docs), scores };
  });
}
