import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { resolveTermsLookups } from "./terms_lookup.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("terms lookup: resolved inside aggregations and arrays, a body without one kept as is", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/lists/_doc/mine?refresh=true", { tags: ["a", "b"] });
  await call(engine, "PUT", "/docs/_doc/1?refresh=true", { tag: "a" });
  await call(engine, "PUT", "/docs/_doc/2?refresh=true", { tag: "c" });
  const got = await call(engine, "POST", "/docs/_search?size=0", {
    aggs: {
      f: {
        filters: {
          filters: [{ terms: { tag: { index: "lists", id: "mine", path: "tags" } } }],
        },
      },
    },
  });
  assert.equal(got.aggregations.f.buckets[0].doc_count, 1);
  const ranges = Array.from({ length: 1000 }, (_, i) => ({ from: i }));
  const body = { aggs: { r: { range: { field: "n", ranges } } } };
  assert.equal(resolveTermsLookups(body, null as never), body);
});
