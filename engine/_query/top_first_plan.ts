// Which queries can be answered top k first (`max_score.ts`), and how their scores combine: a tree
// of BM25 term clauses under sums (`match`, `bool` shoulds, `most_fields`) and dis_max nodes
// (`best_fields`), each with the boost the exhaustive path multiplies by.

import { isIpText } from "../_index/ip_address.ts";
import { analyzerFor } from "../_index/analysis.ts";
import type { ExecContext } from "./exec_context.ts";
import { resolveMsm } from "./full_text.ts";
import type { BoostedField, QueryNode, QueryOf } from "./query_nodes.ts";
import { constantKeyword, termText } from "./term_queries.ts";
import { MAX_TERMS_COUNT } from "../_index/limits.ts";

/** One optional term: scored by BM25 in its field, its weight times `boost` (> 0). */
export interface TermClause {
  /** Field path (text or keyword). */
  readonly field: string;
  /** The indexed term. */
  readonly term: string;
  /** Score multiplier inside the term's weight, > 0. */
  readonly boost: number;
  /** Scores `boost` wherever the term is present, without BM25 (a `terms` query's values). */
  readonly constant?: boolean;
}

/** Scores of children combined: summed, or the best plus `tieBreaker` × the rest; then × `boost`. */
export interface ScoreNode {
  /** How the children's scores combine. */
  readonly combine: "sum" | "dis_max";
  /** For dis_max: weight of the other matching children, in [0, 1]. */
  readonly tieBreaker: number;
  /** Multiplies the combined score, > 0 (1 = untouched). */
  readonly boost: number;
  /** Term clauses and nested nodes, in the order the exhaustive path adds them. */
  readonly children: readonly (ScoreNode | TermClause)[];
}

/** A query answerable top k first. */
export interface TopFirstPlan {
  /** The scored part. */
  readonly root: ScoreNode;
  /** Non-scoring clauses every hit must match (a `bool`'s filters). */
  readonly filter: readonly QueryNode[];
  /** Every filter doc matches and the scored part only adds to its score (should with msm 0). */
  readonly optional: boolean;
}

/**
 * The plan of `q`, or null when it is not a plain scored disjunction: a `match` on a text field
 * (`or`, one term required, no fuzziness or prefix), a `term` on a text or keyword field, a
 * `multi_match` of type best_fields (tie_breaker in [0, 1]) or most_fields over text and keyword fields,
 * a `terms` on a text or keyword field (constant scores), a `dis_max` of such queries (`query_string`
 * and `simple_query_string` parse into these too), or a `bool` of such shoulds with optional
 * filters (no must or must_not). Boosts must be > 0.
 *
 * @example
 * ```ts
 * import { topFirstPlan } from "./top_first_plan.ts";
 * import { execContextOf } from "./exec_context.ts";
 * import { Shard } from "../_index/shard.ts";
 * const mappings = { properties: { t: { type: "text" } } };
 * const ctx = execContextOf({ index: "i", mappings, snapshot: new Shard().snapshot() } as never, 0);
 * const plan = topFirstPlan({ kind: "match_all", boost: 1 }, ctx);
 * console.assert(plan === null);
 * ```
 */
export function topFirstPlan(q: QueryNode, ctx: ExecContext): TopFirstPlan | null {
  if (q.kind === "bool" && q.filter.length > 0) {
    if (q.must.length || q.mustNot.length || !(q.boost > 0) || !q.should.length) return null;
    const msm = resolveMsm(q.minimumShouldMatch, q.should.length, 0);
    if (msm > 1) return null;
    const children = shouldNodes(q.should, ctx);
    if (!children) return null;
    return {
      root: { combine: "sum", tieBreaker: 0, boost: q.boost, children },
      filter: q.filter,
      optional: msm <= 0,
    };
  }
  const node = scoredNode(q, ctx);
  if (!node) return null;
  const root = "term" in node
    ? { combine: "sum" as const, tieBreaker: 0, boost: 1, children: [node] }
    : node;
  return { root, filter: [], optional: false };
}

function shouldNodes(
  should: readonly QueryNode[],
  ctx: ExecContext,
): (ScoreNode | TermClause)[] | null {
  const out: (ScoreNode | TermClause)[] = [];
  for (const c of should) {
    const n = scoredNode(c, ctx);
    if (!n) return null;
    out.push(n);
  }
  return out;
}

function scoredNode(q: QueryNode, ctx: ExecContext): ScoreNode | TermClause | null {
  switch (q.kind) {
    case "term": {
      if (q.caseInsensitive || !(q.boost > 0) || q.field.includes("*")) return null;
      if (q.field.startsWith("_")) return null;
      const info = ctx.fields.byPath.get(q.field);
      if (!info || (info.kind !== "text" && info.kind !== "keyword")) return null;
      if (info.type === "ip" || constantKeyword(ctx, info)) return null;
      return { field: info.path, term: termText(info, q.value), boost: q.boost };
    }
    case "match":
      if (q.field.includes("*") || q.operator !== "or" || q.prefixLast) return null;
      if (q.fuzziness !== undefined || q.zeroTermsAll) return null;
      return fieldNode(ctx, q, q);
    case "multi_match":
      return multiMatchNode(q, ctx);
    case "terms":
      return termsNode(q, ctx);
    case "dis_max": {
      if (!(q.boost > 0) || !(q.tieBreaker >= 0 && q.tieBreaker <= 1) || !q.queries.length) {
        return null;
      }
      const children = shouldNodes(q.queries, ctx);
      return children &&
        { combine: "dis_max", tieBreaker: q.tieBreaker, boost: q.boost, children };
    }
    case "bool": {
      if (q.must.length || q.filter.length || q.mustNot.length || !(q.boost > 0)) return null;
      if (!q.should.length || resolveMsm(q.minimumShouldMatch, q.should.length, 1) !== 1) {
        return null;
      }
      const children = shouldNodes(q.should, ctx);
      return children && { combine: "sum", tieBreaker: 0, boost: q.boost, children };
    }
    default:
      return null;
  }
}

/**
 * A `terms` query on a text or keyword field: a constant `boost` for a doc holding any of the
 * values (a dis_max of constant clauses). Too many values go the exhaustive way, which refuses them.
 */
function termsNode(q: QueryOf<"terms">, ctx: ExecContext): ScoreNode | null {
  if (!(q.boost > 0) || q.field.startsWith("_") || q.field.includes("*")) return null;
  if (!q.values.length || q.values.length > (ctx.maxTermsCount ?? MAX_TERMS_COUNT)) return null;
  const info = ctx.fields.byPath.get(q.field);
  if (!info || (info.kind !== "text" && info.kind !== "keyword") || info.type === "ip") return null;
  if (q.values.some((v) => typeof v !== "string" && typeof v !== "number")) return null;
  const children = q.values.map((v) => ({
    field: info.path,
    term: termText(info, v),
    boost: 1,
    constant: true,
  }));
  return { combine: "dis_max", tieBreaker: 0, boost: q.boost, children };
}

/** The text a `match` or `multi_match` searches for and how: its analyzer, its `minimum_should_match`. */
interface MatchText {
  readonly query: unknown;
  readonly analyzer?: string;
  readonly minimumShouldMatch?: string;
}

/** A `match` (or) of `q.query` on one text field: the sum of its terms' scores. */
function fieldNode(ctx: ExecContext, on: BoostedField, q: MatchText): ScoreNode | null {
  const { field, boost } = on;
  const info = ctx.fields.byPath.get(field);
  if (!info || info.kind !== "text" || !(boost > 0)) return null;
  const analyzer = q.analyzer ? analyzerFor(q.analyzer) : info.searchAnalyzer;
  const terms = analyzer(String(q.query)).map((t) => t.term);
  if (terms.length > 0 && resolveMsm(q.minimumShouldMatch, terms.length, 1) !== 1) return null;
  return {
    combine: "sum",
    tieBreaker: 0,
    boost: 1,
    children: terms.map((term) => ({ field, term, boost })),
  };
}

function multiMatchNode(q: QueryOf<"multi_match">, ctx: ExecContext): ScoreNode | null {
  if (q.type !== "best_fields" && q.type !== "most_fields") return null;
  if (q.operator !== "or" || q.fuzziness !== undefined || !(q.boost > 0)) return null;
  const dis = q.type === "best_fields";
  if (dis && !(q.tieBreaker >= 0 && q.tieBreaker <= 1)) return null;
  const children: ScoreNode[] = [];
  for (const f of q.fields) {
    for (const path of ctx.fields.expand(f.field)) {
      const info = ctx.fields.byPath.get(path)!;
      if (f.field.includes("*") && info.kind !== "text" && info.kind !== "keyword") continue;
      if (info.type === "ip") {
        if ((q.lenient || f.field.includes("*")) && !isIpText(q.query)) continue;
        return null;
      }
      if (constantKeyword(ctx, info)) return null;
      if (info.kind === "keyword" && f.boost > 0) {
        // A keyword field takes the whole query text as one term.
        const term = { field: path, term: termText(info, q.query), boost: f.boost };
        children.push({ combine: "sum", tieBreaker: 0, boost: 1, children: [term] });
        continue;
      }
      const node = fieldNode(ctx, { field: path, boost: f.boost }, q);
      if (!node) return null;
      children.push(node);
    }
  }
  if (children.length === 0) return null;
  return {
    combine: dis ? "dis_max" : "sum",
    tieBreaker: dis ? q.tieBreaker : 0,
    boost: q.boost,
    children,
  };
}

/** A plan flattened for scoring: clauses in order, nodes after their children. */
export interface ScoreProgram {
  /** The term clauses; clause i's score sits in slot i. */
  readonly clauses: readonly TermClause[];
  /** Product of the boosts above each clause (its score's weight in the root's bound). */
  readonly mults: readonly number[];
  /** 1 where no boost above the clause is applied: alone, it scores the root exactly. */
  readonly plain: readonly number[];
  /** The nodes, children first; node j's score sits in slot `clauses.length + j`. */
  readonly nodes: readonly { kids: readonly number[]; dis: boolean; tie: number; boost: number }[];
  /** The root's score from the clause slots (`hit` 1 where the clause matched, `val` its score). */
  evaluate(hit: { [i: number]: number }, val: { [i: number]: number }): number;
}

/**
 * Flattens a plan's tree for per-doc scoring.
 *
 * @example
 * ```ts
 * import { compilePlan } from "./top_first_plan.ts";
 * const p = compilePlan({ combine: "sum", tieBreaker: 0, boost: 2, children: [
 *   { field: "t", term: "a", boost: 1 }, { field: "t", term: "b", boost: 1 }] });
 * console.assert(p.evaluate(Uint8Array.of(1, 1, 0), Float64Array.of(1, 2, 0)) === 6);
 * ```
 */
export function compilePlan(root: ScoreNode): ScoreProgram {
  const clauses: TermClause[] = [];
  const mults: number[] = [];
  const plain: number[] = [];
  // A kid is a clause `i` (as i) or a node `j` (as ~j, below 0): no pair per kid.
  const raw: { kids: number[]; dis: boolean; tie: number; boost: number }[] = [];
  // `mult`: the product of the boosts above `node`; `boosted`: how many of them are not 1.
  const walk = (node: ScoreNode, mult: number, boosted: number): number => {
    const m = mult * node.boost;
    const below = node.boost === 1 ? boosted : boosted + 1;
    const bare = below === 0;
    const kids: number[] = [];
    for (const c of node.children) {
      if ("term" in c) {
        kids.push(clauses.length);
        clauses.push(c);
        mults.push(m);
        plain.push(bare ? 1 : 0);
      } else kids.push(~walk(c, m, below));
    }
    raw.push({ kids, dis: node.combine === "dis_max", tie: node.tieBreaker, boost: node.boost });
    return raw.length - 1;
  };
  walk(root, 1, 0);
  const c = clauses.length;
  // Plain arrays, not typed ones: a typed array costs a backing store, three per search here.
  const nodes = raw.map((r) => {
    const kids = r.kids;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i]!;
      if (k < 0) kids[i] = c + ~k;
    }
    return { kids, dis: r.dis, tie: r.tie, boost: r.boost };
  });
  const evaluate = (hit: { [i: number]: number }, val: { [i: number]: number }): number => {
    let v = 0;
    for (let j = 0; j < nodes.length; j++) {
      const node = nodes[j]!;
      const kids = node.kids;
      let sum = 0;
      let best = 0;
      let any = 0;
      for (let i = 0; i < kids.length; i++) {
        const s = kids[i]!;
        if (!hit[s]) continue;
        const x = val[s]!;
        sum += x;
        if (x > best) best = x;
        any = 1;
      }
      v = node.dis ? best + node.tie * (sum - best) : sum;
      if (node.boost !== 1) v = v * node.boost;
      hit[c + j] = any;
      val[c + j] = v;
    }
    return v;
  };
  return {
    clauses,
    mults,
    plain,
    nodes,
    evaluate,
  };
}
