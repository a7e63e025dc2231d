// The `function_score` query: weights, field_value_factor and random_score combined with the
// query score through score_mode and boost_mode.

import { parsingError } from "../_errors.ts";
import type { Hits } from "./doc_set.ts";
import type { ExecContext } from "./exec_context.ts";
import type { QueryNode, QueryOf, ScoreFunction } from "./query_nodes.ts";

/** Parses one function object (`parseQuery` is passed in to parse filters). */
export function parseFunction(
  o: Record<string, unknown>,
  parseQuery: (q: unknown) => QueryNode,
): ScoreFunction {
  const fn: { -readonly [K in keyof ScoreFunction]: ScoreFunction[K] } = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === "filter") fn.filter = parseQuery(v);
    else if (k === "weight") fn.weight = Number(v);
    else if (k === "field_value_factor") {
      const p = v as Record<string, unknown>;
      if (typeof p.field !== "string") {
        throw parsingError(`[field_value_factor] requires a [field]`);
      }
      fn.fieldValueFactor = {
        field: p.field,
        factor: Number(p.factor ?? 1),
        modifier: String(p.modifier ?? "none"),
        missing: p.missing === undefined ? undefined : Number(p.missing),
      };
    } else if (k === "random_score") {
      const p = (v ?? {}) as Record<string, unknown>;
      fn.randomSeed = Number(p.seed ?? 0);
    } else throw parsingError(`function_score query does not support [${k}]`);
  }
  return fn;
}

const MODIFIERS: Record<string, (x: number) => number> = {
  none: (x) => x,
  log: (x) => Math.log10(x),
  log1p: (x) => Math.log10(1 + x),
  log2p: (x) => Math.log10(2 + x),
  ln: (x) => Math.log(x),
  ln1p: (x) => Math.log1p(x),
  ln2p: (x) => Math.log(2 + x),
  square: (x) => x * x,
  sqrt: (x) => Math.sqrt(x),
  reciprocal: (x) => 1 / x,
};

function hash01(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return (h >>> 8) / 16777216;
}

/** The value of one function for a doc. */
function evaluate(fn: ScoreFunction, ctx: ExecContext, doc: number): number {
  let value = fn.weight ?? 1;
  if (fn.fieldValueFactor) {
    const f = fn.fieldValueFactor;
    const view = ctx.snapshot.viewOf(doc);
    const field = view.segment.fields.get(f.field);
    const local = doc - view.base;
    let x: number | undefined;
    if (field?.numValues && field.dvStart[local]! < field.dvStart[local + 1]!) {
      x = field.numValues[field.dvStart[local]!];
    }
    x ??= f.missing;
    if (x === undefined) {
      throw parsingError(`Missing value for field [${f.field}]`);
    }
    const modifier = MODIFIERS[f.modifier];
    if (!modifier) throw parsingError(`Illegal modifier [${f.modifier}] for field_value_factor`);
    value *= modifier(x * f.factor);
  }
  if (fn.randomSeed !== undefined) value *= hash01(ctx.snapshot.doc(doc).id, fn.randomSeed);
  return value;
}

function combine(values: number[], mode: string): number {
  switch (mode) {
    case "sum":
      return values.reduce((a, b) => a + b, 0);
    case "avg":
      return values.reduce((a, b) => a + b, 0) / values.length;
    case "first":
      return values[0]!;
    case "max":
      return Math.max(...values);
    case "min":
      return Math.min(...values);
    default:
      return values.reduce((a, b) => a * b, 1);
  }
}

function apply(score: number, fnScore: number, mode: string): number {
  switch (mode) {
    case "replace":
      return fnScore;
    case "sum":
      return score + fnScore;
    case "avg":
      return (score + fnScore) / 2;
    case "max":
      return Math.max(score, fnScore);
    case "min":
      return Math.min(score, fnScore);
    default:
      return score * fnScore;
  }
}

/**
 * Rescores `hits` with the query's functions; `filters` holds each function's matching docs (or
 * null).
 */
export function applyFunctions(
  hits: Hits,
  ctx: ExecContext,
  o: QueryOf<"function_score">,
  filters: ReadonlyArray<Set<number> | null>,
): Hits {
  const functions = o.functions;
  const docs: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < hits.docs.length; i++) {
    const doc = hits.docs[i]!;
    const values: number[] = [];
    functions.forEach((fn, k) => {
      if (!filters[k] || filters[k]!.has(doc)) values.push(evaluate(fn, ctx, doc));
    });
    const fnScore = values.length ? Math.min(combine(values, o.scoreMode), o.maxBoost) : 1;
    const score = apply(hits.scores ? hits.scores[i]! : 1, fnScore, o.boostMode) * o.boost;
    if (o.minScore !== undefined && score < o.minScore) continue;
    docs.push(doc);
    scores.push(score);
  }
  return { docs: Int32Array.from(docs), scores: Float64Array.from(scores) };
}
