import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("range: a bound the date format cannot read is a parse_exception", async () => {
  // Real OpenSearch 3.8.0 on a `date` field with `format: yyyy-MM-dd`, `gte: "2024-01-01T00:00:00Z"`
  // (reasons shortened here to what the engine writes; the types and their nesting are the real ones).
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/d", {
    mappings: { properties: { day: { type: "date", format: "yyyy-MM-dd" } } },
  });
  await call(engine, "PUT", "/d/_doc/1?refresh=true", { day: "2023-12-15" });
  const r = await call(engine, "POST", "/d/_search", {
    query: { range: { day: { gte: "2024-01-01T00:00:00Z" } } },
  });
  assert.equal(r.code, 400);
  const reason = "failed to parse date field [2024-01-01T00:00:00Z] with format [yyyy-MM-dd]";
  const shard = {
    type: "parse_exception",
    reason: `${reason}: [${reason}]`,
    caused_by: {
      type: "illegal_argument_exception",
      reason,
      caused_by: {
        type: "date_time_parse_exception",
        reason: "Text '2024-01-01T00:00:00Z' could not be parsed",
      },
    },
  };
  assert.deepEqual(r.error.root_cause, [{ type: "parse_exception", reason: shard.reason }]);
  assert.deepEqual(r.error.failed_shards[0].reason, shard);
  assert.deepEqual(r.error.caused_by, shard);
  // The same text in the field's format reads.
  const ok = await call(engine, "POST", "/d/_search", {
    query: { range: { day: { gte: "2023-12-01", lt: "2024-01-01" } } },
  });
  assert.equal(ok.hits.total.value, 1);
  engine.close();
});

Deno.test("range: a JSON number bound reads as epoch_millis (Elasticsearch) or by the format (OpenSearch)", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0, one doc with when 2020-01-01 (no format) and
  // day 2023-12-15 (format yyyy-MM-dd): hit counts, or the value a 400 names.
  const cases: Array<[string, Record<string, unknown>, number | string, number | string]> = [
    ["when", { gte: 946684800000, lt: "2024-01-01T00:00:00Z" }, "2024-01-01T00:00:00Z", 1],
    ["when", { lt: "2024-01-01", gte: 946684800000 }, "2024-01-01", 1],
    ["when", { gte: 946684800000, lt: "now" }, 1, 1],
    ["when", { gte: "946684800000", lt: "2024-01-01" }, 1, 1],
    ["day", { gte: 946684800000 }, 1, "946684800000"],
  ];
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/d", {
      mappings: {
        properties: { when: { type: "date" }, day: { type: "date", format: "yyyy-MM-dd" } },
      },
    });
    await call(engine, "PUT", "/d/_doc/1?refresh=true", { when: "2020-01-01", day: "2023-12-15" });
    for (const [field, bounds, es, os] of cases) {
      const r = await call(engine, "POST", "/d/_search", { query: { range: { [field]: bounds } } });
      const want = flavour === "elasticsearch" ? es : os;
      const got = r.code === 400
        ? /failed to parse date field \[([^\]]*)\]/.exec(r.error.root_cause[0].reason)![1]
        : r.hits.total.value;
      assert.equal(got, want, `${flavour} ${JSON.stringify(bounds)}`);
    }
    engine.close();
  }
});
