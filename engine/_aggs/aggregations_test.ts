import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function dated(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/e3x", {
    settings: { number_of_shards: 3 },
    mappings: { properties: { when: { type: "date" } } },
  });
  const lines = ["2020-05-01", "2023-05-01", "2021-05-01", "2024-05-01"].flatMap((when, i) => [
    JSON.stringify({ index: { _index: "e3x", _id: String(i + 1) } }),
    JSON.stringify({ when }),
  ]);
  await call(engine, "POST", "/_bulk?refresh=true", lines.join("\n") + "\n");
  return engine;
}

Deno.test("date_range reads its bounds with its own format, strictly", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await dated(flavour);
    // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0: {"error":{"root_cause":[{"type":
    // "parse_exception","reason":"failed to parse date field [2022-01-01] with format [yyyy]:
    // [failed to parse date field [2022-01-01] with format [yyyy]]"}],"type":
    // "search_phase_execution_exception","reason":"all shards failed","phase":"query",…},
    // "status":400}
    const bad = await call(engine, "POST", "/e3x/_search", {
      size: 0,
      aggs: {
        a: {
          date_range: {
            field: "when",
            ranges: [{ to: "2022-01-01" }, { from: "2022-01-01", to: "now" }],
            format: "yyyy",
          },
        },
      },
    });
    assert.equal(bad.code, 400);
    assert.deepEqual(
      [bad.error.type, bad.error.phase, bad.error.root_cause[0].type],
      ["search_phase_execution_exception", "query", "parse_exception"],
    );
    assert.equal(
      bad.error.root_cause[0].reason,
      "failed to parse date field [2022-01-01] with format [yyyy]: [failed to parse date field [2022-01-01] with format [yyyy]]",
    );
    // Both take a bound that fits, with date math after it, and any bound when the format has a
    // built-in alternative: buckets *-2022 (2 documents) and 2023-2026 (2).
    const good = await call(engine, "POST", "/e3x/_search", {
      size: 0,
      aggs: {
        a: {
          date_range: {
            field: "when",
            ranges: [{ to: "2022" }, { from: "2022||+1y", to: "2026" }],
            format: "yyyy",
          },
        },
      },
    });
    assert.deepEqual(
      good.aggregations.a.buckets.map((b: { key: string; doc_count: number }) => [
        b.key,
        b.doc_count,
      ]),
      [["*-2022", 2], ["2023-2026", 2]],
    );
    const mixed = await call(engine, "POST", "/e3x/_search", {
      size: 0,
      aggs: {
        a: {
          date_range: {
            field: "when",
            ranges: [{ to: "2022-01-01" }],
            format: "yyyy||strict_date_optional_time",
          },
        },
      },
    });
    assert.equal(mixed.aggregations.a.buckets[0].key, "*-2022");
    engine.close();
  }
});
