// Scalar-quantised vectors as Elasticsearch 9 keeps them for `int8_*`, `int4_*` and `bbq_*` index
// options: optimized scalar quantization. Per segment, the vectors' mean is the centroid; each
// vector is centred on it and quantised to 7 (int8), 4 (int4) or 1 (BBQ) bits over an interval
// chosen per vector (a few steps of coordinate descent on an anisotropic loss), keeping four
// corrective terms.
// A kNN query vector is quantised the same way against the segment's centroid and scored from the
// integer dot product and both vectors' corrections. Float arithmetic is narrowed to 32 bits where
// the real engine works in floats, so scores agree to the last few bits.

/** A vector similarity as the mapping names it. */
export type Similarity = "l2_norm" | "cosine" | "dot_product" | "max_inner_product";

const f = Math.fround;

/** Starting interval (in standard deviations) per bit count, before the descent refines it. */
const MSE_GRID: readonly (readonly [number, number])[] = [
  [-0.798, 0.798],
  [-1.493, 1.493],
  [-2.051, 2.051],
  [-2.514, 2.514],
  [-2.916, 2.916],
  [-3.278, 3.278],
  [-3.611, 3.611],
  [-3.922, 3.922],
].map(([a, b]) => [f(a!), f(b!)] as const);

const LAMBDA = f(0.1);
const ITERS = 5;

/** What one vector's quantisation keeps beside its codes. */
export interface Corrections {
  /** Lower end of the interval. */
  readonly lower: number;
  /** Upper end of the interval. */
  readonly upper: number;
  /** The centred vector's squared length (l2_norm) or the raw vector's dot with the centroid. */
  readonly additional: number;
  /** Sum of the codes. */
  readonly componentSum: number;
}

/** Bits per dimension: 7 (`int8_*`), 4 (`int4_*`) or 1 (BBQ). */
export type QuantizedBits = 7 | 4 | 1;

/** One segment's quantised vectors of one field. */
export interface QuantizedColumn {
  /** Bits per dimension of the documents. */
  readonly bits: QuantizedBits;
  /** Bits per dimension of a query: as the documents', 4 under BBQ. */
  readonly queryBits: 7 | 4;
  /** The mean of the segment's (normalised, under cosine) vectors. */
  readonly centroid: Float32Array;
  /** The centroid's dot product with itself. */
  readonly centroidDp: number;
  /** Codes, doc after doc (`maxDoc × dims`). */
  readonly codes: Uint8Array;
  /** Per doc: lower, upper, additional correction. */
  readonly terms: Float32Array;
  /** Per doc: sum of the codes. */
  readonly sums: Int32Array;
}

function javaRound(x: number): number {
  return Number.isNaN(x) ? 0 : Math.floor(x + 0.5);
}

function clamp(x: number, a: number, b: number): number {
  return Math.min(Math.max(x, a), b);
}

/** Dot product accumulated in 32-bit floats, in order. */
function floatDot(a: ArrayLike<number>, b: ArrayLike<number>, at = 0): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = f(s + f(a[i]! * b[at + i]!));
  return s;
}

/**
 * The vector Elasticsearch indexes under `cosine`: divided by its length unless its squared
 * length is within 0.001 of 1 (then kept as it is). Written to `out` (a new array by default).
 */
export function unitForCosine(
  v: ArrayLike<number>,
  at: number,
  dims: number,
  out: Float32Array = new Float32Array(dims),
): Float32Array {
  let square = 0;
  for (let i = 0; i < dims; i++) {
    out[i] = v[at + i]!;
    square = f(square + f(out[i]! * out[i]!));
  }
  if (Math.abs(f(square - 1)) < f(0.001)) return out;
  const length = f(Math.sqrt(square));
  for (let i = 0; i < dims; i++) out[i] = f(out[i]! / length);
  return out;
}

/** What the loss of a vector depends on besides the interval: its levels and squared length. */
interface Shape {
  readonly points: number;
  readonly norm2: number;
}

/** The quantisation loss of `x` over `[a, b]` (how far the round trip lands, weighted). */
function loss(x: Float32Array, [a, b]: readonly [number, number], shape: Shape): number {
  const { points, norm2 } = shape;
  const step = (b - a) / f(points - 1);
  const stepInv = 1 / step;
  let xe = 0;
  let e = 0;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i]!;
    const xiq = a + step * javaRound((clamp(xi, a, b) - a) * stepInv);
    xe += xi * (xi - xiq);
    e += (xi - xiq) * (xi - xiq);
  }
  return (1 - LAMBDA) * xe * xe / norm2 + LAMBDA * e;
}

/** Refines `interval` in place by coordinate descent, stopping when the loss stops falling. */
function optimize(interval: Float32Array, x: Float32Array, norm2: number, points: number): void {
  const shape = { points, norm2 };
  let best = loss(x, [interval[0]!, interval[1]!], shape);
  const scale = f(f(1 - LAMBDA) / norm2);
  if (!Number.isFinite(scale)) return;
  for (let it = 0; it < ITERS; it++) {
    const a = interval[0]!;
    const b = interval[1]!;
    const stepInv = f(f(points - 1) / f(b - a));
    let daa = 0, dab = 0, dbb = 0, dax = 0, dbx = 0;
    for (let i = 0; i < x.length; i++) {
      const xi = x[i]!;
      const k = javaRound((clamp(xi, a, b) - a) * stepInv);
      const s = f(k / (points - 1));
      daa += (1 - s) * (1 - s);
      dab += (1 - s) * s;
      dbb += f(s * s);
      dax += xi * (1 - s);
      dbx += f(xi * s);
    }
    const m0 = scale * dax * dax + LAMBDA * daa;
    const m1 = scale * dax * dbx + LAMBDA * dab;
    const m2 = scale * dbx * dbx + LAMBDA * dbb;
    const det = m0 * m2 - m1 * m1;
    if (det === 0) return;
    const aOpt = f((m2 * dax - m1 * dbx) / det);
    const bOpt = f((m0 * dbx - m1 * dax) / det);
    if (Math.abs(f(a - aOpt)) < 1e-8 && Math.abs(f(b - bOpt)) < 1e-8) return;
    const next = loss(x, [aOpt, bOpt], shape);
    if (next > best) return;
    interval[0] = aOpt;
    interval[1] = bOpt;
    best = next;
  }
}

/** Options of {@link quantizeInto}. */
export interface QuantizeOptions {
  /** The vector (normalised under cosine); not changed. */
  readonly vector: ArrayLike<number>;
  /** The segment's centroid. */
  readonly centroid: Float32Array;
  /** Bits per dimension. */
  readonly bits: number;
  /** The similarity (only `l2_norm` changes the additional correction). */
  readonly similarity: Similarity;
  /** Where the codes go, from `at`. */
  readonly codes: Uint8Array;
  /** Offset in `codes`. */
  readonly at: number;
  /** Room for the centred vector (`dims` floats), reused across calls; new by default. */
  readonly scratch?: Float32Array;
}

/** Quantises one vector against a centroid: writes its codes, returns its corrections. */
export function quantizeInto(o: QuantizeOptions): Corrections {
  const { vector, centroid, bits, codes, at } = o;
  const n = centroid.length;
  const x = o.scratch ?? new Float32Array(n);
  const euclidean = o.similarity === "l2_norm";
  let centroidDot = 0;
  let norm2 = 0;
  let min = Infinity;
  let max = -Infinity;
  let mean = 0;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    const v = f(vector[i]!);
    if (!euclidean) centroidDot = f(centroidDot + f(v * centroid[i]!));
    const c = f(v - centroid[i]!);
    x[i] = c;
    if (c < min) min = c;
    if (c > max) max = c;
    norm2 = f(norm2 + f(c * c));
    const delta = c - mean;
    mean += delta / (i + 1);
    variance += delta * (c - mean);
  }
  variance /= n;
  const std = Math.sqrt(variance);
  const grid = MSE_GRID[bits - 1]!;
  const interval = new Float32Array([
    clamp(grid[0] * std + mean, min, max),
    clamp(grid[1] * std + mean, min, max),
  ]);
  optimize(interval, x, norm2, 1 << bits);
  const a = interval[0]!;
  const b = interval[1]!;
  const step = f(f(b - a) / f((1 << bits) - 1));
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const xi = f(clamp(x[i]!, a, b));
    const q = javaRound(f(f(xi - a) / step));
    sum += q;
    codes[at + i] = q;
  }
  return { lower: a, upper: b, additional: euclidean ? norm2 : centroidDot, componentSum: sum };
}

/** Options of {@link quantizeColumn}. */
export interface QuantizeColumnOptions {
  /** Raw elements, doc after doc. */
  readonly data: Float32Array;
  /** 1 where a doc has a vector. */
  readonly has: Uint8Array;
  /** Dimensions. */
  readonly dims: number;
  /** Bits per dimension. */
  readonly bits: QuantizedBits;
  /** The field's similarity. */
  readonly similarity: Similarity;
  /** Vectors the segment holds beside `data` (see {@link RetainedVectors}), in the centroid. */
  readonly retained?: RetainedVectors;
}

/**
 * Vectors of deleted documents that Elasticsearch's merges keep (soft deletes kept for history)
 * where the engine's merges drop them: their sum (of unit vectors under cosine) and number.
 */
export interface RetainedVectors {
  readonly sum: Float32Array;
  readonly count: number;
}

/** Quantises a segment's vectors: the centroid is their mean (of unit vectors under cosine). */
export function quantizeColumn(o: QuantizeColumnOptions): QuantizedColumn {
  const { data, has, dims, bits, similarity } = o;
  const maxDoc = has.length;
  const cosine = similarity === "cosine";
  const unit = new Float32Array(dims);
  const scratch = new Float32Array(dims);
  const vectorOf = (d: number): Float32Array =>
    cosine ? unitForCosine(data, d * dims, dims, unit) : data.subarray(d * dims, d * dims + dims);
  const sums = new Float32Array(dims);
  let count = 0;
  for (let d = 0; d < maxDoc; d++) {
    if (!has[d]) continue;
    const v = vectorOf(d);
    for (let i = 0; i < dims; i++) sums[i] = f(sums[i]! + v[i]!);
    count++;
  }
  if (o.retained) {
    for (let i = 0; i < dims; i++) sums[i] = f(sums[i]! + o.retained.sum[i]!);
    count += o.retained.count;
  }
  const centroid = new Float32Array(dims);
  if (count > 0) { for (let i = 0; i < dims; i++) centroid[i] = f(sums[i]! / count); }
  const codes = new Uint8Array(maxDoc * dims);
  const terms = new Float32Array(maxDoc * 3);
  const componentSums = new Int32Array(maxDoc);
  for (let d = 0; d < maxDoc; d++) {
    if (!has[d]) continue;
    const vector = vectorOf(d);
    // BBQ's documents are quantised by Elasticsearch's quantizer, int8/int4 ones by Lucene's.
    const c = (bits === 1 ? floatQuantize : quantizeInto)({
      vector,
      centroid,
      bits,
      similarity,
      codes,
      at: d * dims,
      scratch,
    });
    terms[d * 3] = c.lower;
    terms[d * 3 + 1] = c.upper;
    terms[d * 3 + 2] = c.additional;
    componentSums[d] = c.componentSum;
  }
  const centroidDp = count > 0 ? floatDot(centroid, centroid) : 0;
  const queryBits = bits === 1 ? 4 : bits;
  return { bits, queryBits, centroid, centroidDp, codes, terms, sums: componentSums };
}

/** A query vector quantised against one segment's centroid. */
export interface QuantizedQuery {
  /** The codes. */
  readonly codes: Uint8Array;
  /** Its corrections. */
  readonly corrections: Corrections;
}

/**
 * Quantises a query vector for one segment, as Elasticsearch's query-side quantizer does
 * (statistics accumulated in floats; cosine queries normalised first), to the column's query bits.
 */
export function quantizeQuery(
  col: QuantizedColumn,
  query: Float32Array,
  similarity: Similarity,
): QuantizedQuery {
  const n = col.centroid.length;
  const vector = similarity === "cosine" ? unitForCosine(query, 0, n) : query;
  const codes = new Uint8Array(n);
  const corrections = floatQuantize({
    vector,
    centroid: col.centroid,
    bits: col.queryBits,
    similarity,
    codes,
    at: 0,
  });
  return { codes, corrections };
}

/**
 * Elasticsearch's own quantizer (its queries, and BBQ's documents): as {@link quantizeInto},
 * with the statistics, the loss and the descent's sums in 32-bit floats.
 */
function floatQuantize(o: QuantizeOptions): Corrections {
  const { vector: v, centroid, bits, codes, at } = o;
  const n = centroid.length;
  const x = o.scratch ?? new Float32Array(n);
  const euclidean = o.similarity === "l2_norm";
  let centroidDot = 0;
  let norm2 = 0;
  let min = Infinity;
  let max = -Infinity;
  let mean = 0;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    if (!euclidean) centroidDot = fma(v[i]!, centroid[i]!, centroidDot);
    const c = f(v[i]! - centroid[i]!);
    x[i] = c;
    if (c < min) min = c;
    if (c > max) max = c;
    norm2 = fma(c, c, norm2);
    const delta = f(c - mean);
    mean = f(mean + f(delta / (i + 1)));
    variance = fma(delta, f(c - mean), variance);
  }
  variance = f(variance / n);
  const std = f(Math.sqrt(variance));
  const grid = MSE_GRID[bits - 1]!;
  const interval = new Float32Array([
    clamp(f(f(grid[0] * std) + mean), min, max),
    clamp(f(f(grid[1] * std) + mean), min, max),
  ]);
  const found = new Int32Array(n);
  const optimal = floatOptimize(interval, x, { points: 1 << bits, norm2, codes: found });
  const a = interval[0]!;
  const b = interval[1]!;
  const invStep = f(f((1 << bits) - 1) / f(b - a));
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const q = optimal ? found[i]! : javaRound(f(f(clamp(x[i]!, a, b) - a) * invStep));
    sum += q;
    codes[at + i] = q;
  }
  return { lower: a, upper: b, additional: euclidean ? norm2 : centroidDot, componentSum: sum };
}

/** 32-bit `a * b + c` rounded once, as a fused multiply-add. */
function fma(a: number, b: number, c: number): number {
  return f(a * b + c);
}

/** What Elasticsearch's float loss needs beside the interval, and where it leaves the codes. */
interface FloatShape extends Shape {
  readonly codes: Int32Array;
}

/** Elasticsearch's loss, in floats: also leaves in `codes` the vector quantised over `[a, b]`. */
function floatLoss(x: Float32Array, [a, b]: readonly [number, number], o: FloatShape): number {
  const step = f(f(b - a) / f(o.points - 1));
  const invStep = f(1 / step);
  let xe = 0;
  let e = 0;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i]!;
    const q = javaRound(f(f(clamp(xi, a, b) - a) * invStep));
    o.codes[i] = q;
    const d = f(xi - fma(step, q, a));
    e = fma(d, d, e);
    xe = fma(xi, d, xe);
  }
  return f(f(f(f(f(1 - LAMBDA) * xe) * xe) / o.norm2) + f(LAMBDA * e));
}

/**
 * Elasticsearch's descent, in floats (the normal equations solved in doubles): refines
 * `interval` and returns whether `o.codes` hold the vector quantised over the final interval.
 */
function floatOptimize(interval: Float32Array, x: Float32Array, o: FloatShape): boolean {
  let best = floatLoss(x, [interval[0]!, interval[1]!], o);
  const scale = f(f(1 - LAMBDA) / o.norm2);
  if (!Number.isFinite(scale)) return true;
  const inv = f(1 / f(o.points - 1));
  for (let it = 0; it < ITERS; it++) {
    let daa = 0, dab = 0, dbb = 0, dax = 0, dbx = 0;
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      const s = f(o.codes[i]! * inv);
      const ms = f(1 - s);
      daa = fma(ms, ms, daa);
      dab = fma(ms, s, dab);
      dbb = fma(s, s, dbb);
      dax = fma(ms, v, dax);
      dbx = fma(s, v, dbx);
    }
    const m0 = f(f(f(scale * dax) * dax) + f(LAMBDA * daa));
    const m1 = f(f(f(scale * dax) * dbx) + f(LAMBDA * dab));
    const m2 = f(f(f(scale * dbx) * dbx) + f(LAMBDA * dbb));
    const det = m0 * m2 - m1 * m1;
    if (det === 0) return true;
    const aOpt = f((m2 * dax - m1 * dbx) / det);
    const bOpt = f((m0 * dbx - m1 * dax) / det);
    const a = interval[0]!;
    const b = interval[1]!;
    if (Math.abs(f(a - aOpt)) < 1e-8 && Math.abs(f(b - bOpt)) < 1e-8) return true;
    if (bOpt < aOpt) return true;
    const next = floatLoss(x, [aOpt, bOpt], o);
    if (next > best) return false;
    interval[0] = aOpt;
    interval[1] = bOpt;
    best = next;
  }
  return true;
}

/**
 * The `_score` of a doc of the column for a quantised query: the estimated similarity from the
 * integer dot product and the corrections, turned into a score as the similarity does.
 */
export function quantizedScore(
  col: QuantizedColumn,
  q: QuantizedQuery,
  doc: number,
  similarity: Similarity,
): number {
  const n = col.centroid.length;
  const at = doc * n;
  const codes = col.codes;
  let dot = 0;
  for (let i = 0; i < n; i++) dot += q.codes[i]! * codes[at + i]!;
  const scale = f(1 / ((1 << col.bits) - 1));
  const queryScale = f(1 / ((1 << col.queryBits) - 1));
  const ax = col.terms[doc * 3]!;
  const lx = f(f(col.terms[doc * 3 + 1]! - ax) * scale);
  const x1 = col.sums[doc]!;
  const qc = q.corrections;
  const ay = qc.lower;
  const ly = f(f(qc.upper - ay) * queryScale);
  const y1 = qc.componentSum;
  let score = f(
    f(f(f(f(ax * ay) * n) + f(f(ay * lx) * x1)) + f(f(ax * ly) * y1)) + f(f(lx * ly) * f(dot)),
  );
  const additional = col.terms[doc * 3 + 2]!;
  // BBQ's scorer bounds the estimate (distance at least 0, a dot product within [-1, 1]).
  const bbq = col.bits === 1;
  if (similarity === "l2_norm") {
    score = f(f(qc.additional + additional) - f(2 * score));
    if (bbq) score = Math.max(score, 0);
    return Math.max(f(1 / f(1 + score)), 0);
  }
  score = f(score + f(f(qc.additional + additional) - col.centroidDp));
  if (similarity === "max_inner_product") return score < 0 ? f(1 / f(1 - score)) : f(score + 1);
  if (bbq) score = Math.min(Math.max(score, -1), 1);
  return Math.max(f(f(1 + score) / 2), 0);
}
