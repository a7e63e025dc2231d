import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function numbers(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/n", {
    mappings: { properties: { number: { type: "integer" }, day: { type: "date" } } },
  });
  const docs = [
    { number: 1, day: "2016-01-01" },
    { number: 51, day: "2016-01-02" },
    { number: 101, day: "2016-02-01" },
    { number: 151, day: "2016-03-01" },
    { other: true },
  ];
  for (const [i, d] of docs.entries()) await call(engine, "PUT", `/n/_doc/${i}`, d);
  await call(engine, "POST", "/n/_refresh");
  return engine;
}

async function agg(engine: Engine, body: Reply): Promise<Reply> {
  const r = await call(engine, "POST", "/n/_search", { size: 0, aggs: { h: body } });
  return r.code === 200 ? r.aggregations.h : r;
}

const pairs = (r: Reply): unknown[] => r.buckets.map((b: Reply) => [b.key, b.doc_count]);

Deno.test("histogram: extended_bounds, hard_bounds, missing and order", async () => {
  const engine = await numbers();
  const h = { field: "number", interval: 50 };
  assert.deepEqual(
    pairs(await agg(engine, { histogram: { ...h, extended_bounds: { max: 250 } } })),
    [
      [0, 1],
      [50, 1],
      [100, 1],
      [150, 1],
      [200, 0],
      [250, 0],
    ],
  );
  const hard = await agg(engine, {
    histogram: { ...h, hard_bounds: { min: 40, max: 120 }, extended_bounds: { min: 0, max: 300 } },
  });
  assert.deepEqual(pairs(hard), [[50, 1], [100, 1]]);
  assert.deepEqual(pairs(await agg(engine, { histogram: { ...h, missing: 0 } }))[0], [0, 2]);
  const desc = await agg(engine, { histogram: { ...h, order: { _key: "desc" } } });
  assert.deepEqual(desc.buckets.map((b: Reply) => b.key), [150, 100, 50, 0]);
  const bad = await agg(engine, { histogram: { ...h, extended_bounds: { min: 10, max: 5 } } });
  assert.equal(bad.code, 400);
  assert.match(
    bad.error.root_cause[0].reason,
    /\[extended_bounds.min\]\[10\] cannot be greater than \[extended_bounds.max\]\[5\]/,
  );
  engine.close();
});

Deno.test("date_histogram: offset shifts calendar buckets; extended_bounds as dates; order", async () => {
  const engine = await numbers();
  const shifted = await agg(engine, {
    date_histogram: { field: "day", calendar_interval: "month", offset: "+1d" },
  });
  assert.deepEqual(shifted.buckets.map((b: Reply) => [b.key_as_string, b.doc_count]), [
    ["2015-12-02T00:00:00.000Z", 1],
    ["2016-01-02T00:00:00.000Z", 2],
    ["2016-02-02T00:00:00.000Z", 1],
  ]);
  const wide = await agg(engine, {
    date_histogram: {
      field: "day",
      calendar_interval: "month",
      format: "yyyy-MM",
      extended_bounds: { min: "2015-12", max: "2016-04" },
    },
  });
  assert.deepEqual(wide.buckets.map((b: Reply) => [b.key_as_string, b.doc_count]), [
    ["2015-12", 0],
    ["2016-01", 2],
    ["2016-02", 1],
    ["2016-03", 1],
    ["2016-04", 0],
  ]);
  const byCount = await agg(engine, {
    date_histogram: { field: "day", calendar_interval: "month", order: { _count: "asc" } },
  });
  // Ties go by key ascending.
  assert.deepEqual(byCount.buckets.map((b: Reply) => b.doc_count), [1, 1, 2]);
  assert.equal(byCount.buckets[0].key_as_string, "2016-02-01T00:00:00.000Z");
  engine.close();
});

Deno.test("format: numeric keys and values written with a DecimalFormat pattern", async () => {
  const engine = await numbers();
  const h = await agg(engine, {
    histogram: { field: "number", interval: 50, format: "Value is ##0.0" },
  });
  assert.deepEqual(h.buckets[1], { key: 50, key_as_string: "Value is 50.0", doc_count: 1 });
  const terms = await agg(engine, { terms: { field: "number", format: "0.00", size: 1 } });
  assert.equal(terms.buckets[0].key_as_string, "1.00");
  assert.deepEqual(await agg(engine, { avg: { field: "number", format: "0.0" } }), {
    value: 76,
    value_as_string: "76.0",
  });
  // Without a format, a number has no text form.
  assert.deepEqual(await agg(engine, { max: { field: "number" } }), { value: 151 });
  const range = await agg(engine, {
    range: { field: "number", format: "0.0", ranges: [{ to: 50 }, { from: 50.5 }] },
  });
  assert.deepEqual(range.buckets[1], {
    key: "50.5-*",
    from: 50.5,
    from_as_string: "50.5",
    doc_count: 3,
  });
  const date = await agg(engine, { min: { field: "day", format: "yyyy" } });
  assert.equal(date.value_as_string, "2016");
  engine.close();
});

Deno.test("keyed ranges: buckets under their key without a key field; pipelines still see keys", async () => {
  const engine = await numbers();
  const r = await call(engine, "POST", "/n/_search", {
    size: 0,
    aggs: {
      r: {
        range: { field: "number", keyed: true, ranges: [{ to: 50 }, { from: 50, key: "big" }] },
      },
      top: { max_bucket: { buckets_path: "r>_count" } },
      h: { histogram: { field: "number", interval: 100, keyed: true } },
    },
  });
  assert.deepEqual(r.aggregations.r.buckets, {
    "*-50.0": { to: 50, doc_count: 1 },
    big: { from: 50, doc_count: 3 },
  });
  assert.deepEqual(r.aggregations.top, { value: 3, keys: ["big"] });
  // Histogram buckets keep their key when keyed.
  assert.deepEqual(r.aggregations.h.buckets["100.0"], { key: 100, doc_count: 2 });
  engine.close();
});

Deno.test("date_range: numbers in bounds and documents are read in the field's epoch format", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/s", {
    mappings: { properties: { date: { type: "date", format: "epoch_second" } } },
  });
  for (const [i, date] of [1000, 2000, 3000].entries()) {
    await call(engine, "PUT", `/s/_doc/${i}`, { date });
  }
  await call(engine, "POST", "/s/_refresh");
  const r = await call(engine, "POST", "/s/_search", {
    size: 0,
    aggs: {
      r: { date_range: { field: "date", ranges: [{ from: 1000, to: 3000 }, { from: 3000 }] } },
    },
  });
  assert.deepEqual(r.aggregations.r.buckets[0], {
    key: "1000-3000",
    from: 1_000_000,
    from_as_string: "1000",
    to: 3_000_000,
    to_as_string: "3000",
    doc_count: 2,
  });
  engine.close();
});
