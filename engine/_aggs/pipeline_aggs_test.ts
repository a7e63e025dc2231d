// Pipeline aggregations through engine.fetch: sibling and parent pipelines, buckets_path syntax,
// gap policies and the validation Elasticsearch does before running them.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

type Json = Reply;

/** Sales on four months; March has none. */
async function sales(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/sales", {
    mappings: {
      properties: { date: { type: "date" }, price: { type: "long" }, type: { type: "keyword" } },
    },
  });
  const docs = [
    ["2024-01-01", 200, "hat"],
    ["2024-01-15", 10, "bag"],
    ["2024-02-01", 150, "hat"],
    ["2024-04-01", 50, "bag"],
    ["2024-04-20", 300, "hat"],
  ];
  const lines = docs.flatMap(([date, price, type]) => [
    JSON.stringify({ index: {} }),
    JSON.stringify({ date, price, type }),
  ]);
  await engine.fetch("http://engine/sales/_bulk?refresh=true", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: lines.join("\n") + "\n",
  });
  return engine;
}

const monthly = (aggs: Json = {}) => ({
  date_histogram: { field: "date", calendar_interval: "month" },
  aggs: { sales: { sum: { field: "price" } }, ...aggs },
});

Deno.test("sibling pipelines: avg/sum/max/min/stats/percentiles_bucket over monthly sums", async () => {
  const engine = await sales();
  const res = await call(engine, "POST", "/sales/_search", {
    size: 0,
    aggs: {
      months: monthly(),
      avg: { avg_bucket: { buckets_path: "months>sales" } },
      total: { sum_bucket: { buckets_path: "months>sales" } },
      top: { max_bucket: { buckets_path: "months>sales" } },
      low: { min_bucket: { buckets_path: "months>sales" } },
      counts: { stats_bucket: { buckets_path: "months>_count" } },
      pct: { percentiles_bucket: { buckets_path: "months>sales", percents: [50] } },
      ext: { extended_stats_bucket: { buckets_path: "months>sales" } },
    },
  });
  const a = res.aggregations;
  // March is an empty bucket: skipped by the default gap policy.
  assert.equal(a.avg.value, (210 + 150 + 350) / 3);
  assert.equal(a.total.value, 710);
  assert.deepEqual(a.top, { value: 350, keys: ["2024-04-01T00:00:00.000Z"] });
  assert.deepEqual(a.low, { value: 150, keys: ["2024-02-01T00:00:00.000Z"] });
  // _count is never a gap: the empty March counts as 0.
  assert.deepEqual(a.counts, { count: 4, min: 0, max: 2, avg: 5 / 4, sum: 5 });
  assert.deepEqual(a.pct.values, { "50.0": 210 });
  assert.equal(a.ext.count, 3);
  assert.deepEqual(Object.keys(a), [
    "months",
    "avg",
    "total",
    "top",
    "low",
    "counts",
    "pct",
    "ext",
  ]);
  engine.close();
});

Deno.test("sibling pipelines: insert_zeros, keyed paths, an empty sibling, a bad path", async () => {
  const engine = await sales();
  const res = await call(engine, "POST", "/sales/_search", {
    size: 0,
    aggs: {
      months: monthly(),
      per_month: {
        date_histogram: { field: "date", calendar_interval: "month", min_doc_count: 1 },
        aggs: {
          hats: { filter: { term: { type: "hat" } }, aggs: { s: { sum: { field: "price" } } } },
        },
      },
      avg0: { avg_bucket: { buckets_path: "months>sales", gap_policy: "insert_zeros" } },
      hats: { max_bucket: { buckets_path: "per_month>hats>s" } },
      hat_docs: { sum_bucket: { buckets_path: "per_month>hats>_count" } },
    },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  assert.equal(res.aggregations.avg0.value, 710 / 4);
  assert.deepEqual(res.aggregations.hats, { value: 300, keys: ["2024-04-01T00:00:00.000Z"] });
  assert.equal(res.aggregations.hat_docs.value, 3);
  const none = await call(engine, "POST", "/sales/_search", {
    size: 0,
    query: { term: { type: "shoe" } },
    aggs: { months: monthly(), top: { max_bucket: { buckets_path: "months>sales" } } },
  });
  assert.deepEqual(none.aggregations.top, { value: null, keys: [] });
  const bad = await call(engine, "POST", "/sales/_search", {
    size: 0,
    aggs: { months: monthly(), top: { max_bucket: { buckets_path: "months>nope" } } },
  });
  assert.equal(bad.code, 400);
  assert.match(JSON.stringify(bad.error), /No aggregation found for path \[months>nope\]/);
  engine.close();
});

Deno.test("parent pipelines: cumulative_sum and derivative (with unit) in a date_histogram", async () => {
  const engine = await sales();
  const res = await call(engine, "POST", "/sales/_search", {
    size: 0,
    aggs: {
      months: monthly({
        running: { cumulative_sum: { buckets_path: "sales" } },
        change: { derivative: { buckets_path: "sales" } },
        daily: { derivative: { buckets_path: "_count", unit: "day" } },
        runchange: { derivative: { buckets_path: "running" } },
      }),
    },
  });
  const b = res.aggregations.months.buckets;
  assert.deepEqual(b.map((x: Json) => x.running.value), [210, 360, 360, 710]);
  assert.equal(b[0].change, undefined);
  assert.equal(b[1].change.value, -60);
  // Real OpenSearch 3.8.0 (gap_policy skip): the empty month's value is NaN, so its derivative
  // and the next month's are null; `_count` has no gaps.
  assert.deepEqual(b[2].change, { value: null });
  assert.deepEqual(b[3].change, { value: null });
  assert.equal(b[1].daily.value, -1);
  assert.equal(b[1].daily.normalized_value, -1 / 31);
  assert.deepEqual(b[2].daily, { value: -1, normalized_value: -0.034482758620689655 });
  assert.deepEqual(b[3].daily, { value: 2, normalized_value: 0.06451612903225806 });
  // The empty month is a gap for a metric path even when the metric has a value.
  assert.deepEqual(b.map((x: Json) => x.runchange?.value), [undefined, 150, null, null]);
  engine.close();
});

Deno.test("parent pipelines: bucket_script, bucket_selector and bucket_sort", async () => {
  const engine = await sales();
  const notBool = await call(engine, "POST", "/sales/_search", {
    size: 0,
    aggs: {
      months: monthly({
        big: { bucket_selector: { buckets_path: { s: "sales" }, script: "params.s" } },
      }),
    },
  });
  assert.equal(notBool.code, 400);
  const ok = await call(engine, "POST", "/sales/_search", {
    size: 0,
    aggs: {
      months: monthly({
        per_doc: {
          bucket_script: {
            buckets_path: { total: "sales", n: "_count" },
            script: { source: "return params.total / params.n * params.k", params: { k: 2 } },
          },
        },
        big: { bucket_selector: { buckets_path: { s: "sales" }, script: "params.s >= 200" } },
        order: { bucket_sort: { sort: [{ sales: { order: "asc" } }], size: 1 } },
      }),
    },
  });
  assert.equal(ok.code, 200, JSON.stringify(ok));
  const b = ok.aggregations.months.buckets;
  assert.equal(b.length, 1);
  assert.equal(b[0].key_as_string, "2024-01-01T00:00:00.000Z");
  assert.equal(b[0].per_doc.value, 210);
  const sortedOnly = await call(engine, "POST", "/sales/_search", {
    size: 0,
    aggs: { months: monthly({ page: { bucket_sort: { from: 1, size: 2 } } }) },
  });
  assert.deepEqual(
    sortedOnly.aggregations.months.buckets.map((x: Json) => x.doc_count),
    [1, 0],
  );
  engine.close();
});

Deno.test("pipeline validation: parents need a (histogram) parent, paths and sizes checked", async () => {
  const engine = await sales();
  const top = await call(engine, "POST", "/sales/_search", {
    aggs: { c: { cumulative_sum: { buckets_path: "x" } } },
  });
  assert.equal(top.code, 400);
  assert.equal(top.error.type, "action_request_validation_exception");
  assert.match(top.error.reason, /cumulative_sum aggregation \[c\] must have a histogram/);
  const inTerms = await call(engine, "POST", "/sales/_search", {
    aggs: {
      t: { terms: { field: "type" }, aggs: { d: { derivative: { buckets_path: "_count" } } } },
    },
  });
  assert.equal(inTerms.error.type, "action_request_validation_exception");
  const noPath = await call(engine, "POST", "/sales/_search", {
    aggs: { months: monthly(), m: { max_bucket: {} } },
  });
  assert.equal(noPath.code, 400);
  assert.match(JSON.stringify(noPath.error), /Missing required field \[buckets_path\]/);
  const badSize = await call(engine, "POST", "/sales/_search", {
    aggs: { months: monthly({ s: { bucket_sort: { size: 0 } } }) },
  });
  assert.equal(badSize.code, 400);
  const gap = await call(engine, "POST", "/sales/_search", {
    aggs: {
      months: monthly(),
      m: { max_bucket: { buckets_path: "months>sales", gap_policy: "x" } },
    },
  });
  assert.equal(gap.code, 400);
  engine.close();
});
