// k-nearest-neighbour search: the top-level `knn` search section and the `knn` query (both the
// Elasticsearch and the OpenSearch shape), answered by an exact scan over the vector columns.

import {
  type EngineError,
  esError,
  illegalArgument,
  parsingError,
  xContentParseError,
} from "../_errors.ts";
import {
  passesThreshold,
  quantizedOf,
  rawSimilarity,
  scoreOf,
  type VectorColumn,
  vectorProblem,
  type VectorSpec,
} from "../_index/vectors.ts";
import {
  type QuantizedColumn,
  type QuantizedQuery,
  quantizedScore,
  quantizeQuery,
  type Similarity,
} from "../_index/vector_quant.ts";
import type { SegmentView } from "../_index/shard_snapshot.ts";
import type { Hits } from "./doc_set.ts";
import { type ExecContext, queryShardError } from "./exec_context.ts";
import type { QueryNode, QueryOf } from "./query_nodes.ts";
import { TopHeap } from "./knn_top.ts";
import type { JsonObject } from "../_json.ts";

export { globalTopK } from "./knn_top.ts";

/** Most candidates Elasticsearch lets a kNN search consider per shard. */
export const MAX_CANDIDATES = 10_000;

const SECTION_KEYS = new Set([
  "field",
  "query_vector",
  "k",
  "num_candidates",
  "filter",
  "similarity",
  "rescore_vector",
  "boost",
  "_name",
]);

function integer(v: unknown, name: string): number {
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw illegalArgument(`[${name}] must be an integer, got [${JSON.stringify(v)}]`);
  }
  return v;
}

function queryVector(v: unknown, where: string): readonly number[] {
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== "number")) {
    throw illegalArgument(`[${where}] must be a non-empty array of numbers`);
  }
  for (const x of v as number[]) {
    if (!Number.isFinite(x)) throw illegalArgument(`[${where}] values must be finite, got [${x}]`);
  }
  return Object.freeze([...(v as number[])]);
}

/**
 * `rescore_vector`: `{oversample}`, at least 1 (or 0, no rescoring), refused with the chain of
 * parse errors Elasticsearch reports.
 */
function oversampleOf(v: unknown): number {
  const failed = (cause: EngineError) =>
    esError("x_content_parse_exception", `[knn] failed to parse field [rescore_vector]`, {}, cause);
  const inField = (cause: EngineError) =>
    failed(
      esError(
        "x_content_parse_exception",
        `[rescore_vector] failed to parse field [oversample]`,
        {},
        cause,
      ),
    );
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw failed(illegalArgument(`[rescore_vector] must be an object`));
  }
  const o = v as JsonObject;
  for (const key of Object.keys(o)) {
    if (key !== "oversample") {
      throw failed(xContentParseError(`[rescore_vector] unknown field [${key}]`));
    }
  }
  if (o.oversample === undefined) throw failed(illegalArgument(`Required [oversample]`));
  const n = typeof o.oversample === "string" ? Number(o.oversample) : o.oversample;
  if (typeof n !== "number" || !Number.isFinite(n)) {
    throw inField(
      esError("number_format_exception", `For input string: "${String(o.oversample)}"`),
    );
  }
  if (n !== 0 && n < 1) {
    throw inField(
      esError(
        "x_content_parse_exception",
        `Failed to build [rescore_vector] after last required field arrived`,
        {},
        illegalArgument(`[oversample] must be >= 1.0 or 0`),
      ),
    );
  }
  return n;
}

function filters(v: unknown, parseQuery: (q: unknown) => QueryNode): QueryNode | null {
  if (v === undefined || v === null) return null;
  const list = Array.isArray(v) ? v : [v];
  if (list.length === 0) return null;
  const parsed = list.map(parseQuery);
  if (parsed.length === 1) return parsed[0]!;
  return { kind: "bool", must: [], should: [], mustNot: [], filter: parsed, boost: 1 };
}

/**
 * Reads one `knn` object (section entry or Elasticsearch-shape query): `k` defaults to
 * `defaultK` (the request `size`), `num_candidates` to 1.5 × k (at most 10,000), with
 * Elasticsearch's checks on both.
 */
export function parseKnn(
  raw: unknown,
  defaultK: number,
  parseQuery: (q: unknown) => QueryNode,
): QueryOf<"knn"> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw parsingError(`[knn] must be an object or an array of objects`);
  }
  const o = raw as JsonObject;
  for (const k of Object.keys(o)) {
    if (!SECTION_KEYS.has(k)) throw parsingError(`[knn] unknown field [${k}]`);
  }
  if (typeof o.field !== "string" || o.field === "") {
    throw illegalArgument(`[knn] requires a [field] naming a dense_vector field`);
  }
  if (o.query_vector === undefined) {
    throw illegalArgument(`[knn] requires either [query_vector] or [query_vector_builder]`);
  }
  const vector = queryVector(o.query_vector, "query_vector");
  const k = o.k === undefined ? defaultK : integer(o.k, "k");
  if (k < 1) throw illegalArgument(`[k] must be greater than 0`);
  const numCandidates = o.num_candidates === undefined
    ? Math.min(Math.ceil(1.5 * k), MAX_CANDIDATES)
    : integer(o.num_candidates, "num_candidates");
  if (numCandidates > MAX_CANDIDATES) {
    throw illegalArgument(`[num_candidates] cannot exceed [${MAX_CANDIDATES}]`);
  }
  if (numCandidates < k) throw illegalArgument(`[num_candidates] cannot be less than [k]`);
  if (o.similarity !== undefined && typeof o.similarity !== "number") {
    throw illegalArgument(`[similarity] must be a number`);
  }
  const boost = o.boost === undefined ? 1 : Number(o.boost);
  if (!Number.isFinite(boost)) throw illegalArgument(`[boost] must be a number`);
  return {
    kind: "knn",
    field: o.field,
    vector,
    k,
    numCandidates,
    filter: filters(o.filter, parseQuery),
    ...(typeof o.similarity === "number" ? { similarity: o.similarity } : {}),
    ...(o.rescore_vector !== undefined ? { oversample: oversampleOf(o.rescore_vector) } : {}),
    boost,
  };
}

/** The `knn` search section: one object or an array of them. */
export function parseKnnSection(
  raw: unknown,
  size: number,
  parseQuery: (q: unknown) => QueryNode,
): QueryOf<"knn">[] {
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((entry) => Object.freeze(parseKnn(entry, size, parseQuery)));
}

/**
 * The `knn` query: Elasticsearch's `{field, query_vector, ...}` or OpenSearch's
 * `{"<field>": {vector, k, filter, boost}}`. Without `k`, the query keeps `num_candidates` hits.
 */
export function parseKnnQuery(
  raw: unknown,
  parseQuery: (q: unknown) => QueryNode,
): QueryOf<"knn"> {
  const o = (raw ?? {}) as JsonObject;
  if (typeof o !== "object" || Array.isArray(o)) {
    throw parsingError(`[knn] query malformed, no start_object after query name`);
  }
  if ("field" in o || "query_vector" in o) {
    const node = parseKnn(o, 10, parseQuery);
    return o.k === undefined ? { ...node, k: node.numCandidates } : node;
  }
  const fields = Object.keys(o);
  if (fields.length !== 1) throw parsingError(`[knn] query must name exactly one field`);
  const field = fields[0]!;
  const p = (o[field] ?? {}) as JsonObject;
  for (const key of Object.keys(p)) {
    if (!["vector", "k", "filter", "boost", "_name"].includes(key)) {
      throw parsingError(`[knn] unknown field [${key}]`);
    }
  }
  const k = integer(p.k, "k");
  if (k < 1) throw illegalArgument(`[k] must be greater than 0`);
  return {
    kind: "knn",
    field,
    vector: queryVector(p.vector, "vector"),
    k,
    numCandidates: k,
    filter: filters(p.filter, parseQuery),
    boost: p.boost === undefined ? 1 : Number(p.boost),
  };
}

/** The vector mapping of `field`, or a query_shard_exception saying why kNN cannot use it. */
function specOf(ctx: ExecContext, field: string): VectorSpec {
  const info = ctx.fields.byPath.get(field);
  if (!info) {
    throw queryShardError(
      ctx,
      `failed to create query: field [${field}] does not exist in the mapping`,
    );
  }
  if (!info.vector) {
    throw queryShardError(ctx, `[knn] queries are only supported on [dense_vector] fields`);
  }
  if (!info.vector.indexed) {
    throw queryShardError(
      ctx,
      `to perform knn search on field [${field}], its mapping must have [index] set to [true]`,
    );
  }
  return info.vector;
}

/** Checks a query vector against the field (dims, bytes, zero under cosine) and returns it as floats. */
export function checkQueryVector(
  ctx: ExecContext,
  spec: VectorSpec,
  vector: readonly number[],
): Float32Array {
  if (spec.dims !== 0 && vector.length !== spec.dims) {
    throw queryShardError(
      ctx,
      `The query vector has a different number of dimensions [${vector.length}] than the document vectors [${spec.dims}].`,
    );
  }
  // The document rules apply to the query vector too, except unit length.
  const problem = vectorProblem({ ...spec, similarity: "l2_norm" }, "query_vector", vector);
  if (problem) throw queryShardError(ctx, problem);
  if (spec.similarity === "cosine" && vector.every((x) => x === 0)) {
    throw queryShardError(
      ctx,
      `The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: [${
        vector.slice(0, 10).join(", ")
      }]`,
    );
  }
  return Float32Array.from(vector);
}

/**
 * Vectors scored between two pause points of {@link knnTopKSteps}: about 1.5 million
 * dimension-products a block (4,096 vectors of 384 dims, a few milliseconds), from 1,024 to
 * 32,768 vectors.
 */
export function knnBlock(dims: number): number {
  return Math.max(1_024, Math.min(32_768, Math.floor(1_572_864 / Math.max(dims, 1))));
}

/**
 * The k nearest live docs of one target (ascending doc order, scores already boosted),
 * restricted to `allowed` docs when a filter is given. Every vector is scored (no graph); on a
 * field whose `index_options` quantise to scalars the scores are the quantised ones, per segment,
 * unless `rescore_vector` (the query's, else the mapping's) rescores the best
 * `k × oversample` on the raw vectors.
 */
export function knnTopK(
  q: QueryOf<"knn">,
  ctx: ExecContext,
  allowed: Hits | null,
): Hits {
  const steps = knnTopKSteps(q, ctx, allowed);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** kNN hits found ahead, in steps, for the `knn` clauses of a bool: per context, per clause. */
const foundAhead = new WeakMap<ExecContext, Map<QueryOf<"knn">, Hits>>();

/**
 * Remembers `hits`, {@link knnTopK}'s answer for `q` in `ctx` found ahead in steps, for
 * `execute` to take instead of scanning again.
 */
export function rememberKnn(q: QueryOf<"knn">, ctx: ExecContext, hits: Hits): void {
  let found = foundAhead.get(ctx);
  if (!found) foundAhead.set(ctx, found = new Map());
  found.set(q, hits);
}

/** The hits {@link rememberKnn} kept for `q` in `ctx`, if any. */
export function knnFoundAhead(q: QueryOf<"knn">, ctx: ExecContext): Hits | undefined {
  return foundAhead.get(ctx)?.get(q);
}

/**
 * {@link knnTopK} in steps: the generator yields between blocks of {@link knnBlock} documents
 * of a segment's scan (and of the rescoring), where a time-sliced search may let other work in,
 * and returns `knnTopK`'s hits. The blocks are visited in doc order into the same heap, so the
 * answer does not depend on where the pauses fall.
 */
export function* knnTopKSteps(
  q: QueryOf<"knn">,
  ctx: ExecContext,
  allowed: Hits | null,
): Generator<void, Hits, void> {
  const spec = specOf(ctx, q.field);
  const query = checkQueryVector(ctx, spec, q.vector);
  let qm = 0;
  for (let i = 0; i < query.length; i++) qm += query[i]! * query[i]!;
  qm = Math.sqrt(qm);
  const oversample = q.oversample ?? spec.oversample ?? 0;
  const quantize = spec.quantizedBits != null;
  const rescore = quantize && oversample >= 1;
  const kept = rescore ? Math.min(Math.ceil(q.k * oversample), MAX_CANDIDATES) : q.k;
  const heap = new TopHeap(kept);
  const mask = allowed ? maskOf(allowed, ctx.snapshot.maxDoc) : null;
  const threshold = q.similarity;
  const minScore = threshold === undefined ? undefined : scoreOf(spec, threshold);
  const block = knnBlock(query.length);
  const columns: (VectorColumn | undefined)[] = [];
  let scanned = false;
  for (const view of ctx.snapshot.views) {
    const col = view.segment.vectors.get(q.field);
    columns.push(col);
    if (!col || col.count === 0) continue;
    const n = view.segment.maxDoc;
    const quantized = quantize ? quantizedOf(col) : null;
    const qq = quantized ? quantizeQuery(quantized, query, spec.similarity!) : null;
    for (let from = 0; from < n; from += block) {
      if (scanned) yield;
      scanned = true;
      const scan = { view, col, mask, from, to: Math.min(from + block, n) };
      if (qq) {
        scanQuantized(scan, heap, {
          quantized: quantized!,
          qq,
          similarity: spec.similarity!,
          minScore: rescore ? undefined : minScore,
        });
      } else scanRaw(scan, heap, { spec, query, qm, threshold });
    }
  }
  if (!rescore) return heap.hits(q.boost);
  // The candidates again, on the raw vectors.
  const candidates = heap.hits(1).docs;
  const top = new TopHeap(q.k);
  let v = 0;
  const views = ctx.snapshot.views;
  for (let i = 0; i < candidates.length; i++) {
    if (i > 0 && i % block === 0) yield;
    const doc = candidates[i]!;
    while (v + 1 < views.length && views[v + 1]!.base <= doc) v++;
    const col = columns[v]!;
    const raw = rawSimilarity(col, query, qm, doc - views[v]!.base);
    if (threshold !== undefined && !passesThreshold(spec, raw, threshold)) continue;
    top.offer(scoreOf(spec, raw), doc);
  }
  return top.hits(q.boost);
}

/** One block of one segment's scan: docs `from` (inclusive) to `to` of `view`'s `col`. */
interface Scan {
  readonly view: SegmentView;
  readonly col: VectorColumn;
  readonly mask: Uint8Array | null;
  readonly from: number;
  readonly to: number;
}

/** A block scored on the raw vectors, kept in `heap` when within the similarity threshold. */
function scanRaw(
  { view, col, mask, from, to }: Scan,
  heap: TopHeap,
  o: { spec: VectorSpec; query: Float32Array; qm: number; threshold: number | undefined },
): void {
  const { has } = col;
  const deleted = view.deleted;
  const { spec, query, qm, threshold } = o;
  for (let d = from; d < to; d++) {
    if (!has[d] || deleted?.[d] || (mask && !mask[view.base + d])) continue;
    const raw = rawSimilarity(col, query, qm, d);
    if (threshold !== undefined && !passesThreshold(spec, raw, threshold)) continue;
    heap.offer(scoreOf(spec, raw), view.base + d);
  }
}

/** A block scored on the quantised codes, kept in `heap` when at least `minScore` (if given). */
function scanQuantized(
  { view, col, mask, from, to }: Scan,
  heap: TopHeap,
  o: {
    quantized: QuantizedColumn;
    qq: QuantizedQuery;
    similarity: Similarity;
    minScore: number | undefined;
  },
): void {
  const { has } = col;
  const deleted = view.deleted;
  const { quantized, qq, similarity, minScore } = o;
  for (let d = from; d < to; d++) {
    if (!has[d] || deleted?.[d] || (mask && !mask[view.base + d])) continue;
    const score = quantizedScore(quantized, qq, d, similarity);
    if (minScore !== undefined && score < minScore) continue;
    heap.offer(score, view.base + d);
  }
}

function maskOf(hits: Hits, maxDoc: number): Uint8Array {
  const mask = new Uint8Array(maxDoc);
  for (let i = 0; i < hits.docs.length; i++) mask[hits.docs[i]!] = 1;
  return mask;
}
