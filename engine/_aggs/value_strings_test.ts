import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";
import { withValueStrings } from "./value_strings.ts";

const two = (n: number) => n.toFixed(2);

Deno.test("withValueStrings: value, stats and percentiles strings in Elasticsearch's order", () => {
  assert.deepEqual(Object.entries(withValueStrings({ value: 1, keys: ["a"] }, two)), [
    ["value", 1],
    ["value_as_string", "1.00"],
    ["keys", ["a"]],
  ]);
  assert.deepEqual(
    Object.keys(withValueStrings({ count: 1, min: 1, max: 1, avg: 1, sum: 1 }, two)),
    [
      "count",
      "min",
      "max",
      "avg",
      "sum",
      "min_as_string",
      "max_as_string",
      "avg_as_string",
      "sum_as_string",
    ],
  );
  // An empty stats result has no strings; a null value has none either.
  assert.deepEqual(withValueStrings({ count: 0, min: null, max: null, avg: null, sum: 0 }, two), {
    count: 0,
    min: null,
    max: null,
    avg: null,
    sum: 0,
  });
  assert.deepEqual(withValueStrings({ value: null }, two), { value: null });
  assert.deepEqual(withValueStrings({ values: { "50.0": 2 } }, two), {
    values: { "50.0": 2, "50.0_as_string": "2.00" },
  });
  const plain = { value: 1 };
  assert.equal(withValueStrings(plain, null), plain);
});

Deno.test("format on pipelines and stats: *_as_string beside the numbers", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/g", {
    mappings: { properties: { t: { type: "date" }, v: { type: "long" } } },
  });
  for (const [i, v] of [1, 2, 1].entries()) {
    await call(engine, "PUT", `/g/_doc/${i}`, { t: `2022-01-01T0${i}:00:00Z`, v });
  }
  await call(engine, "POST", "/g/_refresh");
  const r = await call(engine, "POST", "/g/_search", {
    size: 0,
    aggs: {
      h: {
        date_histogram: { field: "t", fixed_interval: "1h" },
        aggs: {
          v: { avg: { field: "v" } },
          cs: { cumulative_sum: { buckets_path: "v", format: "0.0" } },
        },
      },
      st: { stats_bucket: { buckets_path: "h>v", format: "0.00" } },
      mx: { max_bucket: { buckets_path: "h>v", format: "0.00" } },
      days: { stats: { field: "t" } },
    },
  });
  const a: Reply = r.aggregations;
  assert.deepEqual(a.h.buckets[2].cs, { value: 4, value_as_string: "4.0" });
  assert.equal(a.st.avg_as_string, "1.33");
  assert.deepEqual(Object.keys(a.mx), ["value", "value_as_string", "keys"]);
  // Stats of a date field are written as dates too.
  assert.equal(a.days.min_as_string, "2022-01-01T00:00:00.000Z");
  assert.equal(a.days.max_as_string, "2022-01-01T02:00:00.000Z");
  engine.close();
});
