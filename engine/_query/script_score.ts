// The `script_score` and `script` queries: Painless-subset scripts per matching doc, with `doc[…]`
// access and the vector functions (`cosineSimilarity`, `dotProduct`, `l1norm`, `l2norm`,
// `hamming`) Elasticsearch gives score scripts.

import { illegalArgument, parsingError } from "../_errors.ts";
import { MAX_SCRIPT_BYTES, readScript, runExpression } from "./script.ts";
import { scriptError } from "./script_parser.ts";
import { ScriptHost } from "./script_host.ts";
import type { SegmentView } from "../_index/shard_snapshot.ts";
import type { VectorColumn } from "../_index/vectors.ts";
import type { Hits } from "./doc_set.ts";
import type { ExecContext } from "./exec_context.ts";
import type { QueryNode, QueryOf, ScoreScript } from "./query_nodes.ts";

type Json = Record<string, unknown>;

function script(raw: unknown): ScoreScript {
  const s = readScript(raw);
  const size = new TextEncoder().encode(s.source).length;
  if (size > MAX_SCRIPT_BYTES) {
    throw illegalArgument(
      `exceeded max allowed inline script size in bytes [${MAX_SCRIPT_BYTES}] with size [${size}]`,
    );
  }
  return Object.freeze({ source: s.source, params: Object.freeze({ ...s.params }) });
}

/** `{"script_score": {query, script, min_score, boost}}`. */
export function parseScriptScore(
  o: Json,
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
    script: script(o.script),
    ...(o.min_score === undefined ? {} : { minScore: Number(o.min_score) }),
    boost: o.boost === undefined ? 1 : Number(o.boost),
  };
}

/** `{"script": {"script": {...}}}`: a filter that keeps docs for which the script is true. */
export function parseScriptQuery(o: Json): QueryOf<"script"> {
  for (const k of Object.keys(o)) {
    if (!["script", "boost", "_name"].includes(k)) {
      throw parsingError(`[script] query does not support [${k}]`);
    }
  }
  if (o.script === undefined) throw parsingError(`script must be provided with a [script] query`);
  return {
    kind: "script",
    script: script(o.script),
    boost: o.boost === undefined ? 1 : Number(o.boost),
  };
}

/** Where the script is: the segment and local doc, updated for each doc it runs on. */
interface Cursor {
  view: SegmentView;
  local: number;
}

const MISSING_VECTOR = "A document doesn't have a value for a vector field!";

/** `doc['field']` of a vector field. */
class VectorValues extends ScriptHost {
  /** The segment whose column this is. */
  readonly view: SegmentView;
  constructor(readonly field: string, readonly col: VectorColumn | undefined, readonly at: Cursor) {
    super();
    this.view = at.view;
  }

  has(): boolean {
    return this.col?.has[this.at.local] === 1;
  }

  vector(source: string): number[] {
    if (!this.col || !this.has()) throw scriptError(source, MISSING_VECTOR, true);
    const dims = this.col.spec.dims;
    return Array.from(this.col.data.subarray(this.at.local * dims, (this.at.local + 1) * dims));
  }

  override member(source: string, key: string | number): unknown {
    if (key === "vectorValue") return this.vector(source);
    if (key === "magnitude") {
      if (!this.has()) throw scriptError(source, MISSING_VECTOR, true);
      return this.col!.magnitude[this.at.local]!;
    }
    if (key === "empty") return !this.has();
    throw scriptError(source, `dynamic getter [${key}] not found for a dense_vector field`, true);
  }

  override invoke(source: string, method: string, args: unknown[]): unknown {
    if (method === "size") return this.has() ? 1 : 0;
    if (method === "isEmpty") return !this.has();
    if (method === "getVectorValue") return this.vector(source);
    if (method === "getMagnitude") return this.member(source, "magnitude");
    throw scriptError(source, `dynamic method [${method}/${args.length}] not found`, true);
  }
}

/** `doc['field']` of any other field: its doc values. */
class FieldValues extends ScriptHost {
  constructor(readonly field: string, readonly at: Cursor) {
    super();
  }

  values(): unknown[] {
    const f = this.at.view.segment.fields.get(this.field);
    if (!f) return [];
    const from = f.dvStart[this.at.local]!;
    const to = f.dvStart[this.at.local + 1]!;
    if (f.numValues) return Array.from(f.numValues.subarray(from, to));
    return f.strValues ? f.strValues.slice(from, to) : [];
  }

  override member(source: string, key: string | number): unknown {
    const values = this.values();
    if (key === "value") {
      if (values.length === 0) {
        throw scriptError(
          source,
          `A document doesn't have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!`,
          true,
        );
      }
      return values[0];
    }
    if (key === "empty") return values.length === 0;
    if (typeof key === "number") return values[key] ?? null;
    throw scriptError(source, `dynamic getter [${key}] not found`, true);
  }

  override invoke(source: string, method: string, args: unknown[]): unknown {
    const values = this.values();
    if (method === "size") return values.length;
    if (method === "isEmpty") return values.length === 0;
    if (method === "getValue") return this.member(source, "value");
    if (method === "get") return values[Number(args[0])] ?? null;
    throw scriptError(source, `dynamic method [${method}/${args.length}] not found`, true);
  }
}

/** The `doc` map. */
class DocAccess extends ScriptHost {
  readonly #cache = new Map<string, VectorValues | FieldValues>();
  constructor(readonly ctx: ExecContext, readonly at: Cursor) {
    super();
  }

  override member(source: string, key: string | number): unknown {
    const field = String(key);
    let values = this.#cache.get(field);
    if (values instanceof VectorValues && values.view !== this.at.view) {
      values = undefined; // another segment: another column
    }
    if (!values) {
      const info = this.ctx.fields.byPath.get(field);
      if (!info) {
        throw scriptError(source, `No field found for [${field}] in mapping`, true);
      }
      values = info.vector
        ? new VectorValues(field, this.at.view.segment.vectors.get(field), this.at)
        : new FieldValues(field, this.at);
      this.#cache.set(field, values);
    }
    return values;
  }

  override invoke(source: string, method: string, args: unknown[]): unknown {
    if (method === "containsKey") return this.ctx.fields.byPath.has(String(args[0]));
    if (method === "get") return this.member(source, String(args[0]));
    throw scriptError(source, `dynamic method [${method}/${args.length}] not found`, true);
  }
}

/** `Math.*` as Painless scripts use it. */
class MathHost extends ScriptHost {
  override member(source: string, key: string | number): unknown {
    if (key === "PI") return Math.PI;
    if (key === "E") return Math.E;
    throw scriptError(source, `cannot resolve symbol [Math.${key}]`);
  }
  override invoke(source: string, method: string, args: unknown[]): unknown {
    const fn = ["abs", "sqrt", "log", "log10", "exp", "pow", "max", "min", "floor", "ceil"]
        .includes(method)
      ? (Math as unknown as Record<string, (...a: number[]) => number>)[method]!
      : undefined;
    if (!fn) throw scriptError(source, `Unknown call [Math.${method}]`);
    return fn(...args.map(Number));
  }
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
  const dot = each("dotProduct", (a, b) => a * b);
  return {
    doc,
    params: s.params,
    Math: new MathHost(),
    _score: 0,
    dotProduct: dot,
    cosineSimilarity: (q: unknown, t: unknown) => {
      const [query, values] = pair("cosineSimilarity", q, t);
      let qm = 0;
      for (let i = 0; i < query.length; i++) qm += query[i]! * query[i]!;
      return dot(q, t) / (Math.sqrt(qm) * values.col!.magnitude[at.local]!);
    },
    l1norm: each("l1norm", (a, b) => Math.abs(a - b)),
    l2norm: (q: unknown, t: unknown) => Math.sqrt(each("l2norm", (a, b) => (a - b) ** 2)(q, t)),
    hamming: each("hamming", (a, b) => popcount((a ^ b) & 0xff)),
  };
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
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
    use(i, runExpression(script, vars));
  }
}

/** `script_score`: each doc of the inner query scored by the script (× boost). */
export function runScriptScore(
  q: QueryOf<"script_score">,
  ctx: ExecContext,
  inner: Hits,
  scoring: boolean,
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
  return { docs: Int32Array.from(docs), scores: scoring ? Float64Array.from(scores) : null };
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
