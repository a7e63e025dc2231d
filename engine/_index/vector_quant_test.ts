import assert from "node:assert/strict";
import { quantizeColumn, quantizedScore, quantizeQuery } from "./vector_quant.ts";

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
