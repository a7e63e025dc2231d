import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

// The expected bodies are what OpenSearch 3.8.0 and Elasticsearch 9.5.4 answered to the same
// requests (PUT /m with these mappings, PUT /m/_mapping on an empty index).

const GAP = "Cannot set position_increment_gap on field [t] without positions enabled";

Deno.test("mapping checks: position_increment_gap needs positions (both engines)", async () => {
  for (const options of ["freqs", "docs"]) {
    const mappings = {
      properties: {
        o: {
          properties: { t: { type: "text", index_options: options, position_increment_gap: 10 } },
        },
      },
    };
    const es = await call(new Engine(), "PUT", "/m", { mappings });
    // Elasticsearch 9.5.4
    assert.deepEqual(es.error, {
      root_cause: [{ type: "mapper_parsing_exception", reason: `Failed to parse mapping: ${GAP}` }],
      type: "mapper_parsing_exception",
      reason: `Failed to parse mapping: ${GAP}`,
      caused_by: { type: "illegal_argument_exception", reason: GAP },
    });
    assert.equal(es.code, 400);
    // OpenSearch 3.8.0
    const os = await call(new Engine({ flavour: "opensearch" }), "PUT", "/m", { mappings });
    assert.equal(os.error.reason, `Failed to parse mapping [_doc]: ${GAP}`);
    assert.deepEqual(os.error.caused_by, { type: "illegal_argument_exception", reason: GAP });
  }
  const fine = await call(new Engine(), "PUT", "/m", {
    mappings: { properties: { t: { type: "text", index_options: "docs" } } },
  });
  assert.equal(fine.code, 200);
});

Deno.test("mapping checks: OpenSearch put mapping answers the parser's error unwrapped", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  await call(engine, "PUT", "/m");
  const gap = await call(engine, "PUT", "/m/_mapping", {
    properties: { t: { type: "text", index_options: "docs", position_increment_gap: 1 } },
  });
  // OpenSearch 3.8.0
  assert.deepEqual(gap.error, {
    root_cause: [{ type: "illegal_argument_exception", reason: GAP }],
    type: "illegal_argument_exception",
    reason: GAP,
  });
  const sub = await call(engine, "PUT", "/m/_mapping", { subobjects: false });
  assert.deepEqual(sub.error, {
    root_cause: [{
      type: "mapper_parsing_exception",
      reason: "Root mapping definition has unsupported parameters:  [subobjects : false]",
    }],
    type: "mapper_parsing_exception",
    reason: "Root mapping definition has unsupported parameters:  [subobjects : false]",
  });
  // Elasticsearch 9.5.4 takes it.
  const es = new Engine();
  await call(es, "PUT", "/m");
  assert.equal((await call(es, "PUT", "/m/_mapping", { subobjects: false })).code, 200);
});

Deno.test("mapping checks: subobjects and dynamic runtime are refused by OpenSearch", async () => {
  const os = new Engine({ flavour: "opensearch" });
  const root = await call(os, "PUT", "/a", { mappings: { subobjects: false } });
  // OpenSearch 3.8.0
  assert.equal(
    root.error.reason,
    "Failed to parse mapping [_doc]: Root mapping definition has unsupported parameters:  [subobjects : false]",
  );
  const field = await call(os, "PUT", "/b", {
    mappings: { properties: { o: { type: "object", subobjects: false } } },
  });
  assert.deepEqual(field.error.caused_by, {
    type: "mapper_parsing_exception",
    reason: "Mapping definition for [o] has unsupported parameters:  [subobjects : false]",
  });
  for (const mappings of [{ dynamic: "runtime" }, { properties: { o: { dynamic: "runtime" } } }]) {
    const runtime = await call(os, "PUT", "/c", { mappings });
    // OpenSearch 3.8.0 (the same body for dynamic "yes" on Elasticsearch 9.5.4)
    assert.deepEqual(runtime.error, {
      root_cause: [{
        type: "mapper_parsing_exception",
        reason: "Failed to parse mapping [_doc]: Could not convert [dynamic.dynamic] to boolean",
      }],
      type: "mapper_parsing_exception",
      reason: "Failed to parse mapping [_doc]: Could not convert [dynamic.dynamic] to boolean",
      caused_by: {
        type: "illegal_argument_exception",
        reason: "Could not convert [dynamic.dynamic] to boolean",
        caused_by: {
          type: "illegal_argument_exception",
          reason: "Failed to parse value [runtime] as only [true] or [false] are allowed.",
        },
      },
    });
  }
  // Elasticsearch 9.5.4 takes both and refuses OpenSearch's strict_allow_templates.
  const es = new Engine();
  assert.equal((await call(es, "PUT", "/a", { mappings: { subobjects: false } })).code, 200);
  assert.equal((await call(es, "PUT", "/b", { mappings: { dynamic: "runtime" } })).code, 200);
  const sat = await call(es, "PUT", "/c", { mappings: { dynamic: "strict_allow_templates" } });
  assert.equal(
    sat.error.caused_by.caused_by.reason,
    "Failed to parse value [strict_allow_templates] as only [true] or [false] are allowed.",
  );
  const osSat = await call(os, "PUT", "/d", { mappings: { dynamic: "strict_allow_templates" } });
  assert.equal(osSat.code, 200);
});

Deno.test("mapping checks: copy_to from a multi-field is refused (both engines)", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const got = await call(new Engine({ flavour }), "PUT", "/m", {
      mappings: {
        properties: {
          t: { type: "text", fields: { raw: { type: "keyword", copy_to: "z" } } },
          z: { type: "keyword" },
        },
      },
    });
    assert.deepEqual(got.error, {
      root_cause: [{
        type: "illegal_argument_exception",
        reason: "[copy_to] may not be used to copy from a multi-field: [t.raw]",
      }],
      type: "illegal_argument_exception",
      reason: "[copy_to] may not be used to copy from a multi-field: [t.raw]",
    });
  }
});
