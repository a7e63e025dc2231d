// The `script_score` and `script` queries: Painless-subset scripts per matching doc, with `doc[…]`
// access and the vector functions (`cosineSimilarity`, `dotProduct`, `l1norm`, `l2norm`,
// `hamming`) Elasticsearch gives score scripts.

import { illegalArgument, parsingError } from "../_errors.ts";
import { MAX_SCRIPT_BYTES, readScript, runExpression } from "./script.ts";
import { scriptError } from "./script_parser.ts";
import { dotAt, squaredL2At } from "../_index/vectors.ts";
import { type Cursor, DocAccess, MathHost, MISSING_VECTOR, VectorValues } from "./script_doc.ts";
import type { Hits, Scoring } from "./doc_set.ts";
import type { ExecContext } from "./exec_context.ts";
import type { QueryNode, QueryOf, ScoreScript } from "./query_nodes.ts";
import type { JsonObject } from "../_json.ts";
import { utf8Length } from "../_utf8.ts";

/** OpenSearch's `knn_score` spaces. */
const KNN_SPACES = new Set(["l2", "l1", "linf", "cosinesimil", "innerproduct", "hammingbit"]);

/** OpenSearch's `{"source": "knn_score", "lang": "knn", "params": {field, query_value, space_type}}`. */
function knnScoreScript(o: Record<string, unknown>): ScoreScript {
  if (o.source !== "knn_score") {
    throw illegalArgument(`Unknown script name [${o.source}] for lang [knn]; use [knn_score]`);
  }
  const params = (o.params ?? {}) as Record<string, unknown>;
  if (typeof params.field !== "string") throw illegalArgument(`Missing parameter [field]`);
  if (!Array.isArray(params.query_value)) throw illegalArgument(`Missing parameter [query_value]`);
  if (!KNN_SPACES.has(String(params.space_type))) {
    throw illegalArgument(`Invalid space type [${params.space_type}] for the knn_score script`);
  }
  return Object.freeze({ source: "knn_score", params: Object.freeze({ ...params }), lang: "knn" });
}

/** Reads a script object (inline source, params; `lang: knn` for OpenSearch's `knn_score`). */
export function scoreScript(raw: unknown): ScoreScript {
  if (raw !== null && typeof raw === "object" && (raw as Record<string, unknown>).lang === "knn") {
    return knnScoreScript(raw as Record<string, unknown>);
  }
  const s = readScript(raw);
  const size = utf8Length(s.source);
  if (size > MAX_SCRIPT_BYTES) {
    throw illegalArgument(
      `exceeded max allowed inline script size in bytes [${MAX_SCRIPT_BYTES}] with size [${size}]`,
    );
  }
  return Object.freeze({ source: s.source, params: Object.freeze({ ...s.params }) });
}

/** `{"script_score": {query, script, min_score, boost}}`. */
export function parseScriptScore(
  o: JsonObject,
  parseQuery: (q: unknown) => QueryNode,
): QueryOf<"script_score"> {
  for (const k of Object.keys(o)) {
    if (!["query", "script", "min_score", "boost", "_name"].includes(k)) {
      throw parsingError(`[script_score] query does not support [${k}]`);
    }
  }
  if (o.query === undefined) throw parsingError(`[script_score] requires 'query' field`);
  if (o.script === undefined) throw parsingError(`[script_score] requires 'script' field`);
  return {
    kind: "script_score",
    query: parseQuery(o.query),
    script: scoreScript(o.script),
    ...(o.min_score === undefined ? {} : { minScore: Number(o.min_score) }),
    boost: o.boost === undefined ? 1 : Number(o.boost),
  };
}

/** `{"script": {"script": {...}}}`: a filter that keeps docs for which the script is true. */
export function parseScriptQuery(o: JsonObject): QueryOf<"script"> {
  for (const k of Object.keys(o)) {
    if (!["script", "boost", "_name"].includes(k)) {
      throw parsingError(`[script] query does not support [${k}]`);
    }
  }
  if (o.script === undefined) throw parsingError(`script must be provided with a [script] query`);
  return {
    kind: "script",
    script: scoreScript(o.script),
    boost: o.boost === undefined ? 1 : Number(o.boost),
  };
}

/** The per-run environment: `doc`, `params`, `_score`, `Math` and the vector functions. */
function environment(s: ScoreScript, at: Cursor, doc: DocAccess) {
  const vectors = new Map<unknown, Float32Array>();
  const pair = (fn: string, q: unknown, target: unknown): [Float32Array, VectorValues] => {
    let values: unknown = target;
    if (typeof target === "string") values = doc.member(s.source, target);
    if (!(values instanceof VectorValues)) {
      throw scriptError(
        s.source,
        `[${fn}] needs a dense_vector field (its name or doc[name])`,
        true,
      );
    }
    let query = vectors.get(q);
    if (!query) {
      if (!Array.isArray(q) || q.some((x) => typeof x !== "number")) {
        throw scriptError(s.source, `[${fn}] needs the query vector as a list of numbers`, true);
      }
      query = Float32Array.from(q as number[]);
      vectors.set(q, query);
    }
    if (!values.has() || !values.col) throw scriptError(s.source, MISSING_VECTOR, true);
    if (query.length !== values.col.spec.dims) {
      throw scriptError(
        s.source,
        `The query vector has a different number of dimensions [${query.length}] than the document vectors [${values.col.spec.dims}].`,
        true,
      );
    }
    return [query, values];
  };
  const each = (fn: string, f: (a: number, b: number) => number) => (q: unknown, t: unknown) => {
    const [query, values] = pair(fn, q, t);
    const data = values.col!.data;
    const base = at.local * query.length;
    let sum = 0;
    for (let i = 0; i < query.length; i++) sum += f(query[i]!, data[base + i]!);
    return sum;
  };
  // The hot ones as plain loops (no call per element).
  const dot = (q: unknown, t: unknown, fn = "dotProduct") => {
    const [query, values] = pair(fn, q, t);
    return dotAt(query, values.col!.data, at.local * query.length);
  };
  const magnitudes = new Map<Float32Array, number>();
  return {
    doc,
    params: s.params,
    Math: new MathHost(),
    _score: 0,
    dotProduct: (q: unknown, t: unknown) => dot(q, t),
    cosineSimilarity: (q: unknown, t: unknown) => {
      const [query, values] = pair("cosineSimilarity", q, t);
      let qm = magnitudes.get(query);
      if (qm === undefined) magnitudes.set(query, qm = Math.sqrt(dotAt(query, query, 0)));
      return dotAt(query, values.col!.data, at.local * query.length) /
        (qm * values.col!.magnitude[at.local]!);
    },
    l1norm: each("l1norm", (a, b) => Math.abs(a - b)),
    l2norm: (q: unknown, t: unknown) => {
      const [query, values] = pair("l2norm", q, t);
      return Math.sqrt(squaredL2At(query, values.col!.data, at.local * query.length));
    },
    hamming: each("hamming", (a, b) => popcount((a ^ b) & 0xff)),
    // OpenSearch's names (vectors as doc[field]).
    l2Squared: (q: unknown, t: unknown) => {
      const [query, values] = pair("l2Squared", q, t);
      return squaredL2At(query, values.col!.data, at.local * query.length);
    },
    l1Norm: each("l1Norm", (a, b) => Math.abs(a - b)),
  };
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
}

/** OpenSearch's `knn_score`: the score of the doc's vector in the given space (0 without one). */
function knnScore(vars: ReturnType<typeof environment>, s: ScoreScript): number {
  const { field, query_value: q, space_type: space } = s.params;
  const values = vars.doc.member(s.source, String(field));
  if (values instanceof VectorValues && !values.has()) return 0;
  switch (space) {
    case "l2":
      return 1 / (1 + vars.l2Squared(q, field));
    case "l1":
      return 1 / (1 + vars.l1norm(q, field));
    case "linf": {
      const v = (values as VectorValues).vector(s.source);
      const query = q as number[];
      return 1 / (1 + Math.max(...v.map((x, i) => Math.abs(x - (query[i] ?? 0)))));
    }
    case "cosinesimil":
      return 1 + vars.cosineSimilarity(q, field);
    case "innerproduct": {
      const dot = vars.dotProduct(q, field);
      return dot >= 0 ? dot + 1 : 1 / (1 - dot);
    }
    default:
      return 1 / (1 + vars.hamming(q, field));
  }
}

/** Runs `s` over `hits`' docs; `use` gets each doc's index in `hits` and the script's value. */
function runOver(
  ctx: ExecContext,
  s: ScoreScript,
  hits: Hits,
  use: (i: number, value: unknown) => void,
): void {
  const first = ctx.snapshot.views[0];
  if (!first) return;
  const at: Cursor = { view: first, local: 0 };
  const vars = environment(s, at, new DocAccess(ctx, at));
  const script = { source: s.source, params: s.params as Record<string, unknown> };
  for (let i = 0; i < hits.docs.length; i++) {
    const d = hits.docs[i]!;
    if (d < at.view.base || d >= at.view.base + at.view.segment.maxDoc) {
      at.view = ctx.snapshot.viewOf(d);
    }
    at.local = d - at.view.base;
    vars._score = hits.scores?.[i] ?? 0;
    use(i, s.lang === "knn" ? knnScore(vars, s) : runExpression(script, vars));
  }
}

/** `script_score`: each doc of the inner query scored by the script (× boost). */
export function runScriptScore(
  q: QueryOf<"script_score">,
  ctx: ExecContext,
  inner: Hits,
  scoring: Scoring,
): Hits {
  const docs: number[] = [];
  const scores: number[] = [];
  runOver(ctx, q.script, inner, (i, value) => {
    const score = Number(value);
    if (!(score >= 0)) {
      throw illegalArgument(
        `script_score script returned an invalid score [${value}] for doc [${
          ctx.snapshot.doc(inner.docs[i]!).id
        }]. Must be a non-negative score!`,
      );
    }
    const boosted = score * q.boost;
    if (q.minScore !== undefined && boosted < q.minScore) return;
    docs.push(inner.docs[i]!);
    scores.push(boosted);
  });
  return {
    docs: Int32Array.from(docs),
    scores: scoring === "score" ? Float64Array.from(scores) : null,
  };
}

/** `script` query: the docs of `all` for which the script returns true. */
export function runScriptQuery(q: QueryOf<"script">, ctx: ExecContext, all: Hits): Hits {
  const keep: number[] = [];
  runOver(ctx, q.script, all, (i, value) => {
    if (value === true) keep.push(i);
    else if (value !== false) {
      throw scriptError(q.script.source, `Cannot cast ${typeof value} to boolean`, true);
    }
  });
  return {
    docs: Int32Array.from(keep, (i) => all.docs[i]!),
    scores: all.scores ? Float64Array.from(keep, (i) => all.scores![i]!) : null,
  };
}

/** A `script_fields` script's value for one doc: a list, as the hit's `fields` carry it. */
export function scriptFieldValue(ctx: ExecContext, s: ScoreScript, doc: number): unknown[] {
  let out: unknown[] = [];
  runOver(ctx, s, { docs: Int32Array.of(doc), scores: null }, (_i, value) => {
    out = Array.isArray(value) ? value : [value];
  });
  return out;
}
