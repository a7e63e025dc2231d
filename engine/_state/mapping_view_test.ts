import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const FLAVOURS = ["elasticsearch", "opensearch"] as const;

async function mappingOf(flavour: typeof FLAVOURS[number], mappings: unknown): Promise<unknown> {
  const engine = new Engine({ flavour });
  const created = await call(engine, "PUT", "/m", { mappings });
  assert.equal(created.code, 200, JSON.stringify(created));
  const got = await call(engine, "GET", "/m/_mapping");
  const index = await call(engine, "GET", "/m");
  assert.deepEqual(index.m.mappings, got.m.mappings);
  return got.m.mappings;
}

// Each expectation below is what OpenSearch 3.8.0 and Elasticsearch 9.5.4 both answered to
// GET /m/_mapping after PUT /m with these mappings (the two engines agreed on every one).
Deno.test("mapping view: copy_to as a list, plain objects without type, dynamic as a string", async () => {
  for (const flavour of FLAVOURS) {
    const got = await mappingOf(flavour, {
      dynamic: false,
      properties: {
        q: { type: "object" },
        o: { type: "object", dynamic: true, properties: { a: { type: "keyword" } } },
        a: { type: "text", copy_to: "x" },
        n: { type: "nested", properties: { a: { type: "keyword" } } },
        b: { type: "keyword", copy_to: ["x", "y"] },
        x: { type: "text" },
      },
    });
    assert.deepEqual(got, {
      dynamic: "false",
      properties: {
        a: { type: "text", copy_to: ["x"] },
        b: { type: "keyword", copy_to: ["x", "y"] },
        n: { type: "nested", properties: { a: { type: "keyword" } } },
        o: { dynamic: "true", properties: { a: { type: "keyword" } } },
        q: { type: "object" },
        x: { type: "text" },
      },
    }, flavour);
    assert.deepEqual(Object.keys((got as { properties: object }).properties), [
      "a",
      "b",
      "n",
      "o",
      "q",
      "x",
    ]);
  }
});

Deno.test("mapping view: parsed values, defaults left out", async () => {
  for (const flavour of FLAVOURS) {
    const got = await mappingOf(flavour, {
      date_detection: "false",
      numeric_detection: "true",
      dynamic_date_formats: "yyyy-MM-dd",
      _source: { enabled: "true" },
      _routing: { required: "true" },
      properties: {
        k: {
          type: "keyword",
          index: true,
          doc_values: false,
          store: true,
          ignore_above: 2147483647,
          eager_global_ordinals: "false",
          norms: "false",
          null_value: "n",
          copy_to: [],
        },
        a: { type: "keyword", ignore_above: "256", index: "false" },
        i: { type: "integer", null_value: "5", coerce: "true" },
        t: {
          type: "text",
          index_options: "positions",
          position_increment_gap: "50",
          store: "true",
        },
        d: {
          type: "date",
          format: "strict_date_optional_time||epoch_millis",
          ignore_malformed: "false",
        },
        o: { type: "object", enabled: true, properties: {} },
        e: { type: "object", enabled: "false" },
        n: { type: "nested", include_in_parent: "true", dynamic: false },
      },
    });
    assert.deepEqual(got, {
      date_detection: false,
      numeric_detection: true,
      dynamic_date_formats: ["yyyy-MM-dd"],
      _routing: { required: true },
      properties: {
        a: { type: "keyword", ignore_above: 256, index: false },
        d: { type: "date", ignore_malformed: false },
        e: { type: "object", enabled: false },
        i: { type: "integer", null_value: 5, coerce: true },
        k: { type: "keyword", doc_values: false, store: true, null_value: "n" },
        n: { type: "nested", include_in_parent: true, dynamic: "false" },
        o: { type: "object" },
        t: { type: "text", position_increment_gap: 50, store: true },
      },
    }, flavour);
  }
});

Deno.test("mapping view: analyzers equal to their defaults are left out", async () => {
  // real ES 9.5.4 and OS 3.8.0 both answered exactly this to GET /ycan/_mapping
  for (const flavour of FLAVOURS) {
    const got = await mappingOf(flavour, {
      properties: {
        k: { type: "text", analyzer: "default", search_analyzer: "whitespace" },
        q: { type: "text", search_quote_analyzer: "default", search_analyzer: "default" },
        t: { type: "text", analyzer: "whitespace", search_analyzer: "default" },
        u: { type: "text", search_analyzer: "default", analyzer: "default" },
        s: { type: "text", analyzer: "standard" },
      },
    });
    assert.deepEqual(got, {
      properties: {
        k: { type: "text", analyzer: "default", search_analyzer: "whitespace" },
        q: { type: "text" },
        s: { type: "text", analyzer: "standard" },
        t: { type: "text", analyzer: "whitespace", search_analyzer: "default" },
        u: { type: "text" },
      },
    });
  }
});
