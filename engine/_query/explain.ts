// Explanation trees as Lucene writes them (`explain: true`, `_explain`): each query node is first
// turned into the Lucene query the real engines build for it (its `toString`, whether it might
// match nested documents, how it explains one document), then that query explains the document.

import { encodeNorm, NORM_TABLE } from "../_index/norms.ts";
import { combinedTermHits } from "./combined_fields.ts";
import { editDistance, maxEdits } from "./fuzzy.ts";
import { ipSpan } from "../_index/ip_address.ts";
import { hashMapOrderBy } from "../_index/java_order.ts";
import { javaDouble, javaFloat } from "../_index/java_numbers.ts";
import { indexOfSorted, lowerBound } from "../_index/sorted_search.ts";
import type { FieldInfo } from "../_index/field_map.ts";
import { float32 } from "./score.ts";
import { idf, TermScorer } from "./bm25.ts";
import type { ExecContext } from "./exec_context.ts";
import { execute } from "./query_exec.ts";
import type { QueryNode } from "./query_nodes.ts";
import { blendedDocFreqs, phraseFreq, resolveMsm } from "./full_text.ts";
import { constantKeyword, numericValueOrNaN, termText } from "./term_queries.ts";
import { rangeBounds } from "./range_query.ts";
import { geoLucene } from "./geo_explain.ts";
import { nestedScope, scopeContext } from "./nested_objects.ts";

/** One node of an explanation, as the real engines print it. */
export interface Explanation {
  /** The score (or factor) this node stands for. */
  readonly value: number;
  /** What Lucene says about it. */
  readonly description: string;
  /** The explanations it is made of. */
  readonly details: Explanation[];
}

interface Ex extends Explanation {
  readonly match: boolean;
  readonly details: Ex[];
}

const yes = (value: number, description: string, details: Ex[] = []): Ex => ({
  match: true,
  value: float32(value),
  description,
  details,
});
const no = (description: string, details: Ex[] = []): Ex => ({
  match: false,
  value: 0,
  description,
  details,
});

/** A Lucene query: how it prints, whether it might match nested docs, how it explains a doc. */
interface Lq {
  readonly str: string;
  readonly nested: boolean;
  /** The query's own `toString` as a clause of a bool (defaults to `str`). */
  readonly clause?: string;
  readonly matchAll?: boolean;
  /** Rewritten to match nothing (a `match_none`). */
  readonly none?: boolean;
  readonly boolean?: BoolLq;
  /** The boost printed around `printBase` in `clause`, when boosted. */
  readonly printBoost?: number;
  readonly printBase?: string;
  /** A BM25 term query's parameters (repeated clauses merge). */
  readonly term?: { field: string; term: string; boost: number };
  /** How the query shows as a filter, explained without scores (a term: `field:term`). */
  readonly filterStr?: string;
  explain(doc: number): Ex;
}

interface BoolLq {
  readonly clauses: readonly { occur: "+" | "#" | "-" | ""; q: Lq }[];
  readonly msm: number;
}

/** What the explanation of one target needs: the context and each doc's Lucene id. */
export interface ExplainScope {
  readonly ctx: ExecContext;
  /** The Lucene doc id of a global ordinal (nested objects take ids before their parent). */
  readonly luceneId: (doc: number) => number;
  /** The Lucene doc id of a document's first nested object (its own id when it has none). */
  readonly firstChildId: (doc: number) => number;
}

interface Build {
  readonly scope: ExplainScope;
  readonly es: boolean;
}

function scoreOf(b: Build, q: QueryNode, doc: number): number | null {
  const hits = execute(q, b.scope.ctx, "score");
  const at = indexOfSorted(hits.docs, doc);
  if (at < 0) return null;
  return hits.scores ? hits.scores[at]! : 1;
}

/** A query that scores its boost on the docs of `q`: Lucene's ConstantScoreWeight. */
function constant(
  b: Build,
  str: string,
  q: QueryNode,
  opts: { boost: number; nested: boolean; clause?: string },
): Lq {
  return {
    str,
    nested: opts.nested,
    clause: opts.clause,
    explain(doc) {
      if (scoreOf(b, { ...q, boost: 1 } as QueryNode, doc) === null) {
        return no(`${str} doesn't match id ${b.scope.luceneId(doc)}`);
      }
      const s = float32(opts.boost);
      return yes(s, s === 1 ? str : `${str}^${javaFloat(s)}`);
    },
  };
}

const f32 = Math.fround;

/** A BM25-scored term: `weight(field:term in id) [PerFieldSimilarity], result of:`. */
function termLq(
  b: Build,
  t: { field: string; term: string; boost: number; /** A blended doc frequency. */ df?: number },
): Lq {
  const { field, term, boost } = t;
  const str = `${field}:${term}`;
  return {
    str,
    term: t,
    nested: nestedField(b, field),
    explain(doc) {
      const ctx = b.scope.ctx;
      const v = ctx.snapshot.viewOf(doc);
      const local = doc - v.base;
      const fi = v.segment.fields.get(field);
      const p = fi?.terms.get(term);
      const at = p ? indexOfSorted(p.docs, local) : -1;
      if (!fi || !p || at < 0) return no("no matching term");
      const freq = p.freqs ? p.freqs[at]! : 1;
      const norm = fi.norms ? fi.norms[local]! : 1;
      const stats = ctx.snapshot.fieldStats(field);
      const n = t.df ?? ctx.snapshot.docFreq(field, term);
      const score = new TermScorer(ctx, idf(stats.docCount, n), boost, stats.avgLength).score(
        freq,
        norm,
      );
      const idfEx = idfExplain(stats.docCount, n);
      return weight(b, {
        str,
        doc,
        score,
        boost,
        idf: idfEx,
        freq: yes(freq, "freq, occurrences of term within document"),
        norm,
        avgdl: stats.avgLength,
      });
    },
  };
}

function idfExplain(docCount: number, n: number): Ex {
  return yes(idf(docCount, n), "idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:", [
    yes(n, "n, number of documents containing term"),
    yes(docCount, "N, total number of documents with field"),
  ]);
}

/** The BM25 tree under `weight(…)`, for a term or a phrase. */
function weight(
  b: Build,
  w: {
    str: string;
    doc: number;
    score: number;
    boost: number;
    idf: Ex;
    freq: Ex;
    norm: number;
    avgdl: number;
    /** CombinedFieldQuery names no similarity. */
    combined?: boolean;
  },
): Ex {
  const K1 = f32(1.2);
  const B = f32(0.75);
  const boost = b.es ? f32(f32(w.boost) * f32(1 + K1)) : f32(w.boost);
  const dl = NORM_TABLE[w.norm]!;
  const avgdl = f32(w.avgdl);
  const normValue = f32(K1 * f32(f32(1 - B) + f32(f32(B * dl) / avgdl)));
  const freq = w.freq.value;
  const tf = f32(freq / (freq + normValue));
  const factors: Ex[] = [];
  if (boost !== 1) factors.push(yes(boost, "boost"));
  factors.push(w.idf);
  factors.push(
    yes(tf, "tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:", [
      w.freq,
      yes(K1, "k1, term saturation parameter"),
      yes(B, "b, length normalization parameter"),
      yes(dl, w.norm > 39 ? "dl, length of field (approximate)" : "dl, length of field"),
      yes(avgdl, "avgdl, average length of field"),
    ]),
  );
  return yes(
    w.score,
    `weight(${w.str} in ${b.scope.luceneId(w.doc)})${
      w.combined ? "" : " [PerFieldSimilarity]"
    }, result of:`,
    [
      yes(
        w.score,
        `score(freq=${javaFloat(freq)}), computed as boost * idf * tf from:`,
        factors,
      ),
    ],
  );
}

/** A phrase: `weight(field:"a b"~slop in id)` with the idf of its terms summed. */
function phraseLq(
  b: Build,
  p: { field: string; positions: string[][]; slop: number; node: QueryNode; boost: number },
): Lq {
  const { field, positions: alternatives, slop, boost } = p;
  const shown = alternatives.map((ts) => ts.length === 1 ? ts[0]! : `(${ts.join(" ")})`);
  const str = `${field}:"${shown.join(" ")}"${slop ? `~${slop}` : ""}`;
  return {
    str,
    nested: true,
    explain(doc) {
      const ctx = b.scope.ctx;
      const v = ctx.snapshot.viewOf(doc);
      const local = doc - v.base;
      const fi = v.segment.fields.get(field);
      const positions = [];
      for (const ts of alternatives) {
        const at: number[] = [];
        for (const t of ts) {
          const p = fi?.terms.get(t);
          const i = p ? indexOfSorted(p.docs, local) : -1;
          if (!p || i < 0 || !p.positions || !p.posStart) continue;
          for (const x of p.positions.subarray(p.posStart[i], p.posStart[i + 1])) at.push(x);
        }
        if (at.length === 0) return no("no matching terms");
        positions.push(Int32Array.from(at).sort());
      }
      const freq = phraseFreq(positions, slop);
      if (freq === 0) return no("no matching phrase");
      const stats = ctx.snapshot.fieldStats(field);
      let idfSum = 0;
      const idfs = alternatives.flat().map((t) => {
        const e = idfExplain(stats.docCount, ctx.snapshot.docFreq(field, t));
        idfSum = f32(idfSum + e.value);
        return e;
      });
      const norm = fi!.norms ? fi!.norms[local]! : 1;
      const score = scoreOf(b, p.node, doc) ?? 0;
      return weight(b, {
        str,
        doc,
        score,
        boost,
        idf: yes(idfSum, "idf, sum of:", idfs),
        freq: yes(freq, `phraseFreq=${javaFloat(freq)}`),
        norm,
        avgdl: stats.avgLength,
      });
    },
  };
}

/** Lucene's BooleanWeight.explain. */
function boolLq(bool: BoolLq): Lq {
  const clauseStr = (c: BoolLq["clauses"][number]) => {
    const s = c.q.clause ?? (c.q.boolean ? `(${c.q.str})` : c.q.str);
    return `${c.occur}${s}`;
  };
  const str = bool.clauses.map(clauseStr).join(" ") +
    (bool.msm > 0 ? `~${bool.msm}` : "");
  const required = bool.clauses.filter((c) => c.occur === "+" || c.occur === "#");
  const nested = required.length
    ? required.every((c) => c.q.nested)
    : bool.clauses.some((c) => c.occur === "" && c.q.nested);
  return {
    str,
    nested,
    boolean: bool,
    explain(doc) {
      const subs: Ex[] = [];
      let fail = false;
      let matchCount = 0;
      let shouldCount = 0;
      let sum = 0;
      for (const c of bool.clauses) {
        const e = c.q.explain(doc);
        const name = c.q.clause ?? c.q.str;
        if (e.match) {
          if (c.occur === "+" || c.occur === "") {
            subs.push(e);
            sum += e.value;
          } else if (c.occur === "#") {
            // A filter clause is explained without scores: a term is just itself, worth 1.
            const shown = filterString(c.q);
            const leaf = shown === undefined ? e : yes(1, shown);
            subs.push(yes(0, "match on required clause, product of:", [yes(0, "# clause"), leaf]));
          } else {
            subs.push(no(`match on prohibited clause (${name})`, [e]));
            fail = true;
          }
          if (c.occur !== "-") matchCount++;
          if (c.occur === "") shouldCount++;
        } else if (c.occur === "+" || c.occur === "#") {
          subs.push(no(`no match on required clause (${name})`, [e]));
          fail = true;
        } else if (c.occur === "") {
          subs.push(no(`no match on optional clause (${name})`, [e]));
        }
      }
      if (fail) return no("Failure to meet condition(s) of required/prohibited clause(s)", subs);
      if (matchCount === 0) return no("No matching clauses", subs);
      if (shouldCount < bool.msm) {
        return no(
          `Failure to match minimum number of optional clauses: ${bool.msm}, matched: ${shouldCount}`,
          subs,
        );
      }
      return yes(sum, "sum of:", subs.filter((s) => s.match));
    },
  };
}

/** Lucene's BooleanQuery.rewrite, the parts that change what an explanation shows. */
function makeBool(b: Build, clauses: BoolLq["clauses"], msm: number): Lq {
  if (msm > clauses.filter((c) => c.occur === "").length) {
    return matchNone("SHOULD clause count less than minimumNumberShouldMatch");
  }
  clauses = mergeRepeated(b, clauses);
  if (clauses.length === 1 && msm === 0 && clauses[0]!.occur === "#") {
    return onlyFilter(b, clauses[0]!.q);
  }
  const scoring = clauses.filter((c) => c.occur === "+" || c.occur === "");
  if (clauses.length === 1 && msm <= (clauses[0]!.occur === "" ? 1 : 0)) {
    const only = clauses[0]!;
    if (only.occur === "+" || only.occur === "") return only.q;
  }
  // One required pure disjunction beside filters: its clauses become the optional ones.
  const must = clauses.filter((c) => c.occur === "+");
  if (msm === 0 && must.length === 1 && scoring.length === 1) {
    const inner = must[0]!.q.clause === undefined ? must[0]!.q.boolean : undefined;
    if (inner && inner.clauses.every((c) => c.occur === "")) {
      return makeBool(b, [
        ...clauses.filter((c) => c.occur !== "+"),
        ...inner.clauses,
      ], Math.max(1, inner.msm));
    }
  }
  // Nested conjunctions of must clauses (not boosted) among the must clauses are inlined, in
  // place, as Lucene's BooleanQuery rewrite does (`+(+a +b) #f` is `+a +b #f`).
  const conjunction = (c: BoolLq["clauses"][number]) =>
    c.occur === "+" && c.q.clause === undefined && c.q.boolean !== undefined &&
    c.q.boolean.msm === 0 && c.q.boolean.clauses.every((i) => i.occur === "+");
  if (clauses.length > 1 && clauses.some(conjunction)) {
    return makeBool(b, clauses.flatMap((c) => conjunction(c) ? c.q.boolean!.clauses : [c]), msm);
  }
  // Nested pure disjunctions (not boosted) among the optional clauses are inlined.
  const pure = (q: Lq) =>
    q.clause === undefined && q.boolean !== undefined && q.boolean.msm <= 1 &&
    q.boolean.clauses.every((c) => c.occur === "");
  if (msm <= 1 && clauses.some((c) => c.occur === "" && pure(c.q))) {
    return boolLq({
      clauses: clauses.flatMap((c) => c.occur === "" && pure(c.q) ? c.q.boolean!.clauses : [c]),
      msm,
    });
  }
  return boolLq({ clauses, msm });
}

/** A term's string as a filter shows it (its non-scoring explanation), else undefined. */
function filterString(q: Lq): string | undefined {
  return q.filterStr ?? (q.term !== undefined && q.clause === undefined ? q.str : undefined);
}

/**
 * A `bool` holding a single filter, as Lucene rewrites it: a constant score of the clause with
 * boost 0, whatever the bool's own boost (Elasticsearch 9.5.4 and OpenSearch 3.8.0 explain
 * `ConstantScore(k:a)^0.0`).
 */
function onlyFilter(b: Build, q: Lq): Lq {
  const inner = `ConstantScore(${filterString(q) ?? q.clause ?? q.str})`;
  return {
    str: `${inner}^0.0`,
    nested: q.nested,
    explain(doc) {
      const e = q.explain(doc);
      return e.match
        ? yes(0, `${inner}^0.0`)
        : no(`${inner} doesn't match id ${b.scope.luceneId(doc)}`);
    },
  };
}

/** Lucene merges repeated scoring term clauses into one, their boosts summed. */
function mergeRepeated(b: Build, clauses: BoolLq["clauses"]): BoolLq["clauses"] {
  const out: Array<BoolLq["clauses"][number]> = [];
  const at = new Map<string, number>();
  const counts: number[] = [];
  for (const c of clauses) {
    const t = c.q.term;
    const key = t && c.q.clause === undefined && (c.occur === "" || c.occur === "+")
      ? `${c.occur}${t.field}\u0000${t.term}\u0000${t.boost}`
      : undefined;
    const seen = key === undefined ? undefined : at.get(key);
    if (seen !== undefined) {
      counts[seen]!++;
      continue;
    }
    if (key !== undefined) at.set(key, out.length);
    counts.push(1);
    out.push(c);
  }
  return out.map((c, i) => {
    const n = counts[i]!;
    if (n === 1) return c;
    const t = c.q.term!;
    return { occur: c.occur, q: boosted(termLq(b, { ...t, boost: t.boost * n }), n) };
  });
}

function disMaxLq(queries: Lq[], tie: number): Lq {
  const t = f32(tie);
  return {
    str: `(${queries.map((q) => q.clause ?? q.str).join(" | ")})${t ? `~${javaFloat(t)}` : ""}`,
    nested: true,
    explain(doc) {
      const subs = queries.map((q) => q.explain(doc));
      const hits = subs.filter((s) => s.match);
      if (!hits.length) return no("No matching clause", subs);
      let max = 0;
      let others = 0;
      for (const s of hits) {
        if (s.value >= max) {
          others += max;
          max = s.value;
        } else others += s.value;
      }
      return yes(
        f32(max + others * t),
        t === 0 ? "max of:" : `max plus ${javaFloat(t)} times others of:`,
        hits,
      );
    },
  };
}

/** An unmodelled query: the engine's score, described by its kind. */
function opaque(b: Build, q: QueryNode): Lq {
  return {
    str: q.kind,
    nested: true,
    explain(doc) {
      const s = scoreOf(b, q, doc);
      return s === null
        ? no(`${q.kind} doesn't match id ${b.scope.luceneId(doc)}`)
        : yes(s, q.kind);
    },
  };
}

function nestedField(b: Build, field: string): boolean {
  return field.startsWith("_") || b.scope.ctx.fields.full.nestedPathOf(field) !== "";
}

/** Java's `Long.toString`/`Integer.toString`/`Double.toString` of a point bound. */
function pointBound(
  info: FieldInfo,
  v: number | bigint,
  how: { side: "lower" | "upper"; opensearch?: boolean },
): string {
  const opensearch = how.opensearch === true;
  const t = info.type;
  if (info.kind === "date" || t === "long" || t === "unsigned_long") {
    if (typeof v === "bigint") return String(v);
    if (v === Infinity || v >= 2 ** 63) return "9223372036854775807";
    if (v === -Infinity || v < -(2 ** 63)) return "-9223372036854775808";
    return String(Math.round(v));
  }
  if (info.integer) {
    const n = Number(v);
    if (n >= 2147483647) return "2147483647";
    if (n <= -2147483648) return "-2147483648";
    return String(n);
  }
  const n = Number(v);
  if (t === "half_float") {
    // OpenSearch prints the half float itself, Elasticsearch its sortable short.
    return opensearch
      ? javaFloat(halfSortable(n, how.side, { value: true }))
      : String(halfSortable(n, how.side));
  }
  if (!opensearch) return t === "float" ? String(sortableFloat(n)) : String(sortableDouble(n));
  return t === "float" ? javaFloat(n) : javaDouble(n);
}

/** Lucene's NumericUtils.floatToSortableInt. */
function sortableFloat(n: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, n);
  const bits = view.getInt32(0);
  return bits < 0 ? bits ^ 0x7fffffff : bits;
}

/** Lucene's NumericUtils.doubleToSortableLong. */
function sortableDouble(n: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  const bits = view.getBigInt64(0);
  return bits < 0n ? bits ^ 0x7fffffffffffffffn : bits;
}

/** The next float or double above (`dir` 1) or below (-1) `n`, as Math.nextUp/nextDown. */
function nextFloat(n: number, dir: 1 | -1, type: "float" | "double"): number {
  const single = type === "float";
  if (Number.isNaN(n) || n === dir * Infinity) return n;
  if (n === 0) return dir * (single ? 2 ** -149 : Number.MIN_VALUE);
  if (single) {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, n);
    view.setInt32(0, view.getInt32(0) + ((n > 0) === (dir > 0) ? 1 : -1));
    return view.getFloat32(0);
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  view.setBigInt64(0, view.getBigInt64(0) + ((n > 0) === (dir > 0) ? 1n : -1n));
  return view.getFloat64(0);
}

/** A float or double range's bounds as Elasticsearch builds them: exclusive ones a step inside. */
function floatBounds(
  q: Extract<QueryNode, { kind: "range" }>,
  type: "float" | "double",
): { lo: number; hi: number } {
  const v = (x: unknown) => type === "float" ? Math.fround(Number(x)) : Number(x);
  const lo = q.gte !== undefined
    ? v(q.gte)
    : q.gt !== undefined
    ? nextFloat(v(q.gt), 1, type)
    : -Infinity;
  const hi = q.lte !== undefined
    ? v(q.lte)
    : q.lt !== undefined
    ? nextFloat(v(q.lt), -1, type)
    : Infinity;
  return { lo, hi };
}

/**
 * A half float bound as Lucene's HalfFloatPoint prints it (its sortable short): a lower bound
 * rounds up to the next half, an upper bound down.
 */
function halfSortable(
  n: number,
  side: "lower" | "upper",
  how?: { value: boolean },
): number {
  const up = side === "upper";
  if (n === Infinity) return how?.value ? Infinity : 0x7c00;
  if (n === -Infinity) return how?.value ? -Infinity : (0xfc00 ^ 0x7fff) - 0x10000;
  const abs = Math.abs(n);
  let bits: number;
  if (abs >= 65520) bits = 0x7c00;
  else if (abs < 2 ** -14) bits = Math.round(abs / 2 ** -24);
  else {
    const e = Math.floor(Math.log2(abs));
    const m = Math.round((abs / 2 ** e - 1) * 1024);
    bits = m === 1024 ? ((e + 16) << 10) : ((e + 15) << 10) | m;
  }
  const negative = n < 0;
  const signed = (x: number) => negative ? -halfValue(x) : halfValue(x);
  // A lower bound (up = false) must not fall below n, an upper one not above it.
  if (!up && signed(bits) < n) bits += negative ? -1 : 1;
  if (up && signed(bits) > n) bits += negative ? 1 : -1;
  if (how?.value) return bits >= 0x7c00 ? (negative ? -Infinity : Infinity) : signed(bits);
  const h = (negative ? 0x8000 : 0) | bits;
  return negative ? (h ^ 0x7fff) - 0x10000 : h;
}

function halfValue(bits: number): number {
  const e = bits >> 10;
  const m = bits & 1023;
  return e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15);
}

function ipBytes(n: bigint): string {
  const out: string[] = [];
  for (let i = 15; i >= 0; i--) out.push(((n >> BigInt(i * 8)) & 255n).toString(16));
  return `[${out.join(" ")}]`;
}

/** `_id` terms as Elasticsearch encodes them (Uid.encodeId), printed as Lucene's BytesRef. */
function idBytes(id: string): string {
  const hex = (bytes: number[]) => `[${bytes.map((x) => x.toString(16)).join(" ")}]`;
  if (/^(0|[1-9][0-9]*)$/.test(id)) {
    const out = [0xfe];
    for (let i = 0; i < id.length; i += 2) {
      const hi = id.charCodeAt(i) - 48;
      const lo = i + 1 < id.length ? id.charCodeAt(i + 1) - 48 : 15;
      out.push((hi << 4) | lo);
    }
    return hex(out);
  }
  return hex([0xff, ...new TextEncoder().encode(id)]);
}

function toLucene(b: Build, q: QueryNode, boost: number): Lq {
  const lq = luceneOf(b, q, boost);
  const own = (q as { boost?: number }).boost ?? 1;
  // A boost other than 1 wraps the query in Lucene's BoostQuery: `(query)^2.0` to its parents.
  if (own === 1 || lq.none || lq.matchAll) return lq;
  return boosted(lq, own);
}

/** Per-field boosts of multi_match and query_string print as BoostQuery too. */
function boosted(lq: Lq, boost: number): Lq {
  if (f32(boost) === 1) return lq;
  // A boost of a boost is one boost, their product (Lucene's BoostQuery.rewrite).
  const total = f32((lq.printBoost ?? 1) * boost);
  const base = lq.printBase ?? lq.clause ?? lq.str;
  return { ...lq, clause: `(${base})^${javaFloat(total)}`, printBase: base, printBoost: total };
}

function luceneOf(b: Build, q: QueryNode, boost: number): Lq {
  switch (q.kind) {
    case "match_all":
      return {
        str: "*:*",
        nested: true,
        matchAll: true,
        explain: () => {
          const s = f32(boost * q.boost);
          return yes(s, s === 1 ? "*:*" : `*:*^${javaFloat(s)}`);
        },
      };
    case "match_none":
      return matchNone('User requested "match_none" query.');
    case "bool":
      return boolQueryLq(b, q, boost);
    case "constant_score": {
      const inner = toLucene(b, q.filter, 0);
      const name = inner.clause ?? inner.str;
      // Lucene's ConstantScoreQuery.rewrite keeps one level of ConstantScore.
      const str = name.startsWith("ConstantScore(") ? name : `ConstantScore(${name})`;
      return constant(b, str, q, { boost: boost * q.boost, nested: inner.nested });
    }
    case "dis_max":
      return disMaxLq(q.queries.map((c) => toLucene(b, c, boost * q.boost)), q.tieBreaker);
    case "term":
    case "match":
    case "match_phrase":
      return fieldQuery(b, q, boost);
    case "terms":
      return termsLq(b, q, boost);
    case "ids":
      return idsLq(b, q, boost);
    case "exists": {
      const str = `ConstantScore(FieldExistsQuery [field=${q.field}])`;
      return constant(b, str, q, { boost: boost * q.boost, nested: true });
    }
    case "prefix":
      return constant(b, `${q.field}:${q.value}*`, q, { boost: boost * q.boost, nested: true });
    case "wildcard":
      return constant(b, `${q.field}:${q.value}`, q, { boost: boost * q.boost, nested: true });
    case "regexp":
      return constant(b, `${q.field}:/${q.value}/`, q, { boost: boost * q.boost, nested: true });
    case "range":
      return rangeLq(b, q, boost);
    case "nested":
      return nestedLq(b, q, boost);
    case "multi_match":
      return multiMatchLq(b, q, boost);
    case "geo": {
      const lucene = q.shape && geoLucene({ field: q.field, shape: q.shape, es: b.es });
      if (!lucene) return { ...opaque(b, q), nested: false };
      return constant(b, lucene.str, q, {
        boost: boost * q.boost,
        nested: false,
        ...(lucene.clause ? { clause: lucene.clause } : {}),
      });
    }
    default:
      return opaque(b, q);
  }
}

/** A bool query as Lucene's BooleanQuery; a required clause matching nothing makes it nothing. */
function boolQueryLq(b: Build, q: Extract<QueryNode, { kind: "bool" }>, boost: number): Lq {
  const bb = boost * q.boost;
  const clauses: Array<BoolLq["clauses"][number]> = [
    ...q.must.map((c) => ({ occur: "+" as const, q: toLucene(b, c, bb) })),
    ...q.should.map((c) => ({ occur: "" as const, q: toLucene(b, c, bb) })),
    ...q.mustNot.map((c) => ({ occur: "-" as const, q: toLucene(b, c, bb) })),
    ...q.filter.map((c) => ({ occur: "#" as const, q: toLucene(b, c, bb) })),
  ];
  const hasRequired = q.must.length + q.filter.length > 0;
  if (clauses.some((c) => (c.occur === "+" || c.occur === "#") && c.q.none)) {
    return matchNone(
      b.es
        ? 'The "bool" query was rewritten to a "match_none" query.'
        : 'User requested "match_none" query.',
    );
  }
  const msm = resolveMsm(q.minimumShouldMatch, q.should.length, 0);
  if (clauses.length === 0) return toLucene(b, { kind: "match_all", boost: 1 }, bb);
  if (!hasRequired && q.should.length === 0) {
    clauses.unshift({ occur: "+", q: toLucene(b, { kind: "match_all", boost: 1 }, bb) });
  }
  return makeBool(b, clauses, msm);
}

/**
 * A terms query as Elasticsearch rewrites it: `_id` terms as ids, integers as a point set,
 * keywords as a term set; other fields stay opaque.
 */
function termsLq(b: Build, q: Extract<QueryNode, { kind: "terms" }>, boost: number): Lq {
  const ctx = b.scope.ctx;
  const info = ctx.fields.byPath.get(q.field);
  if (q.field === "_id") return idsLq(b, q, boost);
  if (info && info.kind === "number" && info.integer) {
    const values = [
      ...new Set(q.values.map((v) => numericValueOrNaN(info, v, ctx))),
    ].filter((v) => typeof v === "bigint" || !Number.isNaN(v))
      .sort((x, y) => x < y ? -1 : x > y ? 1 : 0)
      .map((v) => pointBound(info, v, { side: "lower" }));
    const points = `${q.field}:{${values.join(" ")}}`;
    const docValues = `${q.field}: [${values.join(", ")}]`;
    // Elasticsearch prints the point set; OpenSearch's index-or-doc-values query explains
    // by its doc-values side.
    return constant(b, b.es ? points : docValues, q, {
      boost: boost * q.boost,
      nested: true,
      ...(b.es ? {} : {
        clause: `IndexOrDocValuesQuery(indexQuery=${points}, dvQuery=${docValues})`,
      }),
    });
  }
  if (!info || info.kind === "number" || info.kind === "date") return opaque(b, q);
  const terms = [...new Set(q.values.map((v) => termText(info, v)))].sort();
  return constant(b, `${q.field}:(${terms.join(" ")})`, q, {
    boost: boost * q.boost,
    nested: nestedField(b, q.field),
  });
}

/** `_id` terms, encoded and printed as Lucene's BytesRef set. */
function idsLq(
  b: Build,
  q: Extract<QueryNode, { kind: "terms" | "ids" }>,
  boost: number,
): Lq {
  const ids = [...new Set(q.values.map((v) => idBytes(String(v))))].sort();
  return constant(b, `_id:(${ids.join(" ")})`, q, { boost: boost * q.boost, nested: true });
}

/**
 * A range query as a point range, rewritten as the engines rewrite it against the shard's values
 * (none: `match_none`; all of a date field's: `exists`).
 */
function rangeLq(b: Build, q: Extract<QueryNode, { kind: "range" }>, boost: number): Lq {
  const ctx = b.scope.ctx;
  const info = ctx.fields.byPath.get(q.field);
  const bounds = info ? rangeBounds(q, ctx) : null;
  if (!info || !bounds) return opaque(b, q);
  const exact = info.type === "float" || info.type === "half_float" ||
      info.type === "double"
    ? floatBounds(q, info.type === "double" ? "double" : "float")
    : bounds;
  const os = !b.es;
  const inner = `${q.field}:[${pointBound(info, exact.lo, { side: "lower", opensearch: os })} TO ${
    pointBound(info, exact.hi, { side: "upper", opensearch: os })
  }]`;
  // Elasticsearch's point range holding none of the shard's values matches nothing.
  if (
    b.es && info.kind === "number" &&
    pointRelation(b, info.path, exact.lo, exact.hi) === "disjoint"
  ) {
    return matchNone("");
  }
  if (info.kind === "date") {
    const relation = pointRelation(b, info.path, bounds.lo, bounds.hi);
    if (relation === "disjoint") {
      return matchNone(
        b.es
          ? 'The "range" query was rewritten to a "match_none" query.'
          : 'User requested "match_none" query.',
      );
    }
    if (relation === "within") {
      return constant(b, `ConstantScore(FieldExistsQuery [field=${q.field}])`, q, {
        boost: boost * q.boost,
        nested: true,
      });
    }
  }
  const withNow = info.kind === "date" &&
    [q.gt, q.gte, q.lt, q.lte].some((v) => typeof v === "string" && v.includes("now"));
  if (b.es) {
    return constant(b, inner, q, {
      boost: boost * q.boost,
      nested: withNow,
      clause: `IndexOrDocValuesQuery(indexQuery=${inner}, dvQuery=${inner})`,
    });
  }
  return constant(b, withNow ? inner : `Approximate(${inner})`, q, {
    boost: boost * q.boost,
    nested: withNow,
    ...(withNow ? { clause: `IndexOrDocValuesQuery(indexQuery=${inner}, dvQuery=${inner})` } : {}),
  });
}

function matchNone(reason: string): Lq {
  return {
    str: `MatchNoDocsQuery("${reason}")`,
    nested: false,
    none: true,
    explain: () => no(reason),
  };
}

/**
 * How a date range relates to the values of the shard: Elasticsearch and OpenSearch rewrite one
 * that holds them all to an `exists` query and one that holds none to `match_none`.
 */
function pointRelation(
  b: Build,
  field: string,
  lo: number | bigint,
  hi: number | bigint,
): "within" | "disjoint" | "intersects" {
  let min = Infinity;
  let max = -Infinity;
  for (const v of b.scope.ctx.snapshot.views) {
    const values = v.segment.fields.get(field)?.pointValues;
    if (!values || values.length === 0) continue;
    min = Math.min(min, values[0]!);
    max = Math.max(max, values[values.length - 1]!);
  }
  if (min > max || Number(hi) < min || Number(lo) > max) return "disjoint";
  return Number(lo) <= min && max <= Number(hi) ? "within" : "intersects";
}

const SCORE_MODES = { none: "None", avg: "Avg", max: "Max", sum: "Total", min: "Min" } as const;

/** Lucene's ToParentBlockJoinQuery: the best matching child explains the parent. */
function nestedLq(b: Build, q: Extract<QueryNode, { kind: "nested" }>, boost: number): Lq {
  const ctx = b.scope.ctx;
  if (!ctx.fields.nested.has(q.path)) return { ...opaque(b, q), nested: false };
  const scope = nestedScope(ctx, q.path);
  const objects = scopeContext(ctx, scope, q.path);
  return {
    str: `ToParentBlockJoinQuery (${q.path})`,
    nested: false,
    explain(doc) {
      const score = scoreOf(b, q, doc);
      if (score === null) return no("Not a match");
      const parentId = b.scope.luceneId(doc);
      const first = lowerBound(scope.parent, doc);
      let last = first;
      while (last < scope.parent.length && scope.parent[last] === doc) last++;
      const start = b.scope.firstChildId(doc);
      const inner: Build = {
        es: b.es,
        scope: {
          ctx: objects,
          luceneId: (child) => start + child - first,
          firstChildId: () => start,
        },
      };
      const name = toLucene(inner, q.query, 1).str;
      const child = q.scoreMode === "none"
        ? constant(
          inner,
          name.startsWith("ConstantScore(") ? name : `ConstantScore(${name})`,
          q.query,
          {
            boost: 0,
            nested: false,
          },
        )
        : toLucene(inner, q.query, boost * q.boost);
      let best: Ex | null = null;
      let matches = 0;
      for (let c = first; c < last; c++) {
        const e = child.explain(c);
        if (!e.match) continue;
        matches++;
        if (!best || e.value > best.value) best = e;
      }
      return yes(
        score,
        `Score based on ${matches} child docs in range from ${start} to ${
          parentId - 1
        }, using score mode ${SCORE_MODES[q.scoreMode]}`,
        best ? [best] : [],
      );
    },
  };
}

/** `combined_fields`: one CombinedFieldQuery (BM25F) per term. */
function combinedLq(
  b: Build,
  q: Extract<QueryNode, { kind: "multi_match" }>,
  all: { field: string; boost: number }[],
  boost: number,
): Lq {
  const ctx = b.scope.ctx;
  const text = all.filter((f) => ctx.fields.byPath.get(f.field)?.kind === "text")
    .map((f) => ({ field: f.field, boost: Math.max(1, f.boost) }))
    .sort((x, y) => x.field < y.field ? -1 : x.field > y.field ? 1 : 0);
  const first = text[0] && ctx.fields.byPath.get(text[0].field);
  if (!first || q.analyzer) return opaque(b, q);
  const analyzed = first.searchAnalyzer(String(q.query)).map((t) => t.term);
  const terms = [...new Set(analyzed)];
  if (!terms.length) return opaque(b, q);
  const names = text.map((f) => f.boost === 1 ? f.field : `${f.field}^${javaFloat(f.boost)}`);
  const per = terms.map((term): Lq => {
    const str = `CombinedFieldQuery((${names.join(" ")})(${term}))`;
    const times = analyzed.filter((x) => x === term).length;
    return boosted(combinedTermLq(b, { str, text, term, boost: boost * times }), times);
  });
  if (per.length === 1) return { ...per[0]!, nested: true };
  return { ...termsBool(b, per, { ...q, andMinimum: 0 }), nested: true };
}

/** One term of `combined_fields`: Lucene's CombinedFieldQuery. */
function combinedTermLq(
  b: Build,
  c: { str: string; text: { field: string; boost: number }[]; term: string; boost: number },
): Lq {
  const ctx = b.scope.ctx;
  const { str, text, term, boost } = c;
  return {
    str,
    nested: true,
    explain(doc) {
      const v = ctx.snapshot.viewOf(doc);
      const local = doc - v.base;
      let freq = 0;
      let length = 0;
      for (const { field, boost: w } of text) {
        const fi = v.segment.fields.get(field);
        const p = fi?.terms.get(term);
        const at = p ? indexOfSorted(p.docs, local) : -1;
        if (p && at >= 0) freq += w * (p.freqs ? p.freqs[at]! : 1);
        if (fi?.norms) length = f32(length + w * NORM_TABLE[fi.norms[local]!]!);
      }
      if (freq === 0) return no("no matching term");
      let docCount = 0;
      let sumLengths = 0;
      let docFreq = 0;
      for (const { field, boost: w } of text) {
        const stats = ctx.snapshot.fieldStats(field);
        docCount = Math.max(docCount, stats.docCount);
        sumLengths += w * Math.round(stats.avgLength * stats.docCount);
        docFreq = Math.max(docFreq, ctx.snapshot.docFreq(field, term));
      }
      const hits = combinedTermHits(ctx, text, { term, boost }, "score");
      const i = indexOfSorted(hits.docs, doc);
      const f = f32(freq);
      return weight(b, {
        str,
        doc,
        score: i >= 0 && hits.scores ? hits.scores[i]! : 0,
        boost,
        idf: idfExplain(docCount, docFreq),
        freq: yes(f, `termFreq=${javaFloat(f)}`),
        norm: encodeNorm(Math.round(length)),
        avgdl: docCount ? Math.floor(sumLengths) / docCount : 1,
        combined: true,
      });
    },
  };
}

/** `multi_match`: per field (best_fields, most_fields, phrase) or per term (cross_fields). */
function multiMatchLq(b: Build, q: Extract<QueryNode, { kind: "multi_match" }>, boost: number): Lq {
  const ctx = b.scope.ctx;
  const fields: { field: string; boost: number }[] = [];
  for (const f of q.fields) {
    if (f.field.includes("*")) return opaque(b, q);
    if (ctx.fields.byPath.has(f.field)) fields.push({ field: f.field, boost: f.boost });
  }
  const bst = boost * q.boost;
  if (q.type === "cross_fields") {
    fields.sort((x, y) => x.field < y.field ? -1 : x.field > y.field ? 1 : 0);
    const text = fields.filter((f) => ctx.fields.byPath.get(f.field)!.kind === "text");
    const first = text[0] && ctx.fields.byPath.get(text[0].field);
    if (!first || q.analyzer) return opaque(b, q);
    const terms = [...new Set(first.searchAnalyzer(String(q.query)).map((t) => t.term))];
    if (!terms.length) return opaque(b, q);
    const per = terms.map((t) => {
      const dfs = blendedDocFreqs(ctx, text.map((f) => f.field), t);
      return text.length === 1
        ? boosted(
          termLq(b, { field: text[0]!.field, term: t, boost: bst * text[0]!.boost }),
          text[0]!.boost,
        )
        : disMaxLq(
          text.map((f, i) =>
            boosted(
              termLq(b, { field: f.field, term: t, boost: bst * f.boost, df: dfs[i] }),
              f.boost,
            )
          ),
          q.tieBreaker,
        );
    });
    if (per.length === 1) return { ...per[0]!, nested: true };
    if (q.operator === "and") return makeBool(b, per.map((p) => ({ occur: "+", q: p })), 0);
    const msm = q.minimumShouldMatch === undefined
      ? 0
      : resolveMsm(q.minimumShouldMatch, per.length, 0);
    return makeBool(b, per.map((p) => ({ occur: "", q: p })), msm);
  }
  if (q.type === "combined_fields") return combinedLq(b, q, fields, bst);
  if (q.type !== "best_fields" && q.type !== "most_fields" && q.type !== "phrase") {
    return opaque(b, q);
  }
  // The order the real engines list the fields in (best_fields: their map's; phrase and
  // most_fields: by name), as observed on Elasticsearch 9.5.4 and OpenSearch 3.8.0.
  const ordered = q.type === "best_fields"
    ? hashMapOrderBy(fields, (f) => f.field)
    : [...fields].sort((x, y) => x.field < y.field ? -1 : x.field > y.field ? 1 : 0);
  const parts = ordered.map((f) =>
    toLucene(
      b,
      q.type === "phrase"
        ? { kind: "match_phrase", field: f.field, query: q.query, slop: 0, boost: f.boost }
        : {
          kind: "match",
          field: f.field,
          query: q.query,
          operator: q.operator,
          minimumShouldMatch: q.minimumShouldMatch,
          boost: f.boost,
          zeroTermsAll: false,
          lenient: q.lenient,
        },
      bst,
    )
  );
  if (parts.length === 0) return opaque(b, q);
  if (parts.length === 1) return parts[0]!;
  if (q.type === "most_fields") {
    // A dis_max with tie_breaker 1 (Elasticsearch's most_fields), rewritten by Lucene to a bool;
    // the root-document filter is decided on the dis_max.
    return { ...makeBool(b, parts.map((p) => ({ occur: "", q: p })), 0), nested: true };
  }
  return disMaxLq(parts, q.tieBreaker);
}

/** A term, match or match_phrase query on one field. */
type FieldQueryNode = Extract<QueryNode, { kind: "term" | "match" | "match_phrase" }>;

/** term, match and match_phrase on one field. */
function fieldQuery(
  b: Build,
  q: FieldQueryNode,
  boost: number,
): Lq {
  const ctx = b.scope.ctx;
  const info = ctx.fields.byPath.get(q.field);
  const bst = boost * q.boost;
  if (!info || q.field.includes("*")) return opaque(b, q);
  const value = q.kind === "term" ? q.value : q.query;
  if (q.kind === "term" && q.caseInsensitive && (info.kind === "keyword" || info.kind === "text")) {
    const str = `CaseInsensitiveTermQuery{${q.field}:${value}}`;
    return constant(b, str, q, { boost: bst, nested: true });
  }
  if (info.kind !== "text") return valueLq(b, q, { info, value, boost: bst });
  if (q.kind === "term") return termLq(b, { field: q.field, term: String(value), boost: bst });
  return analyzedLq(b, q, { info, value, boost: bst });
}

/** A field query's value and boost on one field, as the query reads them. */
interface FieldValue {
  readonly info: FieldInfo;
  readonly value: unknown;
  readonly boost: number;
}

/**
 * A field query on a field that is not analysed: a point of a number or date, an address range,
 * or one term (of a keyword, a boolean, a constant keyword).
 */
function valueLq(
  b: Build,
  q: FieldQueryNode,
  v: FieldValue,
): Lq {
  const ctx = b.scope.ctx;
  const { info, value, boost: bst } = v;
  if (info.kind === "number" || info.kind === "date") {
    const n = numericValueOrNaN(info, value, ctx);
    if (typeof n === "number" && Number.isNaN(n)) return opaque(b, q);
    const bound = pointBound(info, n, { side: "lower" });
    return constant(b, `${q.field}:[${bound} TO ${bound}]`, q, {
      boost: bst,
      nested: b.es ? true : nestedField(b, q.field),
    });
  }
  if (info.type === "ip") {
    try {
      const span = ipSpan(String(value));
      return constant(b, `${q.field}:[${ipBytes(span.from)} TO ${ipBytes(span.to)}]`, q, {
        boost: bst,
        nested: nestedField(b, q.field),
      });
    } catch {
      return opaque(b, q);
    }
  }
  if (q.kind === "match" && (q.prefixLast || q.fuzziness !== undefined)) return opaque(b, q);
  const term = info.kind === "boolean"
    ? (termText(info, value) === "true" ? "T" : "F")
    : termText(info, value);
  const stored = info.kind === "boolean" ? termText(info, value) : term;
  if (constantKeyword(ctx, info)) {
    return {
      ...constant(b, `ConstantScore(${q.field}:${term})`, q, {
        boost: bst,
        nested: nestedField(b, q.field),
      }),
      filterStr: `${q.field}:${term}`,
    };
  }
  const t = termLq(b, { field: q.field, term: stored, boost: bst });
  return {
    ...t,
    str: `${q.field}:${term}`,
    explain: (doc) => relabel(t.explain(doc), stored, term),
  };
}

/**
 * A `match` or `match_phrase` on a text field: its analysed terms as a phrase (or phrase
 * prefix), a fuzzy query, or a bool of term (and last-term prefix) queries.
 */
function analyzedLq(
  b: Build,
  q: Extract<QueryNode, { kind: "match" | "match_phrase" }>,
  v: FieldValue,
): Lq {
  const { info, value, boost: bst } = v;
  const analyzer = info.searchAnalyzer;
  const terms = analyzer(String(value)).map((t) => t.term);
  if (terms.length === 0) return opaque(b, q);
  if (q.kind === "match_phrase") {
    if (q.prefixLast) return phrasePrefixLq(b, { q, terms, boost: bst });
    if (terms.length === 1) return termLq(b, { field: q.field, term: terms[0]!, boost: bst });
    const node = { ...q, boost: bst };
    return phraseLq(b, {
      field: q.field,
      positions: terms.map((t) => [t]),
      slop: q.slop,
      node,
      boost: bst,
    });
  }
  if (q.fuzziness !== undefined) {
    const fuzzy = fuzzyLq(b, { q, terms, boost: bst });
    if (!fuzzy) return opaque(b, q);
    return fuzzy;
  }
  const parts: Lq[] = terms.map((t, i) =>
    q.prefixLast && i === terms.length - 1
      ? constant(b, `${q.field}:${t}*`, {
        kind: "prefix",
        field: q.field,
        value: t,
        boost: 1,
        caseInsensitive: false,
      }, {
        boost: bst,
        nested: true,
      })
      : termLq(b, { field: q.field, term: t, boost: bst })
  );
  if (parts.length === 1) return parts[0]!;
  // Under `and`, a whole-number minimum_should_match is kept on the bool as Lucene prints it.
  const andMinimum = /^\s*[1-9]\d*\s*$/.test(q.minimumShouldMatch ?? "")
    ? Number(q.minimumShouldMatch)
    : 0;
  return termsBool(b, parts, { ...q, andMinimum });
}

/**
 * The per-term queries of a match-like query joined as its `operator` joins them: all required
 * (`and`, with `andMinimum` printed), or optional with the query's `minimum_should_match`.
 */
function termsBool(
  b: Build,
  parts: readonly Lq[],
  how: { operator?: string; minimumShouldMatch?: string; andMinimum: number },
): Lq {
  if (how.operator === "and") {
    return makeBool(b, parts.map((p) => ({ occur: "+", q: p })), how.andMinimum);
  }
  const msm = how.minimumShouldMatch === undefined
    ? 0
    : resolveMsm(how.minimumShouldMatch, parts.length, 0);
  return makeBool(b, parts.map((p) => ({ occur: "", q: p })), msm);
}

/** Elasticsearch's MultiPhrasePrefixQuery, rewritten with the last term's expansions. */
function phrasePrefixLq(
  b: Build,
  p: { q: Extract<QueryNode, { kind: "match_phrase" }>; terms: string[]; boost: number },
): Lq {
  const { q, boost } = p;
  const head = p.terms.slice(0, -1);
  const prefix = p.terms[p.terms.length - 1]!;
  const found = new Set<string>();
  for (const v of b.scope.ctx.snapshot.views) {
    for (const t of v.segment.sortedTerms(q.field)) if (t.startsWith(prefix)) found.add(t);
  }
  let expansions = [...found].sort((x, y) => x < y ? -1 : x > y ? 1 : 0)
    .slice(0, Math.max(1, q.maxExpansions ?? 50));
  if (!b.es) expansions = expansions.reverse();
  if (expansions.length === 0) {
    return matchNone(
      `No terms supplied for org.${
        b.es ? "elasticsearch" : "opensearch"
      }.common.lucene.search.MultiPhrasePrefixQuery`,
    );
  }
  const node = { ...q, boost };
  if (head.length === 0) {
    const parts = expansions.map((t) => termLq(b, { field: q.field, term: t, boost }));
    if (parts.length === 1) return { ...parts[0]!, nested: true };
    return { ...makeBool(b, parts.map((x) => ({ occur: "", q: x })), 0), nested: true };
  }
  return phraseLq(b, {
    field: q.field,
    positions: [...head.map((t) => [t]), expansions],
    slop: q.slop,
    node,
    boost,
  });
}

/**
 * A fuzzy `match` (or `fuzzy` query): each term's expansions, boosted by how close they are, as
 * Lucene's rewritten FuzzyQuery (a single expansion is its term query).
 */
function fuzzyLq(
  b: Build,
  p: { q: Extract<QueryNode, { kind: "match" }>; terms: string[]; boost: number },
): Lq | null {
  const { q, boost } = p;
  const ctx = b.scope.ctx;
  const per: Lq[] = [];
  for (const term of p.terms) {
    const edits = maxEdits(q.fuzziness!, term);
    const prefix = term.slice(0, q.prefixLength ?? 0);
    const found = new Map<string, number>();
    for (const v of ctx.snapshot.views) {
      for (const t of v.segment.sortedTerms(q.field)) {
        if (found.has(t) || !t.startsWith(prefix)) continue;
        const d = edits === 0 ? (t === term ? 0 : 1) : editDistance(
          term,
          t,
          edits,
          (q.transpositions ?? true) ? "transpositions" : "levenshtein",
        );
        if (d <= edits) found.set(t, d);
      }
    }
    // Several expansions blend their statistics in Lucene; only one is modelled here.
    if (found.size !== 1) return null;
    const [t, d] = [...found][0]!;
    const factor = f32(1 - d / Math.max(1, Math.min(t.length, term.length)));
    per.push(boosted(termLq(b, { field: q.field, term: t, boost: boost * factor }), factor));
  }
  const parts = per.map((x) => ({ ...x, nested: true }));
  if (parts.length === 1) return parts[0]!;
  return { ...termsBool(b, parts, { ...q, andMinimum: 0 }), nested: true };
}

function relabel(e: Ex, from: string, to: string): Ex {
  if (from === to) return e;
  return { ...e, description: e.description.replace(`:${from} in `, `:${to} in `) };
}

/**
 * The explanation of `doc` (a global ordinal of the scope's snapshot) under `q`, as the real
 * engine of the context's flavour writes it; `score` is the doc's reported score, when it matched.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { javaFloat } from "../_index/java_numbers.ts";
 * assert.equal(javaFloat(2), "2.0");
 * assert.equal(javaFloat(0.3), "0.3");
 * ```
 */
export function explainDoc(
  q: QueryNode,
  scope: ExplainScope,
  doc: number,
  score?: number,
): Explanation {
  const b: Build = { scope, es: scope.ctx.flavour !== "opensearch" };
  let lq = toLucene(b, q, 1);
  // A query that might match nested documents gets a filter on the root documents.
  if (scope.ctx.fields.full.nested.size > 0 && lq.nested) {
    const filter: Lq = {
      str: "FieldExistsQuery [field=_primary_term]",
      nested: true,
      explain: () => yes(1, "FieldExistsQuery [field=_primary_term]"),
    };
    if (lq.matchAll) {
      const s = f32((q as { boost?: number }).boost ?? 1);
      const str = `ConstantScore(${filter.str})`;
      lq = {
        str,
        nested: true,
        explain: () => yes(s, s === 1 ? str : `${str}^${javaFloat(s)}`),
      };
    } else lq = makeBool(b, [{ occur: "+", q: lq }, { occur: "#", q: filter }], 0);
  }
  const e = lq.explain(doc);
  return strip(e.match && score !== undefined ? { ...e, value: float32(score) } : e);
}

function strip(e: Ex): Explanation {
  return { value: e.value, description: e.description, details: e.details.map(strip) };
}
