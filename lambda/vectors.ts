// Vector conditions and orders: their checks, and how each compiles — a `knn` section
// (Elasticsearch 8+), OpenSearch's `knn` query, or an exact `script_score`/`script` query. Script
// sources are constants: the vector, the field name and the threshold are always `params`, bound
// as arguments.

import type { BoundTemplate } from "../template/mod.ts";
import type { ConditionNode } from "./nodes.ts";

/**
 * A vector metric: L2 distance, cosine, inner product, Hamming distance.
 *
 * @example
 * ```ts
 * import type { VectorMetric } from "@searchvisitor/searchvisitor/lambda";
 * import assert from "node:assert/strict";
 *
 * const metrics: VectorMetric[] = ["l2", "cosine", "ip", "hamming"];
 * assert.equal(metrics.length, 4);
 * ```
 */
export type VectorMetric = "l2" | "cosine" | "ip" | "hamming";

/**
 * How vector orders are sent: `"knn"` (the `knn` search section, Elasticsearch 8+), `"opensearch"`
 * (OpenSearch's `knn` query), `"script"` (an exact `script_score`, any version), or `"auto"`
 * (from the server's `GET /`; the default).
 *
 * @example
 * ```ts
 * import type { VectorDialect } from "@searchvisitor/searchvisitor/lambda";
 * import assert from "node:assert/strict";
 *
 * const dialects: VectorDialect[] = ["auto", "knn", "opensearch", "script"];
 * assert.equal(dialects.length, 4);
 * ```
 */
export type VectorDialect = "auto" | "knn" | "opensearch" | "script";

/** An order by similarity to a query vector (`orderByL2`, ...). */
export interface VectorOrder {
  /** The metric. */
  readonly metric: VectorMetric;
  /** The document field holding the vectors. */
  readonly field: string;
  /** The query vector. */
  readonly vector: readonly number[];
}

/**
 * `k` and `num_candidates` of a kNN search (`QueryBuilder.knnOptions`).
 *
 * @example
 * ```ts
 * import { LambdaTemplate, type KnnOptions } from "@searchvisitor/searchvisitor/lambda";
 * import { DataSource } from "@searchvisitor/searchvisitor/driver";
 * import assert from "node:assert/strict";
 *
 * const options: KnnOptions = { k: 5, numCandidates: 50 };
 * const lambda = new LambdaTemplate(new DataSource("http://127.0.0.1:9200"));
 * const q = lambda.query("docs").orderByCosine("emb", [0.6, 0.8]).knnOptions(options);
 * assert.deepEqual(q.toCommand().args, ["docs", [0.6, 0.8], 5, 50, 5]);
 * ```
 */
export interface KnnOptions {
  /** How many nearest documents (default: from + size of the page, or 10). */
  readonly k?: number;
  /** Candidates per shard (default 1.5 × k, at most 10,000). */
  readonly numCandidates?: number;
}

/** Checks and freezes a query vector (finite numbers, at least one). */
export function checkVector(method: string, field: string, vector: unknown): readonly number[] {
  const at = `${method}(${JSON.stringify(field)})`;
  if (!Array.isArray(vector) && !(ArrayBuffer.isView(vector) && !(vector instanceof DataView))) {
    throw new TypeError(`${at}: the vector must be an array of numbers`);
  }
  const list = Array.from(vector as ArrayLike<unknown>);
  if (list.length === 0) throw new TypeError(`${at}: the vector is empty`);
  list.forEach((x, i) => {
    if (typeof x !== "number" || !Number.isFinite(x)) {
      throw new TypeError(`${at}: element ${i} (${String(x)}) is not a finite number`);
    }
  });
  return Object.freeze(list as number[]);
}

/** Checks a threshold: a finite number. */
export function checkThreshold(method: string, field: string, threshold: unknown): number {
  if (typeof threshold !== "number" || !Number.isFinite(threshold)) {
    throw new TypeError(
      `${method}(${JSON.stringify(field)}): the threshold must be a finite number`,
    );
  }
  return threshold;
}

/** Checks `k` / `numCandidates` the way Elasticsearch will. */
export function checkKnnOptions(options: KnnOptions): KnnOptions {
  const { k, numCandidates } = options;
  for (const [name, v] of [["k", k], ["numCandidates", numCandidates]] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > 10_000)) {
      throw new TypeError(`knnOptions: ${name} must be an integer from 1 to 10000, got ${v}`);
    }
  }
  if (k !== undefined && numCandidates !== undefined && numCandidates < k) {
    throw new TypeError(
      `knnOptions: numCandidates (${numCandidates}) cannot be less than k (${k})`,
    );
  }
  return Object.freeze({ ...options });
}

/** Filter scripts of `vectorBy*`: true when the doc's vector is within the threshold. */
export const FILTER_SCRIPTS: Readonly<Record<Exclude<VectorMetric, "hamming">, string>> = {
  l2: "doc[params.field].size() != 0 && l2norm(params.vector, params.field) <= params.threshold",
  cosine:
    "doc[params.field].size() != 0 && 1.0 - cosineSimilarity(params.vector, params.field) <= params.threshold",
  ip:
    "doc[params.field].size() != 0 && dotProduct(params.vector, params.field) >= params.threshold",
};

/** Score scripts of `orderBy*`: higher is nearer, never negative. */
export const SCORE_SCRIPTS: Readonly<Record<VectorMetric, string>> = {
  l2: "1.0 / (1.0 + l2norm(params.vector, params.field))",
  cosine: "(1.0 + cosineSimilarity(params.vector, params.field)) / 2.0",
  ip:
    "double d = dotProduct(params.vector, params.field); if (d < 0) { return 1.0 / (1.0 - d); } return d + 1.0;",
  hamming: "1.0 / (1.0 + hamming(params.vector, params.field))",
};

/** The mapping similarities whose kNN ranking is the metric's own. */
const SAME_RANKING: Readonly<Record<VectorMetric, readonly string[]>> = {
  l2: ["l2_norm", "l2"],
  cosine: ["cosine", "cosinesimil"],
  ip: ["dot_product", "max_inner_product", "innerproduct"],
  hamming: [],
};

/**
 * Whether a kNN search on a field mapped with `similarity` ranks by `metric` (unknown similarity:
 * assumed so). Hamming always goes through a script.
 */
export function knnRanksBy(metric: VectorMetric, similarity: string | undefined): boolean {
  if (metric === "hamming") return false;
  return similarity === undefined || SAME_RANKING[metric].includes(similarity);
}

/** Emits one bound argument and returns its placeholder. */
export type Arg = (value: unknown) => string;

const q = JSON.stringify;

/** A `vectorBy*` condition: the node the builder made. */
export type VectorCondition = Extract<ConditionNode, { kind: "vector" }>;

/** `{"script":{"script":{...}}}` of a `vectorBy*` condition; every value bound. */
export function filterClause(arg: Arg, condition: VectorCondition): string {
  const { metric, field, vector, threshold } = condition;
  return `{"script":{"script":{"source":${q(FILTER_SCRIPTS[metric])},"lang":"painless",` +
    `"params":{"vector":${arg(vector)},"field":${arg(field)},"threshold":${arg(threshold)}}}}}`;
}

/**
 * A `vectorBy*` threshold for OpenSearch, whose Painless lacks Elasticsearch's vector functions:
 * its `knn_score` script in a `script_score` whose `min_score` is the threshold's score (bound).
 */
export function openSearchFilter(arg: Arg, condition: VectorCondition): string {
  const { metric, field, vector, threshold } = condition;
  // knn_score scores: l2 1/(1+d²), cosinesimil 1+cos, innerproduct dot+1 or 1/(1-dot).
  const minScore = metric === "l2"
    ? 1 / (1 + threshold * threshold)
    : metric === "cosine"
    ? 2 - threshold
    : threshold >= 0
    ? threshold + 1
    : 1 / (1 - threshold);
  return `{"script_score":{"query":{"exists":{"field":${
    q(field)
  }}},"script":{"source":"knn_score",` +
    `"lang":"knn","params":{"field":${arg(field)},"query_value":${arg(vector)},"space_type":${
      arg(KNN_SCORE_SPACES[metric])
    }}},"min_score":${arg(minScore)}}}`;
}

/** Whether a condition tree holds a vector threshold. */
export function hasVectorCondition(where: ConditionNode | null): boolean {
  if (where === null) return false;
  switch (where.kind) {
    case "vector":
      return true;
    case "and":
    case "or":
      return where.items.some(hasVectorCondition);
    case "not":
      return hasVectorCondition(where.item);
    default:
      return false;
  }
}

/** What a vector search compiles with: the order, its k, and the dialect chosen for it. */
export interface VectorSearch {
  /** The order. */
  readonly order: VectorOrder;
  /** Nearest documents to return. */
  readonly k: number;
  /** Candidates per shard; 1.5 × k when undefined. */
  readonly numCandidates?: number;
  /** How the order is sent. */
  readonly dialect: Exclude<VectorDialect, "auto">;
  /** The server is OpenSearch: an exact order uses its `knn_score` script. */
  readonly openSearch?: boolean;
}

/** OpenSearch's `knn_score` space of each metric. */
export const KNN_SCORE_SPACES: Readonly<Record<VectorMetric, string>> = {
  l2: "l2",
  cosine: "cosinesimil",
  ip: "innerproduct",
  hamming: "hammingbit",
};

/** The parts of a search a vector search keeps: projection, tie-break keys, paging. */
export interface VectorPage {
  /** `_source` fields. */
  readonly source?: readonly string[];
  /** Further sort keys, after similarity. */
  readonly sort: readonly { readonly field: string; readonly order: "asc" | "desc" }[];
  /** First hit. */
  readonly from?: number;
  /** Hits to return. */
  readonly size: number;
  /** Ask for each hit's version: `_seq_no` or `_version`. */
  readonly versions?: "seq_no" | "external";
  /** Count every match exactly; default true. */
  readonly trackTotal?: boolean;
}

/** The compiler's emitting side, handed in (so this file does not import the compiler). */
export interface VectorEmit {
  /** The index placeholder, already emitted. */
  readonly index: string;
  /** Emits one argument. */
  readonly arg: Arg;
  /** Emits the conditions' query (null without conditions); called where it goes in the text. */
  readonly where: () => string | null;
  /** A sort key's JSON. */
  readonly sortKey: (key: VectorPage["sort"][number]) => string;
  /** The arguments emitted so far (and to come). */
  readonly args: unknown[];
}

/**
 * The `_search` command of a query ordered by similarity: the `knn` section (conditions as its
 * pre-filter), OpenSearch's `knn` query (conditions as its filter), or an exact `script_score`.
 */
export function compileVectorSearch(
  page: VectorPage,
  v: VectorSearch,
  e: VectorEmit,
): BoundTemplate {
  const { order, k } = v;
  let body: string;
  if (v.dialect === "knn") {
    body = `{"knn":{"field":${q(order.field)},"query_vector":${e.arg(order.vector)},"k":${
      e.arg(k)
    },"num_candidates":${e.arg(v.numCandidates ?? defaultCandidates(k))}`;
    const filter = e.where();
    body += filter === null ? "}" : `,"filter":${filter}}`;
  } else if (v.dialect === "opensearch") {
    body = `{"query":{"knn":{${q(order.field)}:{"vector":${e.arg(order.vector)},"k":${e.arg(k)}`;
    const filter = e.where();
    body += filter === null ? "}}}" : `,"filter":${filter}}}}`;
  } else {
    const exists = `{"exists":{"field":${q(order.field)}}}`;
    const where = e.where();
    const inner = where === null
      ? `{"bool":{"filter":[${exists}]}}`
      : `{"bool":{"must":[${where}],"filter":[${exists}]}}`;
    body = v.openSearch
      ? `{"query":{"script_score":{"query":${inner},"script":{"source":"knn_score","lang":"knn",` +
        `"params":{"field":${e.arg(order.field)},"query_value":${e.arg(order.vector)},` +
        `"space_type":${e.arg(KNN_SCORE_SPACES[order.metric])}}}}}`
      : `{"query":{"script_score":{"query":${inner},"script":{"source":${
        q(SCORE_SCRIPTS[order.metric])
      },"lang":"painless","params":{"vector":${e.arg(order.vector)},"field":${
        e.arg(order.field)
      }}}}}`;
  }
  if (page.source !== undefined) body += `,"_source":[${page.source.map((f) => q(f)).join(",")}]`;
  if (page.sort.length > 0) {
    body += `,"sort":[{"_score":{"order":"desc"}},${page.sort.map(e.sortKey).join(",")}]`;
  }
  if (page.versions === "seq_no") body += `,"seq_no_primary_term":true`;
  else if (page.versions === "external") body += `,"version":true`;
  if (page.from !== undefined && page.from > 0) body += `,"from":${e.arg(page.from)}`;
  body += `,"size":${e.arg(page.size)}`;
  body += page.trackTotal === false ? "}" : `,"track_total_hits":true}`;
  return { text: `POST /{${e.index}}/_search ${body}`, args: e.args };
}

/** Default `num_candidates`: 1.5 × k, at least k, at most 10,000. */
export function defaultCandidates(k: number): number {
  return Math.max(k, Math.min(Math.ceil(k * 1.5), 10_000));
}
