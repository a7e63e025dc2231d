// `index.max_docvalue_fields_search`: what it counts. Expected values are the answers of real
// Elasticsearch 9.5.4 and OpenSearch 3.8.0 to the same requests (an index with the limit at 2 and
// three mapped keywords `a`, `b`, `c`).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const ASKED = [["one", "two", "three"], ["a", "b", "c"], ["a", "b", "one"], ["a", "a", "a"]];

async function answers(flavour: "elasticsearch" | "opensearch"): Promise<unknown[]> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/probe", {
    settings: { "index.max_docvalue_fields_search": 2 },
    mappings: {
      properties: { a: { type: "keyword" }, b: { type: "keyword" }, c: { type: "keyword" } },
    },
  });
  await call(engine, "PUT", "/probe/_doc/1?refresh=true", { a: "x", b: "y", c: "z" });
  const out: unknown[] = [];
  for (const docvalue_fields of ASKED) {
    const res = await call(engine, "POST", "/probe/_search", { docvalue_fields });
    out.push(
      res.code === 200
        ? res.hits.hits[0].fields ?? {}
        : [res.code, res.error.root_cause[0].reason.match(/but was \[(\d+)\]/)[1]],
    );
  }
  engine.close();
  return out;
}

Deno.test("docvalue_fields limit: Elasticsearch counts the distinct mapped fields", async () => {
  assert.deepEqual(await answers("elasticsearch"), [
    {},
    [400, "3"],
    { a: ["x"], b: ["y"] },
    { a: ["x"] },
  ]);
});

Deno.test("docvalue_fields limit: OpenSearch counts the entries", async () => {
  assert.deepEqual(await answers("opensearch"), [[400, "3"], [400, "3"], [400, "3"], [400, "3"]]);
});
