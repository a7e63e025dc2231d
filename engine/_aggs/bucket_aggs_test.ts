import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

type Json = Reply;

async function events(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/ev", {
    mappings: { properties: { d: { type: "date" }, n: { type: "double" } } },
  });
  await call(engine, "PUT", "/ev/_doc/1", { d: "2024-01-05T10:00:00Z", n: 1.5 }); // a Friday
  await call(engine, "PUT", "/ev/_doc/2?refresh=true", { d: "2024-01-07T10:00:00Z", n: 12 }); // Sunday
  return engine;
}

Deno.test("histogram and date_histogram keyed: objects in key order, keys as Elasticsearch writes", async () => {
  const engine = await events();
  const res = await call(engine, "POST", "/ev/_search", {
    size: 0,
    aggs: {
      h: {
        histogram: { field: "n", interval: 5, keyed: true },
        aggs: { c: { cumulative_sum: { buckets_path: "_count" } } },
      },
      d: {
        date_histogram: { field: "d", calendar_interval: "day", keyed: true, format: "yyyy-MM-dd" },
      },
    },
  });
  const h = res.aggregations.h.buckets;
  assert.deepEqual(Object.keys(h), ["0.0", "5.0", "10.0"]);
  assert.deepEqual(h["10.0"], { key: 10, doc_count: 1, c: { value: 2 } });
  assert.deepEqual(Object.keys(res.aggregations.d.buckets), [
    "2024-01-05",
    "2024-01-06",
    "2024-01-07",
  ]);
  engine.close();
});

Deno.test("date_histogram format: day of week `e`, names, epoch formats", async () => {
  const engine = await events();
  const keys = async (format: string) => {
    const res = await call(engine, "POST", "/ev/_search", {
      size: 0,
      aggs: {
        d: { date_histogram: { field: "d", calendar_interval: "day", format, min_doc_count: 1 } },
      },
    });
    return res.aggregations.d.buckets.map((b: Json) => b.key_as_string);
  };
  assert.deepEqual(await keys("e"), ["5", "7"]);
  assert.deepEqual(await keys("EEE, d MMM yyyy"), ["Fri, 5 Jan 2024", "Sun, 7 Jan 2024"]);
  assert.deepEqual(await keys("EEEE MMMM"), ["Friday January", "Sunday January"]);
  assert.deepEqual(await keys("epoch_second"), ["1704412800", "1704585600"]);
  assert.deepEqual(await keys("epoch_millis"), ["1704412800000", "1704585600000"]);
  engine.close();
});
