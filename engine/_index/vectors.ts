// Dense vectors: the `dense_vector` (and OpenSearch `knn_vector`) mapping, index-time validation,
// column storage in typed arrays, and the similarity → score formulas of Elasticsearch.

import { EngineError } from "../_errors.ts";
import {
  ColumnQuantizer,
  type QuantizedBits,
  type QuantizedColumn,
  type RetainedVectors,
  type Similarity,
  unitForCosine,
} from "./vector_quant.ts";

export type { Similarity };

/** What a vector field's mapping says. */
export interface VectorSpec {
  /** Number of dimensions. */
  readonly dims: number;
  /**
   * Similarity used by `knn` (and reported scores); null for a field that is not indexed, which
   * has none in Elasticsearch (so a zero vector is stored, as it stores it).
   */
  readonly similarity: Similarity | null;
  /** Whether the field is searchable by `knn` (`index`). */
  readonly indexed: boolean;
  /** `float` or `byte` elements. */
  readonly elementType: "float" | "byte";
  /** The mapping type (`dense_vector` or `knn_vector`), for messages. */
  readonly type: string;
  /**
   * Bits per dimension kNN scores with, when `index_options` quantise the vectors (7 for
   * `int8_*`, 4 for `int4_*`, 1 for `bbq_*`); null when kNN scores the raw floats.
   */
  readonly quantizedBits?: QuantizedBits | null;
  /** `index_options.rescore_vector.oversample` (kNN rescoring by default), when given. */
  readonly oversample?: number | null;
  /** `index_options.type` (`int8_hnsw`, `bbq_flat`, ...), when the mapping has one. */
  readonly indexType?: string | null;
}

/** Largest `dims` Elasticsearch accepts. */
export const MAX_DIMS = 4096;

const SIMILARITIES = new Set(["l2_norm", "cosine", "dot_product", "max_inner_product"]);
const OPENSEARCH_SPACES: Record<string, Similarity> = {
  l2: "l2_norm",
  cosinesimil: "cosine",
  innerproduct: "max_inner_product",
};

function mapperParsing(reason: string): EngineError {
  return new EngineError(400, "mapper_parsing_exception", reason);
}

/** Whether a mapping type stores dense vectors. */
export function isVectorType(type: unknown): boolean {
  return type === "dense_vector" || type === "knn_vector";
}

/**
 * Validates a vector field's mapping and reads it, throwing `mapper_parsing_exception` with
 * Elasticsearch's wording for bad `dims`, `similarity`, `element_type` or `index`.
 */
export function readVectorSpec(name: string, m: Record<string, unknown>): VectorSpec {
  const type = String(m.type);
  if (type === "knn_vector") {
    const dims = m.dimension;
    if (typeof dims !== "number" || !Number.isInteger(dims) || dims < 1 || dims > 16000) {
      throw mapperParsing(`Dimension value must be a positive integer for vector: ${name}`);
    }
    const method = (m.method ?? {}) as Record<string, unknown>;
    const space = String(method.space_type ?? m.space_type ?? "l2");
    const similarity = OPENSEARCH_SPACES[space];
    if (!similarity) {
      throw mapperParsing(`Unable to find space: ${space} for vector field [${name}]`);
    }
    return { dims, similarity, indexed: true, elementType: "float", type, quantizedBits: null };
  }
  const dims = m.dims;
  const indexed = m.index === undefined ? true : m.index === true || m.index === "true";
  if (dims !== undefined) {
    if (typeof dims !== "number" || !Number.isInteger(dims)) {
      throw mapperParsing(`[dims] must be an integer for field [${name}]`);
    }
    if (dims < 1 || dims > MAX_DIMS) {
      throw mapperParsing(
        `The number of dimensions should be in the range [1, ${MAX_DIMS}] but was [${dims}]`,
      );
    }
  }
  const elementType = String(m.element_type ?? "float");
  if (elementType !== "float" && elementType !== "byte") {
    throw mapperParsing(
      `invalid element_type [${elementType}]; available types are [float, byte]`,
    );
  }
  if (m.similarity !== undefined && !indexed) {
    throw mapperParsing(
      `Field [similarity] can only be specified for a field of type [dense_vector] when it is indexed [index: true]`,
    );
  }
  const similarity = String(m.similarity ?? "cosine");
  if (!SIMILARITIES.has(similarity)) {
    throw mapperParsing(
      `Unknown value [${similarity}] for field [similarity] - accepted values are [l2_norm, dot_product, cosine, max_inner_product]`,
    );
  }
  const options = m.index_options as Record<string, unknown> | null | undefined;
  const kind = options && typeof options === "object" ? String(options.type) : "";
  if (kind) checkIndexOptions(name, kind, { dims: dims as number | undefined, elementType });
  const rescore = options && typeof options === "object"
    ? options.rescore_vector as Record<string, unknown> | undefined
    : undefined;
  return {
    // Without dims, the first document's vector sets them (0 until then).
    dims: (dims as number | undefined) ?? 0,
    similarity: indexed ? similarity as Similarity : null,
    indexed,
    elementType,
    type,
    quantizedBits: indexed && elementType === "float"
      // bbq_disk (IVF, clusters of its own) is not modelled: its raw floats are scored.
      ? QUANTIZED_BITS[kind] ?? (kind === "bbq_hnsw" || kind === "bbq_flat" ? 1 : null)
      : null,
    indexType: indexed && kind ? kind : null,
    oversample: typeof rescore?.oversample === "number" ? rescore.oversample : null,
  };
}

/** Elasticsearch 9's `index_options` types. */
const INDEX_TYPES = new Set([
  "hnsw",
  "int8_hnsw",
  "int4_hnsw",
  "bbq_hnsw",
  "flat",
  "int8_flat",
  "int4_flat",
  "bbq_flat",
  "bbq_disk",
]);

/** A parser's argument error, as the mapping parser reports it (wrapped with the same reason). */
function argumentError(reason: string): EngineError {
  return new EngineError(400, "mapper_parsing_exception", reason, {
    causedBy: new EngineError(400, "illegal_argument_exception", reason),
  });
}

/** Refuses `index_options` Elasticsearch refuses: unknown types, int4 of odd dims, byte ones. */
function checkIndexOptions(
  name: string,
  kind: string,
  field: { dims: number | undefined; elementType: string },
): void {
  if (!INDEX_TYPES.has(kind)) {
    throw mapperParsing(`Unknown vector index options type [${kind}] for field [${name}]`);
  }
  const bits = QUANTIZED_BITS[kind];
  if (bits && field.elementType !== "float") {
    throw argumentError(
      `[element_type] cannot be [${field.elementType}] when using index type [${kind}]`,
    );
  }
  if (bits === 4 && field.dims !== undefined && field.dims % 2 !== 0) {
    throw argumentError(`${kind} only supports even dimensions; provided=${field.dims}`);
  }
}

/** Bits per dimension of the scalar-quantised `index_options` types. */
const QUANTIZED_BITS: Record<string, 7 | 4> = {
  int8_hnsw: 7,
  int8_flat: 7,
  int4_hnsw: 4,
  int4_flat: 4,
};

/** A 32-bit float as Java's `Float.toString` writes it (`1.0`, `0.25`, `3.4028235E38`). */
function javaFloat(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  let digits = x.toPrecision(9);
  for (let p = 1; p <= 9; p++) {
    const t = x.toPrecision(p);
    if (Math.fround(Number(t)) === x) {
      digits = t;
      break;
    }
  }
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const plain = String(Number(digits));
    return plain.includes(".") ? plain : `${plain}.0`;
  }
  const [mantissa, exp] = Number(digits).toExponential().split("e");
  return `${mantissa!.includes(".") ? mantissa : `${mantissa}.0`}E${Number(exp)}`;
}

function preview(v: readonly unknown[]): string {
  const shown = v.slice(0, 10).map((x) =>
    typeof x === "number" ? javaFloat(Math.fround(x)) : String(x)
  );
  return `[${shown.join(", ")}${v.length > 10 ? ", ..." : ""}]`;
}

/**
 * Why `value` cannot be indexed into a vector field (the reason text), or undefined when it can:
 * a flat array of `dims` finite numbers, integers in [-128, 127] for bytes, non-zero under cosine,
 * unit length under dot_product.
 */
export function vectorProblem(spec: VectorSpec, field: string, value: unknown): string | undefined {
  if (!Array.isArray(value)) {
    return `The [${spec.type}] field [${field}] must be an array of numbers, got [${typeof value}]`;
  }
  if (spec.dims === 0 && (value.length < 1 || value.length > MAX_DIMS)) {
    return `The number of dimensions should be in the range [1, ${MAX_DIMS}] but was [${value.length}]`;
  }
  if (spec.dims !== 0 && value.length !== spec.dims) {
    return value.length > spec.dims
      ? `The [${spec.type}] field [${field}] has more dimensions than defined in the mapping [${spec.dims}]`
      : `The [${spec.type}] field [${field}] has a different number of dimensions [${value.length}] than defined in the mapping [${spec.dims}]`;
  }
  let square = 0;
  for (let i = 0; i < value.length; i++) {
    const given = value[i];
    // Stored as 32-bit floats: narrowed first, so 1e39 is the infinity Elasticsearch refuses.
    const x = typeof given === "number" && spec.elementType === "float"
      ? Math.fround(given)
      : given;
    if (typeof x !== "number") {
      return `The [${spec.type}] field [${field}] must hold numbers, found [${
        JSON.stringify(x)
      }] at dim [${i}]`;
    }
    if (!Number.isFinite(x)) {
      return `element_type [float] vectors do not support infinite values but found [${
        javaFloat(x)
      }] at dim [${i}]; Preview of invalid vector: ${preview(value)}`;
    }
    if (spec.elementType === "byte" && (!Number.isInteger(x) || x < -128 || x > 127)) {
      return `element_type [byte] vectors only support integers between [-128, 127] but found [${x}] at dim [${i}]; Preview of invalid vector: ${
        preview(value)
      }`;
    }
    square = spec.elementType === "float"
      ? Math.fround(square + Math.fround(x * x))
      : square + x * x;
  }
  if (!Number.isFinite(square)) {
    return `NaN or Infinite magnitude detected, this usually means the vector values are too extreme to fit within a float. Preview of invalid vector: ${
      preview(value)
    }`;
  }
  if (spec.similarity === "cosine" && square === 0) {
    return `The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: ${
      preview(value)
    }`;
  }
  if (
    spec.similarity === "dot_product" && spec.elementType === "float" &&
    Math.abs(square - 1) > 1e-4
  ) {
    return `The [dot_product] similarity can only be used with unit-length vectors. Preview of invalid vector: ${
      preview(value)
    }`;
  }
  return undefined;
}

/**
 * Refuses a mapping update that changes what stored vectors mean (`dims` once set, `similarity`,
 * `element_type`), as Elasticsearch's "Cannot update parameter" conflict.
 */
export function checkVectorUpdate(
  path: string,
  existing: Record<string, unknown>,
  incoming: Record<string, unknown>,
): void {
  const defaults: Record<string, unknown> = { similarity: "cosine", element_type: "float" };
  for (const key of ["dims", "dimension", "similarity", "element_type"]) {
    const before = existing[key] ?? defaults[key];
    const after = incoming[key] ?? defaults[key];
    if (before === undefined || before === after) continue;
    throw new EngineError(
      400,
      "illegal_argument_exception",
      `Mapper for [${path}] conflicts with existing mapper:\n\tCannot update parameter [${key}] from [${before}] to [${after}]`,
    );
  }
}

/** Shortest float array Elasticsearch maps dynamically as a `dense_vector`. */
export const MIN_DYNAMIC_DIMS = 128;

/**
 * The dynamic mapping of a new field holding `value`, when Elasticsearch would make it a
 * `dense_vector`: an array of 128 to 4096 numbers starting with a float, not all zero.
 */
export function dynamicVectorMapping(value: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(value) || value.length < MIN_DYNAMIC_DIMS || value.length > MAX_DIMS) {
    return undefined;
  }
  const first = value[0];
  if (typeof first !== "number" || Number.isInteger(first)) return undefined;
  if (!value.every((x) => typeof x === "number" && Number.isFinite(x))) return undefined;
  if (value.every((x) => x === 0)) return undefined;
  return withVectorDefaults({ type: "dense_vector", dims: value.length });
}

/** Dimensions from which Elasticsearch 9 quantizes an indexed vector with BBQ by default. */
const BBQ_MIN_DIMS = 384;

/** `index_options` types that build an HNSW graph (and so print `m` and `ef_construction`). */
const HNSW_TYPES = new Set(["hnsw", "int8_hnsw", "int4_hnsw", "bbq_hnsw"]);

/** BBQ types: Elasticsearch 9 rescores them on the raw vectors by default (`oversample` 3). */
const BBQ_TYPES = new Set(["bbq_hnsw", "bbq_flat"]);

/**
 * A `dense_vector` mapping with the defaults Elasticsearch 9 fills in and prints, in its order
 * (`type`, a non-float `element_type`, `dims`, `index`, `similarity`, `index_options`): indexed,
 * cosine similarity; with dims known and float elements, an HNSW graph (`m` 16,
 * `ef_construction` 100) quantized to int8, or with BBQ from 384 dimensions. Given
 * `index_options` are completed the same way: `m`/`ef_construction` on graph types, and
 * `rescore_vector.oversample` 3 on BBQ types. Other mappings are returned as they are.
 *
 * @example
 * ```ts
 * import { withVectorDefaults } from "./vectors.ts";
 * const m = withVectorDefaults({ type: "dense_vector", dims: 4, index_options: { type: "hnsw" } });
 * console.assert(JSON.stringify(m) ===
 *   '{"type":"dense_vector","dims":4,"index":true,"similarity":"cosine",' +
 *   '"index_options":{"type":"hnsw","m":16,"ef_construction":100}}');
 * ```
 */
export function withVectorDefaults(m: Record<string, unknown>): Record<string, unknown> {
  if (m.type !== "dense_vector") return m;
  const { type, element_type, dims, index, similarity, index_options, ...rest } = m;
  const out: Record<string, unknown> = { type };
  const element = element_type ?? "float";
  if (element !== "float") out.element_type = element_type;
  if (dims !== undefined) out.dims = dims;
  if (index === false || index === "false") {
    out.index = index;
    if (similarity !== undefined) out.similarity = similarity;
    if (index_options !== undefined) out.index_options = index_options;
    return Object.assign(out, rest);
  }
  out.index = true;
  out.similarity = similarity ?? "cosine";
  let options = index_options as Record<string, unknown> | undefined;
  if (options === undefined && typeof dims === "number" && element === "float") {
    options = { type: dims >= BBQ_MIN_DIMS ? "bbq_hnsw" : "int8_hnsw" };
  }
  if (options !== null && typeof options === "object" && !Array.isArray(options)) {
    const { type: kind, m: links, ef_construction, ...more } = options;
    const filled: Record<string, unknown> = { type: kind };
    if (HNSW_TYPES.has(String(kind))) {
      filled.m = links ?? 16;
      filled.ef_construction = ef_construction ?? 100;
    } else {
      if (links !== undefined) filled.m = links;
      if (ef_construction !== undefined) filled.ef_construction = ef_construction;
    }
    Object.assign(filled, more);
    if (BBQ_TYPES.has(String(kind)) && filled.rescore_vector === undefined) {
      filled.rescore_vector = { oversample: 3 };
    }
    out.index_options = filled;
  } else if (options !== undefined) out.index_options = options;
  return Object.assign(out, rest);
}

/** One segment's vectors of one field: `dims` floats per doc, and each doc's magnitude. */
export interface VectorColumn {
  /** The field's mapping. */
  readonly spec: VectorSpec;
  /** Elements, doc after doc (`maxDoc × dims`; zeros where a doc has no vector). */
  readonly data: Float32Array;
  /** 1 where the doc has a vector. */
  readonly has: Uint8Array;
  /** Euclidean length per doc. */
  readonly magnitude: Float32Array;
  /** Number of docs having a vector. */
  readonly count: number;
  /** Deleted documents' vectors that Elasticsearch would still hold here after merges. */
  readonly retained?: RetainedVectors;
}

/** One input of a merge: its vector columns and the deletions the merge saw. */
export interface MergedVectorsInput {
  readonly vectors: ReadonlyMap<string, VectorColumn>;
  readonly deleted: Uint8Array | null;
}

/**
 * After a merge that dropped deleted documents: gives each merged column the vectors
 * Elasticsearch's merge would have kept (its soft deletes, kept for history), those the inputs
 * held for deleted documents and those they kept already, so the quantisation centroid and the
 * `_stats` counts go on counting them.
 */
export function carryDeletedVectors(
  merged: Map<string, VectorColumn>,
  inputs: readonly MergedVectorsInput[],
): void {
  for (const [path, col] of merged) {
    const dims = col.spec.dims;
    if (!col.spec.indexed || dims === 0) continue;
    const cosine = col.spec.similarity === "cosine";
    const sum = new Float32Array(dims);
    const unit = new Float32Array(dims);
    let count = 0;
    for (const input of inputs) {
      const from = input.vectors.get(path);
      if (!from || from.spec.dims !== dims) continue;
      if (from.retained) {
        for (let i = 0; i < dims; i++) sum[i] = Math.fround(sum[i]! + from.retained.sum[i]!);
        count += from.retained.count;
      }
      const deleted = input.deleted;
      if (!deleted) continue;
      for (let d = 0; d < from.has.length; d++) {
        if (!from.has[d] || !deleted[d]) continue;
        const v = cosine
          ? unitForCosine(from.data, d * dims, dims, unit)
          : from.data.subarray(d * dims, d * dims + dims);
        for (let i = 0; i < dims; i++) sum[i] = Math.fround(sum[i]! + v[i]!);
        count++;
      }
    }
    if (count > 0) merged.set(path, { ...col, retained: { sum, count } });
  }
}

/** Builds a column from `(doc, vector)` pairs of a segment of `maxDoc` docs. */
export function buildVectorColumn(
  spec: VectorSpec,
  maxDoc: number,
  entries: ReadonlyArray<readonly [number, readonly number[]]>,
): VectorColumn {
  const dims = spec.dims;
  const data = new Float32Array(maxDoc * dims);
  const has = new Uint8Array(maxDoc);
  const magnitude = new Float32Array(maxDoc);
  for (const [doc, vector] of entries) {
    const at = doc * dims;
    let square = 0;
    for (let i = 0; i < dims; i++) {
      const x = Math.fround(vector[i] ?? 0);
      data[at + i] = x;
      square += x * x;
    }
    has[doc] = 1;
    magnitude[doc] = Math.sqrt(square);
  }
  return { spec, data, has, magnitude, count: entries.length };
}

const quantizers = new WeakMap<VectorColumn, ColumnQuantizer>();

/** The column's quantiser, shared by every search of its segment; null for raw floats only. */
function quantizerOf(col: VectorColumn): ColumnQuantizer | null {
  const { spec } = col;
  const bits = spec.quantizedBits;
  if (!bits || !spec.similarity || col.count === 0) return null;
  let q = quantizers.get(col);
  if (!q) {
    q = new ColumnQuantizer({
      data: col.data,
      has: col.has,
      dims: spec.dims,
      bits,
      similarity: spec.similarity,
      ...(col.retained ? { retained: col.retained } : {}),
    });
    quantizers.set(col, q);
  }
  return q;
}

/**
 * The column's vectors quantised as its `index_options` say (`int8_*`, `int4_*`, `bbq_*`), made
 * on the first kNN search that scores them (at once, or in steps by {@link quantizeSteps}) and
 * kept with the column (its segment never changes); null when the mapping keeps raw floats only.
 */
export function quantizedOf(col: VectorColumn): QuantizedColumn | null {
  return quantizerOf(col)?.advance(Infinity) ?? null;
}

/** Vector elements quantised between two pause points of {@link quantizeSteps} (about 1 ms). */
export const QUANTIZE_STEP_ELEMENTS = 32_768;

/**
 * Makes the quantised codes of `columns` that have none yet, yielding every
 * {@link QUANTIZE_STEP_ELEMENTS} elements where a time-sliced search may pause. A search that
 * needs codes being made by another one takes the work on where that one left it.
 */
export function* quantizeSteps(columns: Iterable<VectorColumn>): Generator<void, void, void> {
  for (const col of columns) {
    const q = quantizerOf(col);
    if (!q) continue;
    while (!q.advance(QUANTIZE_STEP_ELEMENTS)) yield;
  }
}

/**
 * The bytes Elasticsearch reports per vector in `_stats` `dense_vector.off_heap`: the raw
 * elements (`vec`), scalar-quantised codes with 16 bytes of corrections (`veq`), and BBQ's bits
 * with 14 bytes of corrections (`veb`).
 */
export function offHeapBytesPerVector(spec: VectorSpec): { vec: number; veq: number; veb: number } {
  const dims = spec.dims;
  const vec = dims * (spec.elementType === "byte" ? 1 : 4);
  const bits = spec.quantizedBits;
  const veq = bits === 7 ? dims + 16 : bits === 4 ? Math.ceil(dims / 2) + 16 : 0;
  const bbq = spec.quantizedBits === 1;
  return { vec, veq, veb: bbq ? Math.ceil(dims / 8) + 14 : 0 };
}

/** Dot product of `q` with the vector at `data[at .. at+q.length)`. */
export function dotAt(q: Float32Array, data: Float32Array, at: number): number {
  let s = 0;
  const n = q.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s += q[i]! * data[at + i]! + q[i + 1]! * data[at + i + 1]! + q[i + 2]! * data[at + i + 2]! +
      q[i + 3]! * data[at + i + 3]!;
  }
  for (; i < n; i++) s += q[i]! * data[at + i]!;
  return s;
}

/** Squared Euclidean distance of `q` to the vector at `data[at ..]`. */
export function squaredL2At(q: Float32Array, data: Float32Array, at: number): number {
  let s = 0;
  const n = q.length;
  for (let i = 0; i < n; i++) {
    const d = q[i]! - data[at + i]!;
    s += d * d;
  }
  return s;
}

/**
 * The raw similarity of a doc's vector to the query (what `knn.similarity` thresholds compare):
 * the L2 distance for `l2_norm`, the cosine for `cosine`, the dot product otherwise.
 */
export function rawSimilarity(
  col: VectorColumn,
  q: Float32Array,
  qMagnitude: number,
  doc: number,
): number {
  const at = doc * col.spec.dims;
  switch (col.spec.similarity) {
    case "l2_norm":
      return Math.sqrt(squaredL2At(q, col.data, at));
    case "cosine":
      return dotAt(q, col.data, at) / (qMagnitude * col.magnitude[doc]!);
    default:
      return dotAt(q, col.data, at);
  }
}

/** Turns a raw similarity into the `_score` Elasticsearch reports for it. */
export function scoreOf(spec: VectorSpec, raw: number): number {
  switch (spec.similarity ?? "cosine") {
    case "l2_norm":
      return 1 / (1 + raw * raw);
    case "cosine":
      return Math.max((1 + raw) / 2, 0);
    case "dot_product":
      return spec.elementType === "byte"
        ? 0.5 + raw / (32768 * spec.dims)
        : Math.max((1 + raw) / 2, 0);
    case "max_inner_product":
      return raw < 0 ? 1 / (1 - raw) : raw + 1;
  }
}

/** Whether `raw` passes a `similarity` threshold (a distance bound for `l2_norm`). */
export function passesThreshold(spec: VectorSpec, raw: number, threshold: number): boolean {
  return spec.similarity === "l2_norm" ? raw <= threshold : raw >= threshold;
}
