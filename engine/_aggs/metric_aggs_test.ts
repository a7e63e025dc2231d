import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

type Json = Reply;

async function grades(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/g", {
    mappings: {
      properties: { grade: { type: "long" }, weight: { type: "long" }, d: { type: "date" } },
    },
  });
  await call(engine, "PUT", "/g/_doc/1", { grade: 2, weight: 3, d: "2024-01-01" });
  await call(engine, "PUT", "/g/_doc/2", { grade: 4, weight: 1 });
  await call(engine, "PUT", "/g/_doc/3?refresh=true", { weight: 2 });
  return engine;
}

Deno.test("metric aggregations honour `missing` (numbers and dates)", async () => {
  const engine = await grades();
  const res = await call(engine, "POST", "/g/_search", {
    size: 0,
    aggs: {
      avg: { avg: { field: "grade", missing: 9 } },
      plain: { avg: { field: "grade" } },
      sum: { sum: { field: "grade", missing: 1 } },
      min: { min: { field: "d", missing: "2020-01-01" } },
      count: { value_count: { field: "grade", missing: 0 } },
      stats: { stats: { field: "grade", missing: 0 } },
      card: { cardinality: { field: "grade", missing: 4 } },
    },
  });
  const a = res.aggregations;
  assert.equal(a.avg.value, 5);
  assert.equal(a.plain.value, 3);
  assert.equal(a.sum.value, 7);
  assert.equal(a.min.value_as_string, "2020-01-01T00:00:00.000Z");
  assert.equal(a.count.value, 3);
  assert.deepEqual(a.stats, { count: 3, min: 0, max: 4, avg: 2, sum: 6 });
  assert.equal(a.card.value, 2);
  engine.close();
});

Deno.test("weighted_avg: weights, missing, one weight per doc", async () => {
  const engine = await grades();
  const res = await call(engine, "POST", "/g/_search", {
    size: 0,
    aggs: {
      w: { weighted_avg: { value: { field: "grade" }, weight: { field: "weight" } } },
      m: { weighted_avg: { value: { field: "grade", missing: 10 }, weight: { field: "weight" } } },
    },
  });
  assert.equal(res.aggregations.w.value, (2 * 3 + 4 * 1) / 4);
  assert.equal(res.aggregations.m.value, (2 * 3 + 4 * 1 + 10 * 2) / 6);
  await call(engine, "PUT", "/g/_doc/4?refresh=true", { grade: 1, weight: [1, 2] });
  const many = await call(engine, "POST", "/g/_search", {
    aggs: { w: { weighted_avg: { value: { field: "grade" }, weight: { field: "weight" } } } },
  });
  assert.equal(many.code, 400);
  assert.match(JSON.stringify(many.error), /more than one weight/);
  const noWeight = await call(engine, "POST", "/g/_search", {
    aggs: { w: { weighted_avg: { value: { field: "grade" } } } },
  });
  assert.equal(noWeight.code, 400);
  engine.close();
});

Deno.test("sigma and precision_threshold are validated as Elasticsearch parses them", async () => {
  const engine = await grades();
  const sigma = await call(engine, "POST", "/g/_search", {
    aggs: { e: { extended_stats: { field: "grade", sigma: -1 } } },
  });
  assert.equal(sigma.code, 400);
  assert.equal(sigma.error.type, "x_content_parse_exception");
  assert.equal(
    sigma.error.caused_by.reason,
    "[sigma] must be greater than or equal to 0. Found [-1.0]",
  );
  const ok = await call(engine, "POST", "/g/_search", {
    size: 0,
    aggs: { e: { extended_stats: { field: "grade", sigma: 1 } } },
  });
  assert.equal(ok.aggregations.e.std_deviation_bounds.upper, 3 + 1);
  const p = await call(engine, "POST", "/g/_search", {
    aggs: { c: { cardinality: { field: "grade", precision_threshold: -1 } } },
  });
  assert.equal(p.error.type, "x_content_parse_exception");
  assert.match(
    p.error.caused_by.reason,
    /\[precisionThreshold\] must be greater than or equal to 0/,
  );
  engine.close();
});

Deno.test("percentiles: percents, digest settings and keyword fields checked", async () => {
  const engine = await grades();
  await call(engine, "PUT", "/g/_mapping", { properties: { k: { type: "keyword" } } });
  const reason = async (body: Json): Promise<[number, string]> => {
    const r = await call(engine, "POST", "/g/_search", { aggs: { p: { percentiles: body } } });
    return [r.code, r.error?.root_cause[0].reason ?? ""];
  };
  assert.deepEqual(await reason({ field: "grade", percents: [] }), [
    400,
    "[percents] must not be empty: [p]",
  ]);
  assert.deepEqual(await reason({ field: "grade", percents: null }), [
    400,
    "[percents] must not be null: [p]",
  ]);
  assert.equal((await reason({ field: "grade", percents: ["foo"] }))[0], 400);
  assert.deepEqual(await reason({ field: "grade", tdigest: { compression: -1 } }), [
    400,
    "[compression] must be greater than or equal to 0. Found [-1.0] in [p]",
  ]);
  assert.deepEqual(await reason({ field: "k" }), [
    400,
    "Field [k] of type [keyword] is not supported for aggregation [percentiles]",
  ]);
  assert.deepEqual(await reason({ field: "grade", percents: [50], hdr: {} }), [200, ""]);
  engine.close();
});

Deno.test("sum: each shard's compensated sum in document order, then the shards'", async () => {
  // Ids 0..11 in a three-shard index; the exact sum is 246913578020. Real OpenSearch 3.8.0
  // answers 2.46913578021E11 (its shards round), Elasticsearch 9.5.4 2.4691357802E11.
  const values = [
    9007199254740991,
    1,
    -9007199254740991,
    123456789012,
    -7,
    9007199254740991,
    1,
    123456789012,
    -9007199254740991,
    9007199254740991,
    -9007199254740991,
    1,
  ];
  for (
    const [flavour, expected] of [["opensearch", 246913578021], [
      "elasticsearch",
      246913578020,
    ]] as const
  ) {
    const engine = new Engine({ flavour });
    const send = (method: string, path: string, body: string, type = "application/json") =>
      engine.fetch(`http://e${path}`, { method, headers: { "content-type": type }, body })
        .then((r) => r.json());
    await send(
      "PUT",
      "/s",
      JSON.stringify({
        settings: { number_of_shards: 3 },
        mappings: { properties: { big: { type: "long" } } },
      }),
    );
    const lines = values.flatMap((big, i) => [
      JSON.stringify({ index: { _id: String(i) } }),
      JSON.stringify({ big }),
    ]);
    await send("POST", "/s/_bulk?refresh=true", lines.join("\n") + "\n", "application/x-ndjson");
    const res = await send(
      "POST",
      "/s/_search",
      JSON.stringify({ size: 0, aggs: { s: { sum: { field: "big" } } } }),
    );
    assert.equal(res.aggregations.s.value, expected, flavour);
    engine.close();
  }
});

Deno.test("percentiles: Elasticsearch interpolates a small population's sorted values", async () => {
  // Real Elasticsearch 9.5.4, values -7, 1, 2, 3, 4, 10.5 over two shards: linear at p × (n-1)
  // (its hybrid t-digest keeps every value below 20 × compression); with a compression under 1
  // it merges centroids instead.
  const engine = new Engine();
  await call(engine, "PUT", "/p", {
    settings: { number_of_shards: 2 },
    mappings: { properties: { n: { type: "double" } } },
  });
  const values = [1, [2, 3], 4, 10.5, -7];
  for (const [i, n] of values.entries()) await call(engine, "PUT", `/p/_doc/${i + 1}`, { n });
  await call(engine, "POST", "/p/_refresh");
  const r = await call(engine, "POST", "/p/_search", {
    size: 0,
    aggs: {
      a: { percentiles: { field: "n", percents: [0, 1, 5, 25, 50, 66.6, 75, 95, 99, 100] } },
      b: { percentiles: { field: "n", percents: [10, 50, 90], tdigest: { compression: 0.01 } } },
    },
  });
  const aggs = r.aggregations as Record<string, { values: Record<string, number> }>;
  assert.deepEqual(aggs.a!.values, {
    "0.0": -7,
    "1.0": -6.6,
    "5.0": -5,
    "25.0": 1.25,
    "50.0": 2.5,
    "66.6": 3.3299999999999996,
    "75.0": 3.75,
    "95.0": 8.875,
    "99.0": 10.175,
    "100.0": 10.5,
  });
  assert.deepEqual(aggs.b!.values, {
    "10.0": -6.199999999999999,
    "50.0": 2.5,
    "90.0": 9.850000000000001,
  });
  engine.close();
});

Deno.test("percentiles: OpenSearch answers a small population from its unit centroids", async () => {
  // Real OpenSearch 3.8.0: -7, 1, 2, 3, 4, 10.5 over two shards; and 39 values (its merging
  // digest keeps up to 39 as single samples under the default compression, merges from 40).
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/p", {
    settings: { number_of_shards: 2 },
    mappings: { properties: { n: { type: "double" } } },
  });
  const values = [1, [2, 3], 4, 10.5, -7];
  for (const [i, n] of values.entries()) await call(engine, "PUT", `/p/_doc/${i + 1}`, { n });
  await call(engine, "PUT", "/q", {
    settings: { number_of_shards: 1 },
    mappings: { properties: { n: { type: "double" } } },
  });
  for (let i = 1; i <= 39; i++) {
    await call(engine, "PUT", `/q/_doc/${i}`, { n: (i * i * 7919) % 1000 + 0.5 });
  }
  await call(engine, "POST", "/p,q/_refresh");
  const six = await call(engine, "POST", "/p/_search", {
    size: 0,
    aggs: {
      a: { percentiles: { field: "n", percents: [0, 1, 5, 25, 50, 66.6, 75, 95, 99, 100] } },
    },
  });
  assert.deepEqual((six.aggregations as { a: { values: unknown } }).a.values, {
    "0.0": -7,
    "1.0": -7,
    "5.0": -7,
    "25.0": 1,
    "50.0": 3,
    "66.6": 3,
    "75.0": 4,
    "95.0": 10.5,
    "99.0": 10.5,
    "100.0": 10.5,
  });
  const more = await call(engine, "POST", "/q/_search", {
    size: 0,
    aggs: { a: { percentiles: { field: "n", percents: [10, 25, 33.3, 50, 75, 90] } } },
  });
  assert.deepEqual((more.aggregations as { a: { values: unknown } }).a.values, {
    "10.0": 56.5,
    "25.0": 159.5,
    "33.3": 264.5,
    "50.0": 375.5,
    "75.0": 775.5,
    "90.0": 900.5,
  });
  engine.close();
});

Deno.test("extended_stats of one value: the sample figures are NaN, written as text", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0 answer the same for one value, and null
  // throughout for none.
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/e", { mappings: { properties: { n: { type: "integer" } } } });
    await call(engine, "PUT", "/e/_doc/1", { n: 5 });
    await call(engine, "PUT", "/e/_doc/2?refresh=true", { n: 7 });
    const stats = async (query: Json) =>
      (await call(engine, "POST", "/e/_search", {
        size: 0,
        query,
        aggs: { a: { extended_stats: { field: "n" } } },
      })).aggregations.a;
    assert.deepEqual(await stats({ ids: { values: ["1"] } }), {
      count: 1,
      min: 5,
      max: 5,
      avg: 5,
      sum: 5,
      sum_of_squares: 25,
      variance: 0,
      variance_population: 0,
      variance_sampling: "NaN",
      std_deviation: 0,
      std_deviation_population: 0,
      std_deviation_sampling: "NaN",
      std_deviation_bounds: {
        upper: 5,
        lower: 5,
        upper_population: 5,
        lower_population: 5,
        upper_sampling: "NaN",
        lower_sampling: "NaN",
      },
    });
    const none = await stats({ match_none: {} });
    assert.equal(none.variance_sampling, null);
    assert.equal(none.std_deviation_bounds.upper_sampling, null);
    // and extended_stats_bucket over one bucket
    const piped = await call(engine, "POST", "/e/_search", {
      size: 0,
      query: { ids: { values: ["1"] } },
      aggs: {
        h: { histogram: { field: "n", interval: 10 }, aggs: { s: { sum: { field: "n" } } } },
        b: { extended_stats_bucket: { buckets_path: "h>s" } },
      },
    });
    const b = piped.aggregations.b;
    assert.equal(b.variance, 0);
    assert.equal(b.variance_sampling, "NaN");
    assert.equal(b.std_deviation_sampling, "NaN");
    assert.deepEqual(b.std_deviation_bounds, {
      upper: 5,
      lower: 5,
      upper_population: 5,
      lower_population: 5,
      upper_sampling: "NaN",
      lower_sampling: "NaN",
    });
    engine.close();
  }
});
