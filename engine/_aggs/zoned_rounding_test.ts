import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function events(dates: string[]): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/ev", { mappings: { properties: { at: { type: "date" } } } });
  const lines = dates.flatMap((at, i) => [{ index: { _id: String(i) } }, { at }]);
  const body = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  await engine.fetch("http://engine/ev/_bulk?refresh=true", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body,
  });
  return engine;
}

async function histogram(engine: Engine, agg: Record<string, unknown>): Promise<unknown[][]> {
  const res = await call(engine, "POST", "/ev/_search", {
    size: 0,
    aggs: { h: { date_histogram: { field: "at", ...agg } } },
  });
  assert.equal(res.code, 200, JSON.stringify(res));
  return res.aggregations.h.buckets.map((b: Reply) => [b.key_as_string, b.key, b.doc_count]);
}

Deno.test("date_histogram time_zone: day buckets start at local midnight across a DST change", async () => {
  const engine = await events([
    "2024-03-30T12:00:00Z",
    "2024-03-31T12:00:00Z",
    "2024-03-31T22:30:00Z", // 00:30 on 1 April in Paris
  ]);
  assert.deepEqual(
    await histogram(engine, { calendar_interval: "day", time_zone: "Europe/Paris" }),
    [
      ["2024-03-30T00:00:00.000+01:00", Date.UTC(2024, 2, 29, 23), 1],
      ["2024-03-31T00:00:00.000+01:00", Date.UTC(2024, 2, 30, 23), 1],
      ["2024-04-01T00:00:00.000+02:00", Date.UTC(2024, 2, 31, 22), 1],
    ],
  );
  // In UTC the last one falls on 31 March.
  assert.deepEqual(
    (await histogram(engine, { calendar_interval: "day" })).map((b) => b[2]),
    [1, 2],
  );
});

Deno.test("date_histogram time_zone: a 12h fixed bucket is 11 hours on the day clocks go forward", async () => {
  const engine = await events(["2024-03-31T09:30:00Z", "2024-03-31T10:30:00Z"]);
  assert.deepEqual(
    await histogram(engine, { fixed_interval: "12h", time_zone: "Europe/Paris" }),
    [
      ["2024-03-31T00:00:00.000+01:00", Date.UTC(2024, 2, 30, 23), 1],
      ["2024-03-31T12:00:00.000+02:00", Date.UTC(2024, 2, 31, 10), 1],
    ],
  );
});

Deno.test("date_histogram time_zone: the hour repeated when clocks go back is two buckets", async () => {
  const engine = await events([
    "2024-10-27T00:30:00Z",
    "2024-10-27T01:30:00Z",
    "2024-10-27T03:10:00Z",
  ]);
  assert.deepEqual(
    await histogram(engine, { calendar_interval: "hour", time_zone: "Europe/Paris" }),
    [
      ["2024-10-27T02:00:00.000+02:00", Date.UTC(2024, 9, 27, 0), 1],
      ["2024-10-27T02:00:00.000+01:00", Date.UTC(2024, 9, 27, 1), 1],
      ["2024-10-27T03:00:00.000+01:00", Date.UTC(2024, 9, 27, 2), 0],
      ["2024-10-27T04:00:00.000+01:00", Date.UTC(2024, 9, 27, 3), 1],
    ],
  );
});

Deno.test("date_histogram and date_range: months in New York, fixed offsets, unknown zones", async () => {
  const engine = await events(["2024-03-01T03:00:00Z", "2024-03-15T00:00:00Z"]);
  assert.deepEqual(
    await histogram(engine, { calendar_interval: "month", time_zone: "America/New_York" }),
    [
      ["2024-02-01T00:00:00.000-05:00", Date.UTC(2024, 1, 1, 5), 1],
      ["2024-03-01T00:00:00.000-05:00", Date.UTC(2024, 2, 1, 5), 1],
    ],
  );
  assert.deepEqual(
    (await histogram(engine, { calendar_interval: "month", time_zone: "-01:00" })).map((b) => b[0]),
    ["2024-03-01T00:00:00.000-01:00"],
  );
  const ranges = await call(engine, "POST", "/ev/_search", {
    size: 0,
    aggs: {
      r: {
        date_range: {
          field: "at",
          time_zone: "America/New_York",
          ranges: [{ to: "2024-03-01" }, { from: "2024-03-01" }],
        },
      },
    },
  });
  assert.deepEqual(
    ranges.aggregations.r.buckets.map((
      b: Reply,
    ) => [b.to_as_string ?? b.from_as_string, b.doc_count]),
    [["2024-03-01T00:00:00.000-05:00", 1], ["2024-03-01T00:00:00.000-05:00", 1]],
  );
  const bad = await call(engine, "POST", "/ev/_search", {
    size: 0,
    aggs: {
      h: { date_histogram: { field: "at", calendar_interval: "day", time_zone: "Nowhere/Land" } },
    },
  });
  assert.equal(bad.code, 400);
  assert.equal(bad.error.root_cause[0].type, "zone_rules_exception");
  assert.equal(bad.error.root_cause[0].reason, "Unknown time-zone ID: Nowhere/Land");
});

Deno.test("date_histogram offset: +6h day buckets run from 06:00, in the zone too", async () => {
  const engine = await events([
    "2024-07-01T05:00:00Z",
    "2024-07-01T07:00:00Z",
    "2024-07-02T05:59:00Z",
  ]);
  assert.deepEqual(
    await histogram(engine, { calendar_interval: "day", offset: "+6h" }),
    [
      ["2024-06-30T06:00:00.000Z", Date.UTC(2024, 5, 30, 6), 1],
      ["2024-07-01T06:00:00.000Z", Date.UTC(2024, 6, 1, 6), 2],
    ],
  );
  assert.deepEqual(
    (await histogram(engine, {
      calendar_interval: "day",
      offset: "+6h",
      time_zone: "Europe/Paris",
    }))
      .map((b) => b[0]),
    // 05:00Z is 07:00 in Paris: past 06:00 local, so the Paris buckets start a day later.
    ["2024-07-01T06:00:00.000+02:00", "2024-07-02T06:00:00.000+02:00"],
  );
  const res = await call(engine, "POST", "/ev/_search", {
    size: 0,
    aggs: { h: { date_histogram: { field: "at", calendar_interval: "day", offset: "6 hours" } } },
  });
  assert.equal(res.code, 400);
  assert.match(res.error.root_cause[0].reason, /failed to parse setting \[date_histogram.offset\]/);
});
