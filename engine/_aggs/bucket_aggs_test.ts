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

Deno.test("histogram without an interval fails on the shards; one of 0 or less fails to parse", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/h", { mappings: { properties: { count: { type: "integer" } } } });
    await call(engine, "PUT", "/h/_doc/1?refresh=true", { count: 3 });
    // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0: {"error":{"root_cause":[{"type":
    // "illegal_argument_exception","reason":"interval must be positive, got: 0.0"}],"type":
    // "search_phase_execution_exception","reason":"all shards failed","phase":"query","grouped":
    // true,"failed_shards":[{"shard":0,"index":"h","node":"…","reason":{"type":
    // "illegal_argument_exception","reason":"interval must be positive, got: 0.0"}}],…},"status":400}
    const none = await call(engine, "POST", "/h/_search", {
      aggs: { a: { histogram: { field: "count" } } },
    });
    assert.equal(none.code, 400);
    assert.deepEqual(
      [none.error.type, none.error.phase, none.error.grouped, none.error.root_cause[0].type],
      ["search_phase_execution_exception", "query", true, "illegal_argument_exception"],
    );
    assert.equal(none.error.root_cause[0].reason, "interval must be positive, got: 0.0");
    // Both: {"error":{"root_cause":[{"type":"x_content_parse_exception","reason":"[1:55]
    // [histogram] failed to parse field [interval]"}],"type":"x_content_parse_exception",…,
    // "caused_by":{"type":"illegal_argument_exception","reason":"[interval] must be >0 for
    // histogram aggregation [a]"}},"status":400}
    for (const interval of [0, -1]) {
      const bad = await call(engine, "POST", "/h/_search", {
        aggs: { a: { histogram: { field: "count", interval } } },
      });
      assert.equal(bad.code, 400);
      assert.deepEqual(
        [bad.error.type, bad.error.root_cause[0].type, bad.error.caused_by.type],
        ["x_content_parse_exception", "x_content_parse_exception", "illegal_argument_exception"],
      );
      assert.equal(
        bad.error.caused_by.reason,
        "[interval] must be >0 for histogram aggregation [a]",
      );
    }
    engine.close();
  }
});
