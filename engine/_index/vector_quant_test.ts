import assert from "node:assert/strict";
import {
  ColumnQuantizer,
  quantizeColumn,
  quantizedScore,
  quantizeQuery,
  unitForCosine,
} from "./vector_quant.ts";
import {
  buildVectorColumn,
  QUANTIZE_STEP_ELEMENTS,
  quantizedOf,
  quantizeSteps,
  readVectorSpec,
} from "./vectors.ts";
import { Shard } from "./shard.ts";
import { ManualDefer } from "../../tests/support/manual_defer.ts";

const DOCS = [
  [0.12, -0.5, 0.33, 0.8],
  [0.9, 0.1, -0.25, 0.05],
  [-0.4, 0.7, 0.6, -0.1],
  [0.3, 0.3, 0.3, 0.3],
  [-0.75, -0.2, 0.15, 0.55],
  [0.05, 0.95, -0.6, 0.2],
];

function column(bits: 7 | 4, similarity: "l2_norm" | "cosine") {
  const data = Float32Array.from(DOCS.flat());
  const has = new Uint8Array(DOCS.length).fill(1);
  return quantizeColumn({ data, has, dims: 4, bits, similarity });
}

// Elasticsearch 9.5.4's kNN scores of these six docs (one segment) for the query below.
const QUERY = Float32Array.from([0.5, -0.2, 0.1, 0.9]);
const REAL = {
  int8_l2: [0.7719864, 0.4754718, 0.25840345, 0.5917884, 0.37246257, 0.28546348],
  int4_cosine: [0.9272443, 0.72163564, 0.3250746, 0.80508006, 0.5789418, 0.49101013],
};

Deno.test("quantised scores: int8 l2_norm and int4 cosine as Elasticsearch scores them", () => {
  for (
    const [bits, similarity, real] of [
      [7, "l2_norm", REAL.int8_l2],
      [4, "cosine", REAL.int4_cosine],
    ] as const
  ) {
    const col = column(bits, similarity);
    const q = quantizeQuery(col, QUERY, similarity);
    real.forEach((want, doc) => {
      const got = quantizedScore(col, q, doc, similarity);
      assert.ok(Math.abs(got - want) <= 2.5e-7, `${bits} bits, doc ${doc}: ${got} vs ${want}`);
    });
  }
});

Deno.test("quantised columns: codes within the bit range, centroid the mean", () => {
  const col = column(7, "l2_norm");
  assert.ok(col.codes.every((c) => c <= 127));
  assert.ok(column(4, "l2_norm").codes.every((c) => c <= 15));
  for (let i = 0; i < 4; i++) {
    const mean = DOCS.reduce((s, v) => s + v[i]!, 0) / DOCS.length;
    assert.ok(Math.abs(col.centroid[i]! - mean) < 1e-6);
  }
});

/** `count` vectors of `dims` elements in [-1, 1) (a fixed sequence), every seventh doc without. */
function randomColumn(count: number, dims: number) {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const data = new Float32Array(count * dims).map(() => next() * 2 - 1);
  const has = new Uint8Array(count).map((_, d) => d % 7 === 3 ? 0 : 1);
  return { data, has, dims };
}

Deno.test("quantised columns: made a few vectors at a time, the same column", () => {
  const base = randomColumn(90, 24);
  for (const bits of [7, 4, 1] as const) {
    for (const similarity of ["cosine", "l2_norm", "dot_product"] as const) {
      const whole = quantizeColumn({ ...base, bits, similarity });
      const quantizer = new ColumnQuantizer({ ...base, bits, similarity });
      let steps = 0;
      let col = null;
      while (!(col = quantizer.advance(100))) steps++;
      assert.ok(steps > 10, `${steps} steps`);
      assert.deepEqual(col, whole, `${bits} bits, ${similarity}`);
      assert.equal(quantizer.advance(100), col);
    }
  }
});

// The quantizers as first written, one pass for the loss and another for the descent's sums:
// the engine's single-pass ones must give the same codes and corrections, bit for bit.
const fr = Math.fround;
const GRID = [
  [-0.798, 0.798],
  [-1.493, 1.493],
  [-2.051, 2.051],
  [-2.514, 2.514],
  [
    -2.916,
    2.916,
  ],
  [-3.278, 3.278],
  [-3.611, 3.611],
  [-3.922, 3.922],
].map(([a, b]) => [fr(a!), fr(b!)]);
const LAMBDA = fr(0.1);
const round = (x: number) => Number.isNaN(x) ? 0 : Math.floor(x + 0.5);
const clamp = (x: number, a: number, b: number) => Math.min(Math.max(x, a), b);
const fma = (a: number, b: number, c: number) => fr(a * b + c);

/** The two-pass quantizer: Lucene's (`float` false) or Elasticsearch's in floats. */
function twoPass(x: Float32Array, o: { bits: number; norm2: number; float: boolean }) {
  const { bits, norm2, float } = o;
  const points = 1 << bits;
  const n = x.length;
  let mean = 0, variance = 0, min = Infinity, max = -Infinity;
  for (let i = 0; i < n; i++) {
    const c = x[i]!;
    min = Math.min(min, c);
    max = Math.max(max, c);
    if (float) {
      const delta = fr(c - mean);
      mean = fr(mean + fr(delta / (i + 1)));
      variance = fma(delta, fr(c - mean), variance);
    } else {
      const delta = c - mean;
      mean += delta / (i + 1);
      variance += delta * (c - mean);
    }
  }
  const std = float ? fr(Math.sqrt(fr(variance / n))) : Math.sqrt(variance / n);
  const at = (g: number) => fr(clamp(float ? fr(fr(g * std) + mean) : g * std + mean, min, max));
  let [a, b] = [at(GRID[bits - 1]![0]!), at(GRID[bits - 1]![1]!)];
  const codes = new Int32Array(n);
  const loss = (lo: number, hi: number) => {
    let xe = 0, e = 0;
    if (float) {
      const step = fr(fr(hi - lo) / fr(points - 1));
      const inv = fr(1 / step);
      for (let i = 0; i < n; i++) {
        codes[i] = round(fr(fr(clamp(x[i]!, lo, hi) - lo) * inv));
        const d = fr(x[i]! - fma(step, codes[i]!, lo));
        e = fma(d, d, e);
        xe = fma(x[i]!, d, xe);
      }
      return fr(fr(fr(fr(fr(1 - LAMBDA) * xe) * xe) / norm2) + fr(LAMBDA * e));
    }
    const step = (hi - lo) / fr(points - 1);
    for (let i = 0; i < n; i++) {
      const d = x[i]! - (lo + step * round((clamp(x[i]!, lo, hi) - lo) * (1 / step)));
      xe += x[i]! * d;
      e += d * d;
    }
    return (1 - LAMBDA) * xe * xe / norm2 + LAMBDA * e;
  };
  let best = loss(a, b);
  let fresh = true;
  const scale = fr(fr(1 - LAMBDA) / norm2);
  for (let it = 0; it < 5 && Number.isFinite(scale); it++) {
    let daa = 0, dab = 0, dbb = 0, dax = 0, dbx = 0;
    const inv = fr(fr(points - 1) / fr(b - a));
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      if (float) {
        const s = fr(codes[i]! * fr(1 / fr(points - 1)));
        const ms = fr(1 - s);
        [daa, dab, dbb] = [fma(ms, ms, daa), fma(ms, s, dab), fma(s, s, dbb)];
        [dax, dbx] = [fma(ms, v, dax), fma(s, v, dbx)];
      } else {
        const s = fr(round((clamp(v, a, b) - a) * inv) / (points - 1));
        [daa, dab, dbb] = [daa + (1 - s) * (1 - s), dab + (1 - s) * s, dbb + fr(s * s)];
        [dax, dbx] = [dax + v * (1 - s), dbx + fr(v * s)];
      }
    }
    const m = float
      ? [
        fr(fr(fr(scale * dax) * dax) + fr(LAMBDA * daa)),
        fr(fr(fr(scale * dax) * dbx) + fr(LAMBDA * dab)),
        fr(fr(fr(scale * dbx) * dbx) + fr(LAMBDA * dbb)),
      ]
      : [
        scale * dax * dax + LAMBDA * daa,
        scale * dax * dbx + LAMBDA * dab,
        scale * dbx * dbx + LAMBDA * dbb,
      ];
    const det = m[0]! * m[2]! - m[1]! * m[1]!;
    if (det === 0) break;
    const aOpt = fr((m[2]! * dax - m[1]! * dbx) / det);
    const bOpt = fr((m[0]! * dbx - m[1]! * dax) / det);
    if (Math.abs(fr(a - aOpt)) < 1e-8 && Math.abs(fr(b - bOpt)) < 1e-8) break;
    if (float && bOpt < aOpt) break;
    const next = loss(aOpt, bOpt);
    if (next > best) {
      fresh = false;
      break;
    }
    [a, b, best] = [aOpt, bOpt, next];
  }
  if (!float || !fresh) {
    const step = fr(fr(b - a) / fr(points - 1));
    for (let i = 0; i < n; i++) {
      const c = fr(clamp(x[i]!, a, b) - a);
      codes[i] = round(float ? fr(c * fr(fr(points - 1) / fr(b - a))) : fr(c / step));
    }
  }
  return { a, b, codes };
}

Deno.test("quantised columns: the codes and intervals of the two-pass descent", () => {
  const base = randomColumn(60, 40);
  for (const bits of [7, 4, 1] as const) {
    for (const similarity of ["cosine", "l2_norm"] as const) {
      const col = quantizeColumn({ ...base, bits, similarity });
      for (let d = 0; d < 60; d++) {
        if (!base.has[d]) continue;
        const v: Float32Array = similarity === "cosine"
          ? unitForCosine(base.data, d * 40, 40)
          : base.data.subarray(d * 40, d * 40 + 40);
        const x = v.map((e, i) => e - col.centroid[i]!);
        const norm2 = bits === 1
          ? x.reduce((s, e) => fma(e, e, s), 0)
          : x.reduce((s, e) => fr(s + fr(e * e)), 0);
        const want = twoPass(x, { bits, norm2, float: bits === 1 });
        const at = `${bits} bits, ${similarity}, doc ${d}`;
        assert.deepEqual([...col.codes.subarray(d * 40, d * 40 + 40)], [...want.codes], at);
        assert.deepEqual([col.terms[d * 3], col.terms[d * 3 + 1]], [want.a, want.b], at);
      }
    }
  }
});

Deno.test("quantised columns: codes made in steps, taken on by a second search", () => {
  const dims = 64;
  const spec = readVectorSpec("v", {
    type: "dense_vector",
    dims,
    similarity: "l2_norm",
    index_options: { type: "int8_flat" },
  });
  const { data } = randomColumn(1200, dims);
  const entries = Array.from({ length: 1200 }, (_, d) => {
    return [d, Array.from(data.subarray(d * dims, (d + 1) * dims))] as const;
  });
  const col = buildVectorColumn(spec, 1200, entries);
  const first = quantizeSteps([col]);
  let pauses = 0;
  // A few steps of a first search, then a second one finishes the same codes.
  for (let i = 0; i < 3; i++) if (!first.next().done) pauses++;
  const second = quantizeSteps([col]);
  while (!second.next().done) pauses++;
  assert.ok(pauses >= 1200 * dims / QUANTIZE_STEP_ELEMENTS, `${pauses} pauses`);
  assert.ok(first.next().done);
  const whole = quantizeColumn({
    data: col.data,
    has: col.has,
    dims,
    bits: 7,
    similarity: "l2_norm",
  });
  assert.deepEqual(quantizedOf(col), whole);
});

Deno.test("quantised columns: a large new segment's codes made in the background", () => {
  const defer = new ManualDefer();
  const shard = new Shard({ defer: defer.defer, sliceMs: 0, backgroundMinDocs: 500 });
  const mappings = {
    properties: {
      v: {
        type: "dense_vector",
        dims: 32,
        similarity: "cosine",
        index_options: { type: "int4_flat" },
      },
    },
  };
  const { data } = randomColumn(1500, 32);
  const doc = (d: number) => ({
    id: String(d),
    doc: {
      id: String(d),
      source: { v: Array.from(data.subarray(d * 32, d * 32 + 32)) },
      version: 1,
      seqNo: d,
      primaryTerm: 1,
    },
  });
  shard.refresh(Array.from({ length: 400 }, (_, d) => doc(d)), mappings);
  assert.equal(defer.tasks.length, 0, "a small segment waits for its first kNN search");
  shard.refresh(Array.from({ length: 1100 }, (_, d) => doc(400 + d)), mappings);
  const col = shard.snapshot().views[1]!.segment.vectors.get("v")!;
  assert.ok(defer.runAll() > 1);
  // Made: the steps of a search have nothing left to do.
  assert.equal(quantizeSteps([col]).next().done, true);
  assert.deepEqual(
    quantizedOf(col),
    quantizeColumn({ data: col.data, has: col.has, dims: 32, bits: 4, similarity: "cosine" }),
  );
});
