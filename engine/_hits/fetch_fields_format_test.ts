// `docvalue_fields` with a `format` that holds no digit pattern. Expected values are the answers
// of real Elasticsearch 9.5.4 and OpenSearch 3.8.0 to the same requests (a long `n` = 1 and a
// double `d` = 3.14).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function fields(flavour: "elasticsearch" | "opensearch"): Promise<unknown[]> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/probe", {
    mappings: { properties: { n: { type: "long" }, d: { type: "double" } } },
  });
  await call(engine, "PUT", "/probe/_doc/1?refresh=true", { n: 1, d: 3.14 });
  const out: unknown[] = [];
  for (
    const docvalue_fields of [
      [{ field: "n", format: "use_field_mapping" }, { field: "d", format: "abc" }],
      [{ field: "d", format: "use_field_mapping" }],
    ]
  ) {
    out.push(
      (await call(engine, "POST", "/probe/_search", { docvalue_fields })).hits.hits[0].fields,
    );
  }
  engine.close();
  return out;
}

Deno.test("docvalue_fields format: any pattern is a DecimalFormat one in Elasticsearch", async () => {
  assert.deepEqual(await fields("elasticsearch"), [
    { d: ["abc3"], n: ["use_field_mapping1"] },
    { d: ["use_field_mapping3"] },
  ]);
});

Deno.test("docvalue_fields format: OpenSearch still reads use_field_mapping as none", async () => {
  assert.deepEqual(await fields("opensearch"), [{ d: ["abc3"], n: [1] }, { d: [3.14] }]);
});
