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

/**
 * Room one vector's quantisation reuses (see {@link quantizeScratch}): the centred vector, the
 * codes a descent step leaves, and one pass's sums.
 */
export interface QuantizeScratch {
  readonly x: Float32Array;
  readonly codes: Int32Array;
  readonly sums: Float64Array;
  readonly pair: Float64Array;
}

/** Room to quantise vectors of `dims` dimensions, one after another. */
export function quantizeScratch(dims: number): QuantizeScratch {
  return {
    x: new Float32Array(dims),
    codes: new Int32Array(dims),
    sums: new Float64Array(6),
    pair: new Float64Array(4),
  };
}

// Where a pass leaves its sums in `QuantizeScratch.sums`.
const DAA = 1;
const DAB = 2;
const DBB = 3;
const DAX = 4;
const DBX = 5;

/**
 * One pass of Lucene's descent over `x` at `[a, b]`: the loss's two sums (as the loss computes
 * them) and the normal equations' five (as the descent does), each accumulated in the same order
 * as two separate passes would. Leaves `[loss, daa, dab, dbb, dax, dbx]` in `out`.
 */
function lucenePass(x: Float32Array, a: number, b: number, o: PassRoom): void {
  const { points } = o;
  const step = (b - a) / f(points - 1);
  const stepInv = 1 / step;
  const descentInv = f(f(points - 1) / f(b - a));
  const last = points - 1;
  let xe = 0, e = 0;
  let daa = 0, dab = 0, dbb = 0, dax = 0, dbx = 0;
  const n = x.length;
  for (let i = 0; i < n; i++) {
    const xi = x[i]!;
    const c = Math.min(Math.max(xi, a), b) - a;
    const ql = c * stepInv + 0.5;
    const xiq = a + step * (ql === ql ? Math.floor(ql) : 0);
    const d = xi - xiq;
    xe += xi * d;
    e += d * d;
    const qd = c * descentInv + 0.5;
    const s = f((qd === qd ? Math.floor(qd) : 0) / last);
    const ms = 1 - s;
    daa += ms * ms;
    dab += ms * s;
    dbb += f(s * s);
    dax += xi * ms;
    dbx += f(xi * s);
  }
  const out = o.out;
  out[0] = (1 - LAMBDA) * xe * xe / o.norm2 + LAMBDA * e;
  out[DAA] = daa;
  out[DAB] = dab;
  out[DBB] = dbb;
  out[DAX] = dax;
  out[DBX] = dbx;
}

/** Refines `interval` by coordinate descent, stopping when the loss stops falling. */
function optimize(x: Float32Array, interval: [number, number], o: PassRoom): [number, number] {
  const scale = f(f(1 - LAMBDA) / o.norm2);
  if (!Number.isFinite(scale)) return interval;
  const out = o.out;
  let [a, b] = interval;
  lucenePass(x, a, b, o);
  let best = out[0]!;
  for (let it = 0; it < ITERS; it++) {
    const daa = out[DAA]!, dab = out[DAB]!, dbb = out[DBB]!, dax = out[DAX]!, dbx = out[DBX]!;
    const m0 = scale * dax * dax + LAMBDA * daa;
    const m1 = scale * dax * dbx + LAMBDA * dab;
    const m2 = scale * dbx * dbx + LAMBDA * dbb;
    const det = m0 * m2 - m1 * m1;
    if (det === 0) break;
    const aOpt = f((m2 * dax - m1 * dbx) / det);
    const bOpt = f((m0 * dbx - m1 * dax) / det);
    if (Math.abs(f(a - aOpt)) < 1e-8 && Math.abs(f(b - bOpt)) < 1e-8) break;
    lucenePass(x, aOpt, bOpt, o);
    const next = out[0]!;
    if (next > best) break;
    a = aOpt;
    b = bOpt;
    best = next;
  }
  return [a, b];
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
  /** Room reused across calls (of the centroid's dimensions); new by default. */
  readonly scratch?: QuantizeScratch;
}

/** Quantises one vector against a centroid: writes its codes, returns its corrections. */
export function quantizeInto(o: QuantizeOptions): Corrections {
  const { vector, centroid, bits, codes, at } = o;
  const n = centroid.length;
  const scratch = o.scratch ?? quantizeScratch(n);
  const x = scratch.x;
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
  const points = 1 << bits;
  const [a, b] = optimize(x, [
    f(clamp(grid[0] * std + mean, min, max)),
    f(clamp(grid[1] * std + mean, min, max)),
  ], { points, norm2, out: scratch.sums });
  const step = f(f(b - a) / f(points - 1));
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
  return new ColumnQuantizer(o).advance(Infinity)!;
}

/**
 * A segment's vectors quantised a block at a time, so that a long segment's codes can be made
 * between other work: first the centroid (a pass over every vector), then each vector's codes.
 * The column it ends with is {@link quantizeColumn}'s, however the work was split.
 */
export class ColumnQuantizer {
  readonly #o: QuantizeColumnOptions;
  readonly #unit: Float32Array;
  readonly #scratch: QuantizeScratch;
  readonly #sums: Float32Array;
  #count = 0;
  /** The next doc of the current pass (the centroid's, then the codes'). */
  #doc = 0;
  #centroid: Float32Array | null = null;
  readonly #codes: Uint8Array;
  readonly #terms: Float32Array;
  readonly #componentSums: Int32Array;
  #done: QuantizedColumn | null = null;

  constructor(o: QuantizeColumnOptions) {
    this.#o = o;
    const { dims } = o;
    const maxDoc = o.has.length;
    this.#unit = new Float32Array(dims);
    this.#scratch = quantizeScratch(dims);
    this.#sums = new Float32Array(dims);
    this.#codes = new Uint8Array(maxDoc * dims);
    this.#terms = new Float32Array(maxDoc * 3);
    this.#componentSums = new Int32Array(maxDoc);
  }

  /** The vector of doc `d` as it is quantised (its unit vector under cosine). */
  #vectorOf(d: number): Float32Array {
    const { data, dims } = this.#o;
    return this.#o.similarity === "cosine"
      ? unitForCosine(data, d * dims, dims, this.#unit)
      : data.subarray(d * dims, d * dims + dims);
  }

  /**
   * Goes on for about `elements` vector elements (docs × dims); returns the column once every
   * vector is quantised, null while some are left.
   */
  advance(elements: number): QuantizedColumn | null {
    if (this.#done) return this.#done;
    const { has, dims } = this.#o;
    const maxDoc = has.length;
    const end = Math.min(maxDoc, this.#doc + Math.max(1, Math.ceil(elements / dims)));
    if (!this.#centroid) {
      const sums = this.#sums;
      for (let d = this.#doc; d < end; d++) {
        if (!has[d]) continue;
        const v = this.#vectorOf(d);
        for (let i = 0; i < dims; i++) sums[i] = f(sums[i]! + v[i]!);
        this.#count++;
      }
      this.#doc = end;
      if (end < maxDoc) return null;
      this.#centroid = this.#centroidOf();
      this.#doc = 0;
      return elements === Infinity ? this.advance(elements) : null;
    }
    const { bits, similarity } = this.#o;
    const centroid = this.#centroid;
    const codes = this.#codes;
    const terms = this.#terms;
    for (let d = this.#doc; d < end; d++) {
      if (!has[d]) continue;
      const vector = this.#vectorOf(d);
      // BBQ's documents are quantised by Elasticsearch's quantizer, int8/int4 ones by Lucene's.
      const c = (bits === 1 ? floatQuantize : quantizeInto)({
        vector,
        centroid,
        bits,
        similarity,
        codes,
        at: d * dims,
        scratch: this.#scratch,
      });
      terms[d * 3] = c.lower;
      terms[d * 3 + 1] = c.upper;
      terms[d * 3 + 2] = c.additional;
      this.#componentSums[d] = c.componentSum;
    }
    this.#doc = end;
    if (end < maxDoc) return null;
    const count = this.#count;
    const centroidDp = count > 0 ? floatDot(centroid, centroid) : 0;
    const queryBits = bits === 1 ? 4 : bits;
    this.#done = {
      bits,
      queryBits,
      centroid,
      centroidDp,
      codes,
      terms,
      sums: this.#componentSums,
    };
    return this.#done;
  }

  /** The mean of the vectors (with the retained ones), once every vector is summed. */
  #centroidOf(): Float32Array {
    const { dims, retained } = this.#o;
    const sums = this.#sums;
    if (retained) {
      for (let i = 0; i < dims; i++) sums[i] = f(sums[i]! + retained.sum[i]!);
      this.#count += retained.count;
    }
    const count = this.#count;
    const centroid = new Float32Array(dims);
    if (count > 0) { for (let i = 0; i < dims; i++) centroid[i] = f(sums[i]! / count); }
    return centroid;
  }
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
  const scratch = o.scratch ?? quantizeScratch(n);
  const x = scratch.x;
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
  const points = 1 << bits;
  const found = scratch.codes;
  const { interval: [a, b], optimal } = floatOptimize(x, [
    f(clamp(f(f(grid[0] * std) + mean), min, max)),
    f(clamp(f(f(grid[1] * std) + mean), min, max)),
  ], {
    points,
    norm2,
    codes: found,
    out: scratch.sums,
    pair: scratch.pair,
  });
  const invStep = f(f(points - 1) / f(b - a));
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

/** What a pass needs beside the interval, and where it leaves its codes and sums. */
interface PassRoom {
  readonly points: number;
  readonly norm2: number;
  readonly out: Float64Array;
}

/** What Elasticsearch's float pass needs beside the interval, and where it leaves its codes. */
interface FloatPassRoom extends PassRoom {
  readonly codes: Int32Array;
  /** Four doubles of room for {@link bitPass}. */
  readonly pair: Float64Array;
}

/**
 * One pass of Elasticsearch's descent over `x` at `[a, b]`, in floats: leaves in `o.codes` the
 * vector quantised over `[a, b]`, and in `o.out` its loss and the normal equations' five sums
 * over those codes (each accumulated in the order two separate passes would).
 */
function floatPass(x: Float32Array, a: number, b: number, o: FloatPassRoom): void {
  if (o.points === 2) return bitPass(x, a, b, o);
  const { points, codes } = o;
  const step = f(f(b - a) / f(points - 1));
  const invStep = f(1 / step);
  const inv = f(1 / f(points - 1));
  let xe = 0, e = 0;
  let daa = 0, dab = 0, dbb = 0, dax = 0, dbx = 0;
  const n = x.length;
  for (let i = 0; i < n; i++) {
    const xi = x[i]!;
    const r = f(f(Math.min(Math.max(xi, a), b) - a) * invStep) + 0.5;
    const q = r === r ? Math.floor(r) : 0;
    codes[i] = q;
    const d = f(xi - f(step * q + a));
    e = f(d * d + e);
    xe = f(xi * d + xe);
    const s = f(q * inv);
    const ms = f(1 - s);
    daa = f(ms * ms + daa);
    dab = f(ms * s + dab);
    dbb = f(s * s + dbb);
    dax = f(ms * xi + dax);
    dbx = f(s * xi + dbx);
  }
  const out = o.out;
  out[0] = f(f(f(f(f(1 - LAMBDA) * xe) * xe) / o.norm2) + f(LAMBDA * e));
  out[DAA] = daa;
  out[DAB] = dab;
  out[DBB] = dbb;
  out[DAX] = dax;
  out[DBX] = dbx;
}

/**
 * {@link floatPass} at one bit, where every code is 0 or 1: a code of 0 adds exactly 1 to `daa`
 * and `x[i]` to `dax`, a code of 1 the same to `dbb` and `dbx`, and every other product is 0, so
 * only those sums are kept (each in the same order, the results bit for bit the same).
 */
function bitPass(x: Float32Array, a: number, b: number, o: FloatPassRoom): void {
  const { codes, pair } = o;
  const step = f(b - a);
  const invStep = f(1 / step);
  // Indexed by the code (no branch on it): the point it stands for, and the sum of its values.
  pair[0] = f(step * 0 + a);
  pair[1] = f(step + a);
  pair[2] = 0;
  pair[3] = 0;
  let xe = 0, e = 0;
  let ones = 0;
  const n = x.length;
  for (let i = 0; i < n; i++) {
    const xi = x[i]!;
    const r = f(f(Math.min(Math.max(xi, a), b) - a) * invStep) + 0.5;
    // r is below 2 (the clamp keeps the scaled value within [0, 1]), or NaN when a = b.
    const q = +(r >= 1);
    codes[i] = q;
    const d = f(xi - pair[q]!);
    e = f(d * d + e);
    xe = f(xi * d + xe);
    pair[2 + q] = f(xi + pair[2 + q]!);
    ones += q;
  }
  const out = o.out;
  out[0] = f(f(f(f(f(1 - LAMBDA) * xe) * xe) / o.norm2) + f(LAMBDA * e));
  out[DAA] = n - ones;
  out[DAB] = 0;
  out[DBB] = ones;
  out[DAX] = pair[2]!;
  out[DBX] = pair[3]!;
}

/**
 * Elasticsearch's descent, in floats (the normal equations solved in doubles): refines
 * `interval`, and says whether `o.codes` hold the vector quantised over the final one.
 */
function floatOptimize(
  x: Float32Array,
  interval: [number, number],
  o: FloatPassRoom,
): { interval: [number, number]; optimal: boolean } {
  const out = o.out;
  let [a, b] = interval;
  floatPass(x, a, b, o);
  let best = out[0]!;
  const scale = f(f(1 - LAMBDA) / o.norm2);
  if (!Number.isFinite(scale)) return { interval, optimal: true };
  for (let it = 0; it < ITERS; it++) {
    const daa = out[DAA]!, dab = out[DAB]!, dbb = out[DBB]!, dax = out[DAX]!, dbx = out[DBX]!;
    const m0 = f(f(f(scale * dax) * dax) + f(LAMBDA * daa));
    const m1 = f(f(f(scale * dax) * dbx) + f(LAMBDA * dab));
    const m2 = f(f(f(scale * dbx) * dbx) + f(LAMBDA * dbb));
    const det = m0 * m2 - m1 * m1;
    if (det === 0) break;
    const aOpt = f((m2 * dax - m1 * dbx) / det);
    const bOpt = f((m0 * dbx - m1 * dax) / det);
    if (Math.abs(f(a - aOpt)) < 1e-8 && Math.abs(f(b - bOpt)) < 1e-8) break;
    if (bOpt < aOpt) break;
    floatPass(x, aOpt, bOpt, o);
    const next = out[0]!;
    if (next > best) return { interval: [a, b], optimal: false };
    a = aOpt;
    b = bOpt;
    best = next;
  }
  return { interval: [a, b], optimal: true };
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
