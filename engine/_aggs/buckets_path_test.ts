import assert from "node:assert/strict";
import { bucketValue, parseBucketsPath, resolvePath } from "./buckets_path.ts";

Deno.test("parseBucketsPath: elements, quoted and bare keys, metrics; empty refused", () => {
  assert.deepEqual(parseBucketsPath("a>b.avg"), [{ name: "a" }, { name: "b", metric: "avg" }]);
  assert.deepEqual(parseBucketsPath("t['x>y.z']>_count"), [{ name: "t", key: "x>y.z" }, {
    name: "_count",
  }]);
  assert.throws(() => parseBucketsPath("a>"), /Invalid path/);
  assert.deepEqual(parseBucketsPath("t['hat']>s"), [{ name: "t", key: "hat" }, { name: "s" }]);
  assert.deepEqual(parseBucketsPath("p[99.9]"), [{ name: "p", key: "99.9" }]);
  assert.throws(() => parseBucketsPath(""), /Invalid path/);
  assert.throws(() => parseBucketsPath("a>>b"), /Invalid path/);
});

Deno.test("resolvePath: keyed buckets, multi-value metrics, percentiles, _bucket_count", () => {
  const aggs = {
    t: { buckets: [{ key: "hat", doc_count: 2, s: { value: 5 } }, { key: "bag", doc_count: 1 }] },
    st: { count: 2, avg: 1.5 },
    p: { values: { "50.0": 7, "99.9": 9 } },
    doc_count: 3,
  };
  assert.equal(resolvePath(aggs, parseBucketsPath("t['hat']>s"), ""), 5);
  assert.equal(resolvePath(aggs, parseBucketsPath("t['bag']"), ""), 1);
  assert.equal(resolvePath(aggs, parseBucketsPath("st.avg"), ""), 1.5);
  assert.equal(resolvePath(aggs, parseBucketsPath("p[99.9]"), ""), 9);
  assert.equal(resolvePath(aggs, parseBucketsPath("p.50"), ""), 7);
  assert.equal(resolvePath(aggs, parseBucketsPath("t._bucket_count"), ""), 2);
  assert.equal(resolvePath(aggs, parseBucketsPath("_count"), ""), 3);
  assert.throws(() => resolvePath(aggs, parseBucketsPath("st"), "st"), /multiple values/);
  assert.throws(() => resolvePath(aggs, parseBucketsPath("t['shoe']"), "x"), /No bucket/);
  assert.throws(() => resolvePath(aggs, parseBucketsPath("nope"), "nope"), /No aggregation/);
});

Deno.test("bucketValue: gap policies on an empty bucket; _count is never a gap", () => {
  const empty = { doc_count: 0, s: { value: 0 }, m: { value: null } };
  const s = parseBucketsPath("s");
  assert.ok(Number.isNaN(bucketValue(empty, s, "s", "skip")));
  assert.equal(bucketValue(empty, s, "s", "insert_zeros"), 0);
  assert.equal(bucketValue(empty, s, "s", "keep_values"), 0);
  assert.ok(Number.isNaN(bucketValue(empty, parseBucketsPath("m"), "m", "keep_values")));
  assert.equal(bucketValue(empty, parseBucketsPath("_count"), "_count", "skip"), 0);
});

Deno.test("resolvePath: a path through or ending at a multi-bucket result is refused by its class", () => {
  const inner = { sum_other_doc_count: 0, buckets: [{ key: 1, doc_count: 1, m: { value: 1 } }] };
  const bucket = { key: 1, doc_count: 1, t2: inner };
  assert.throws(
    () => resolvePath(bucket, parseBucketsPath("t2>m"), "t>t2>m"),
    /got: \[Object\[\]\] at aggregation \[t2\]/,
  );
  assert.throws(
    () => resolvePath(bucket, parseBucketsPath("t2"), "t>t2"),
    /got: \[LongTerms\] at aggregation \[t2\]/,
  );
  // A percentiles result with one percent is a single value.
  const p = { key: 1, doc_count: 1, p: { values: [{ key: 99, value: 4 }] } };
  assert.equal(resolvePath(p, parseBucketsPath("p"), "t>p"), 4);
  const two = { key: 1, doc_count: 1, p: { values: { "1.0": 1, "99.0": 4 } } };
  assert.throws(() => resolvePath(two, parseBucketsPath("p"), "t>p"), /contains multiple values/);
});
