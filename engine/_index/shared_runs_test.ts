import assert from "node:assert/strict";
import { identityRun, ordinalList, ordinalListSteps, zeroRun } from "./shared_runs.ts";
import { buildSegment } from "./segment_builder.ts";
import { fieldMapOf } from "./field_map.ts";
import { numberColumn, numberColumnSteps } from "./segment.ts";
import type { StoredDoc } from "./types.ts";

Deno.test("shared runs: a longer run does not change views handed out before", () => {
  const short = identityRun(3);
  const zeros = zeroRun(3);
  const long = identityRun(5000);
  assert.deepEqual([...short], [0, 1, 2]);
  assert.equal(long[4999], 4999);
  assert.deepEqual([...zeros], [0, 0, 0]);
  assert.equal(zeroRun(4000).every((x) => x === 0), true);
});

Deno.test("shared runs: only 0, 1, … and all zeros are shared; other lists are copies", () => {
  const source = [0, 1, 3];
  const list = ordinalList(source);
  source[2] = 9;
  assert.deepEqual([...list], [0, 1, 3]);
  assert.equal(ordinalList([0, 1, 2]).buffer, identityRun(2).buffer);
  assert.equal(ordinalList([0, 0]).buffer, zeroRun(2).buffer);
  assert.deepEqual([...ordinalList([])], []);
  assert.deepEqual([...ordinalList([0])], [0]);
});

Deno.test("a segment's dense fields read the same through shared runs and narrow columns", () => {
  const docs: StoredDoc[] = [0, 1, 2].map((i) => ({
    id: String(i),
    source: { t: "a b a", n: i - 1, d: i + 0.5, k: "x" },
    version: 1,
    seqNo: i,
    primaryTerm: 1,
  }));
  docs.push({ id: "3", source: { d: -0 }, version: 1, seqNo: 3, primaryTerm: 1 });
  const fields = fieldMapOf({
    properties: {
      t: { type: "text" },
      n: { type: "integer" },
      d: { type: "double" },
      k: { type: "keyword" },
    },
  });
  const seg = buildSegment(docs, fields);
  const n = seg.fields.get("n")!;
  assert.deepEqual([...n.present], [0, 1, 2]);
  assert.deepEqual([...n.dvStart], [0, 1, 2, 3, 3]);
  assert.ok(n.numValues instanceof Int32Array);
  assert.deepEqual([...n.numValues!], [-1, 0, 1]);
  assert.deepEqual([...n.pointValues!], [-1, 0, 1]);
  const d = seg.fields.get("d")!;
  assert.ok(d.numValues instanceof Float64Array);
  assert.ok(Object.is(d.numValues![3], -0));
  const t = seg.fields.get("t")!;
  assert.deepEqual([...t.dvStart], [0, 0, 0, 0, 0]);
  const a = t.terms.get("a")!;
  assert.deepEqual([...a.freqs!], [2, 2, 2]);
  assert.deepEqual([...a.positions!], [0, 2, 0, 2, 0, 2]);
  assert.ok(a.positions instanceof Uint8Array);
  assert.ok(numberColumn([2 ** 31]) instanceof Float64Array);
});

Deno.test("ordinalListSteps gives what ordinalList gives, by blocks", () => {
  const drain = (values: Int32Array, block: number): Int32Array => {
    const steps = ordinalListSteps(values, block);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  };
  const cases = [
    Int32Array.of(),
    Int32Array.of(0),
    Int32Array.of(5),
    Int32Array.from({ length: 100 }, (_, i) => i),
    new Int32Array(100),
    Int32Array.from({ length: 100 }, (_, i) => (i === 77 ? 3 : i)),
    Int32Array.from({ length: 100 }, (_, i) => (i === 99 ? 1 : 0)),
    Int32Array.from({ length: 40 }, (_, i) => i * 3),
  ];
  for (const values of cases) {
    for (const block of [1, 7, 64, 1000]) {
      const got = drain(values, block);
      const want = ordinalList(values);
      assert.deepEqual([...got], [...want]);
      // The shared runs come back as views of the shared buffers, like ordinalList's.
      const shared = want.buffer === identityRun(1).buffer || want.buffer === zeroRun(1).buffer;
      if (shared) assert.equal(got.buffer, want.buffer);
      else assert.notEqual(got.buffer, identityRun(1).buffer);
    }
    // A view into a larger buffer is copied (it must not keep the rest alive).
    const big = new Int32Array(values.length + 5);
    big.set(values);
    const view = big.subarray(0, values.length);
    const got = drain(view, 3);
    assert.deepEqual([...got], [...ordinalList(values)]);
    assert.notEqual(got.buffer, big.buffer);
  }
});

Deno.test("numberColumnSteps gives what numberColumn gives, by blocks", () => {
  const drain = (values: Float64Array, block: number) => {
    const steps = numberColumnSteps(values, block);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  };
  const cases = [
    [],
    [1, 2, 3],
    [1, 2.5, 3],
    [0, -0, 4],
    [2 ** 31, 1],
    [-(2 ** 31), 7],
    Array.from({ length: 50 }, (_, i) => i * 7 - 100),
    Array.from({ length: 50 }, (_, i) => (i === 49 ? 0.5 : i)),
  ];
  for (const list of cases) {
    for (const block of [1, 4, 100]) {
      const want = numberColumn(list);
      const owned = drain(Float64Array.from(list), block);
      assert.equal(owned.constructor, want.constructor);
      assert.deepEqual(
        [...owned].map((v) => Object.is(v, -0) ? "-0" : v),
        [...want].map((v) => Object.is(v, -0) ? "-0" : v),
      );
      // A view into a larger buffer is copied.
      const big = new Float64Array(list.length + 3);
      big.set(list);
      const got = drain(big.subarray(0, list.length), block);
      assert.equal(got.constructor, want.constructor);
      assert.deepEqual([...got], [...want]);
      assert.notEqual(got.buffer, big.buffer);
    }
  }
});
