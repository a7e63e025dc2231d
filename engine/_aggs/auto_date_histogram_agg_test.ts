import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function days(dates: string[]): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/d", { mappings: { properties: { date: { type: "date" } } } });
  for (const [v, date] of dates.entries()) {
    await call(engine, "PUT", `/d/_doc/${v}`, { date, v: v + 1 });
  }
  await call(engine, "POST", "/d/_refresh");
  return engine;
}

async function auto(engine: Engine, body: Reply, extra: Reply = {}): Promise<Reply> {
  const r = await call(engine, "POST", "/d/_search", {
    size: 0,
    aggs: { h: { auto_date_histogram: { field: "date", ...body } }, ...extra },
  });
  return r.code === 200 ? r.aggregations : r;
}

const rows = (h: Reply): unknown[] => h.buckets.map((b: Reply) => [b.key_as_string, b.doc_count]);

Deno.test("auto_date_histogram: the finest interval with at most `buckets` buckets", async () => {
  const engine = await days(["2020-03-01", "2020-03-02", "2020-03-08", "2020-03-09"]);
  const two = await auto(engine, { buckets: 2 }, {});
  // 9 days need 7-day buckets, counted from the first day.
  assert.equal(two.h.interval, "7d");
  assert.deepEqual(rows(two.h), [["2020-03-01T00:00:00.000Z", 2], ["2020-03-08T00:00:00.000Z", 2]]);
  const ten = await auto(engine, { buckets: 10 });
  assert.equal(ten.h.interval, "1d");
  assert.equal(ten.h.buckets.length, 9);
  assert.equal(ten.h.buckets[2].doc_count, 0);
  const months = await auto(engine, { buckets: 10, minimum_interval: "month", format: "yyyy-MM" });
  assert.deepEqual(rows(months.h), [["2020-03", 4]]);
  assert.equal(months.h.interval, "1M");
  engine.close();
});

Deno.test("auto_date_histogram: sub-aggregations and sibling pipelines", async () => {
  const engine = await days(["2020-03-01", "2020-03-02", "2020-03-08", "2020-03-09"]);
  const r = await call(engine, "POST", "/d/_search", {
    size: 0,
    aggs: {
      h: {
        auto_date_histogram: { field: "date", buckets: 2 },
        aggs: { v: { sum: { field: "v" } } },
      },
      avg_v: { avg_bucket: { buckets_path: "h.v" } },
    },
  });
  assert.deepEqual(r.aggregations.h.buckets.map((b: Reply) => b.v.value), [3, 7]);
  assert.equal(r.aggregations.avg_v.value, 5);
  const bad = await auto(engine, { buckets: 0 });
  assert.equal(bad.code, 400);
  engine.close();
});

Deno.test("auto_date_histogram: days start on the time_zone's clock", async () => {
  const engine = await days(["2020-03-01T01:00:00Z", "2020-03-02T01:00:00Z"]);
  const r = await auto(engine, { buckets: 2, time_zone: "+02:00" });
  assert.equal(r.h.interval, "1d");
  assert.deepEqual(rows(r.h), [
    ["2020-03-01T00:00:00.000+02:00", 1],
    ["2020-03-02T00:00:00.000+02:00", 1],
  ]);
  engine.close();
});
