import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function shop(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/shop", {
    mappings: {
      properties: {
        color: { type: "keyword" },
        size: { type: "long" },
        price: { type: "double" },
        sold: { type: "date" },
        addr: { type: "ip" },
        ok: { type: "boolean" },
      },
    },
  });
  const docs = [
    { color: "red", size: [1, 2], price: 3.5, sold: "2021-03-01T10:00:00Z", addr: "10.0.0.9" },
    { color: ["red", "blue"], price: 12, sold: "2021-03-01T23:00:00Z", addr: "10.0.0.10" },
    { color: "blue", size: [30, 0], sold: "2021-03-03T01:00:00Z", ok: true },
    { color: "blue", size: [40, 0], price: 18, ok: false },
    { price: 7 },
  ];
  let id = 0;
  for (const d of docs) await call(engine, "PUT", `/shop/_doc/${++id}`, d);
  await call(engine, "POST", "/shop/_refresh");
  return engine;
}

function composite(body: Reply, sub?: Reply): Reply {
  return { size: 0, aggs: { c: { composite: body, ...(sub ? { aggs: sub } : {}) } } };
}

const keys = (r: Reply): unknown[] =>
  r.aggregations.c.buckets.map((b: Reply) => [b.key, b.doc_count]);

Deno.test("composite: one terms source, sorted by key, with after_key before buckets", async () => {
  const engine = await shop();
  const r = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ c: { terms: { field: "color" } } }] }),
  );
  assert.equal(r.code, 200);
  assert.deepEqual(Object.keys(r.aggregations.c), ["after_key", "buckets"]);
  assert.deepEqual(keys(r), [[{ c: "blue" }, 3], [{ c: "red" }, 2]]);
  assert.deepEqual(r.aggregations.c.after_key, { c: "red" });
  engine.close();
});

Deno.test("composite: several sources make the cartesian product per doc; after pages", async () => {
  const engine = await shop();
  const sources = [{ s: { terms: { field: "size" } } }, { c: { terms: { field: "color" } } }];
  const all = await call(engine, "POST", "/shop/_search", composite({ sources }));
  assert.deepEqual(keys(all), [
    [{ s: 0, c: "blue" }, 2],
    [{ s: 1, c: "red" }, 1],
    [{ s: 2, c: "red" }, 1],
    [{ s: 30, c: "blue" }, 1],
    [{ s: 40, c: "blue" }, 1],
  ]);
  // Paging with size and after_key walks the same buckets in the same order.
  const seen: unknown[] = [];
  let after: Reply | undefined;
  for (let page = 0; page < 5; page++) {
    const r = await call(
      engine,
      "POST",
      "/shop/_search",
      composite({ sources, size: 2, ...(after ? { after } : {}) }),
    );
    if (r.aggregations.c.buckets.length === 0) {
      assert.equal(r.aggregations.c.after_key, undefined);
      break;
    }
    seen.push(...keys(r));
    after = r.aggregations.c.after_key;
  }
  assert.deepEqual(seen, keys(all));
  // An after key that is not itself a bucket still starts after it.
  const mid = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources, after: { s: 2, c: "a" } }),
  );
  assert.deepEqual(keys(mid)[0], [{ s: 2, c: "red" }, 1]);
  engine.close();
});

Deno.test("composite: order desc, missing_bucket and missing_order", async () => {
  const engine = await shop();
  const desc = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ c: { terms: { field: "color", order: "desc" } } }] }),
  );
  assert.deepEqual(keys(desc), [[{ c: "red" }, 2], [{ c: "blue" }, 3]]);
  const missing = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ c: { terms: { field: "color", missing_bucket: true } } }] }),
  );
  assert.deepEqual(keys(missing), [[{ c: null }, 1], [{ c: "blue" }, 3], [{ c: "red" }, 2]]);
  const last = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({
      sources: [{ c: { terms: { field: "color", missing_bucket: true, missing_order: "last" } } }],
      after: { c: "blue" },
    }),
  );
  assert.deepEqual(keys(last), [[{ c: "red" }, 2], [{ c: null }, 1]]);
  const descMissing = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({
      sources: [{ c: { terms: { field: "color", order: "desc", missing_bucket: true } } }],
      after: { c: null },
    }),
  );
  assert.deepEqual(keys(descMissing), []);
  const bad = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ c: { terms: { field: "color", missing_order: "first" } } }] }),
  );
  assert.equal(bad.code, 400);
  assert.match(bad.error.root_cause[0].reason, /missingOrder can only be set if missingBucket/);
  engine.close();
});

Deno.test("composite: histogram and date_histogram sources, format and after by format", async () => {
  const engine = await shop();
  const hist = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ p: { histogram: { field: "price", interval: 5 } } }] }),
  );
  assert.deepEqual(keys(hist), [[{ p: 0 }, 1], [{ p: 5 }, 1], [{ p: 10 }, 1], [{ p: 15 }, 1]]);
  const priced = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ p: { histogram: { field: "price", interval: 5, format: "0.00" } } }] }),
  );
  assert.deepEqual(keys(priced)[1], [{ p: "5.00" }, 1]);
  const days = { d: { date_histogram: { field: "sold", calendar_interval: "1d" } } };
  const raw = await call(engine, "POST", "/shop/_search", composite({ sources: [days] }));
  assert.deepEqual(keys(raw), [[{ d: 1614556800000 }, 2], [{ d: 1614729600000 }, 1]]);
  const fmt = {
    d: { date_histogram: { field: "sold", calendar_interval: "1d", format: "yyyy-MM-dd" } },
  };
  const formatted = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [fmt], after: { d: "2021-03-01" } }),
  );
  assert.deepEqual(keys(formatted), [[{ d: "2021-03-03" }, 1]]);
  const offset = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({
      sources: [{
        d: {
          date_histogram: {
            field: "sold",
            calendar_interval: "1d",
            offset: "+12h",
            format: "strict_date_time",
          },
        },
      }],
    }),
  );
  assert.deepEqual(keys(offset), [
    [{ d: "2021-02-28T12:00:00.000Z" }, 1],
    [{ d: "2021-03-01T12:00:00.000Z" }, 1],
    [{ d: "2021-03-02T12:00:00.000Z" }, 1],
  ]);
  engine.close();
});

Deno.test("composite: terms keys of dates, booleans and ips as Elasticsearch writes them", async () => {
  const engine = await shop();
  const r = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ ok: { terms: { field: "ok" } } }] }),
  );
  assert.deepEqual(keys(r), [[{ ok: false }, 1], [{ ok: true }, 1]]);
  const ips = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ a: { terms: { field: "addr" } } }] }),
  );
  // Addresses sort by value, not as text ("10.0.0.9" < "10.0.0.10").
  assert.deepEqual(keys(ips), [[{ a: "10.0.0.9" }, 1], [{ a: "10.0.0.10" }, 1]]);
  const dates = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ d: { terms: { field: "sold" } } }], size: 1 }),
  );
  assert.deepEqual(keys(dates), [[{ d: 1614592800000 }, 1]]);
  engine.close();
});

Deno.test("composite: sub-aggregations and bucket_selector run per bucket", async () => {
  const engine = await shop();
  const r = await call(
    engine,
    "POST",
    "/shop/_search",
    composite({ sources: [{ c: { terms: { field: "color" } } }] }, {
      top: { max: { field: "price" } },
      keep: { bucket_selector: { buckets_path: { t: "top" }, script: "params.t > 15" } },
    }),
  );
  assert.equal(r.code, 200);
  assert.deepEqual(
    r.aggregations.c.buckets.map((b: Reply) => [b.key.c, b.top.value]),
    [["blue", 18]],
  );
  engine.close();
});

Deno.test("composite: request errors as Elasticsearch reports them", async () => {
  const engine = await shop();
  const reason = async (body: Reply): Promise<[number, string, string]> => {
    const r = await call(engine, "POST", "/shop/_search", body);
    const cause = r.error.root_cause[0];
    return [r.code, cause.type, cause.reason];
  };
  assert.deepEqual(await reason(composite({ size: 1 })), [
    400,
    "illegal_argument_exception",
    "Required [sources]",
  ]);
  assert.deepEqual(await reason(composite({ sources: [] })), [
    400,
    "illegal_argument_exception",
    "Composite [sources] cannot be null or empty",
  ]);
  const twice = { k: { terms: { field: "color" } } };
  assert.deepEqual(await reason(composite({ sources: [twice, twice] })), [
    400,
    "illegal_argument_exception",
    "Composite source names must be unique, found duplicates: [k]",
  ]);
  const one = [{ k: { terms: { field: "color" } } }];
  assert.deepEqual(await reason(composite({ sources: one, after: { k: "a", j: 1 } })), [
    400,
    "illegal_argument_exception",
    "[after] has 2 value(s) but [sources] has 1",
  ]);
  assert.deepEqual(await reason(composite({ sources: one, after: { j: 1 } })), [
    400,
    "illegal_argument_exception",
    "Missing value for [after.k]",
  ]);
  const [code, type] = await reason(composite({ sources: one, size: 1_000_000_000 }));
  assert.deepEqual([code, type], [400, "too_many_buckets_exception"]);
  assert.deepEqual(
    await reason({
      aggs: { t: { terms: { field: "color" }, aggs: { c: { composite: { sources: one } } } } },
    }),
    [
      400,
      "illegal_argument_exception",
      "[composite] aggregation cannot be used with a parent aggregation of type: [TermsAggregatorFactory]",
    ],
  );
  // Under a filter (which does not split its docs) a composite is allowed.
  const filtered = await call(engine, "POST", "/shop/_search", {
    size: 0,
    aggs: {
      f: {
        filter: { range: { price: { gt: 5 } } },
        aggs: { c: { composite: { sources: one } } },
      },
    },
  });
  assert.deepEqual(
    filtered.aggregations.f.c.buckets.map((b: Reply) => [b.key.k, b.doc_count]),
    [["blue", 2], ["red", 1]],
  );
  engine.close();
});

Deno.test("composite: a date source's time_zone buckets, writes keys and reads after on its clock", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/z", { mappings: { properties: { date: { type: "date" } } } });
  for (const date of ["2017-10-20T03:08:45", "2017-10-21T07:00:00", "2017-10-22T01:00:00"]) {
    await call(engine, "POST", "/z/_doc", { date });
  }
  await call(engine, "POST", "/z/_refresh");
  const day = {
    date: {
      date_histogram: {
        field: "date",
        calendar_interval: "1d",
        time_zone: "-02:00",
        format: "iso8601",
      },
    },
  };
  const all = await call(engine, "POST", "/z/_search", composite({ sources: [day] }));
  // 01:00 on the 22nd UTC is still the 21st two hours west.
  assert.deepEqual(keys(all), [
    [{ date: "2017-10-20T00:00:00.000-02:00" }, 1],
    [{ date: "2017-10-21T00:00:00.000-02:00" }, 2],
  ]);
  const after = await call(
    engine,
    "POST",
    "/z/_search",
    composite({ sources: [day], after: { date: "2017-10-20" } }),
  );
  assert.deepEqual(keys(after), [[{ date: "2017-10-21T00:00:00.000-02:00" }, 2]]);
  engine.close();
});
