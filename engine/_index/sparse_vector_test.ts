import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("sparse_vector: accepted in mappings, stored, found by exists only", async () => {
  const engine = new Engine();
  const created = await call(engine, "PUT", "/sv", {
    mappings: { properties: { tokens: { type: "sparse_vector" }, n: { type: "long" } } },
  });
  assert.equal(created.code, 200);
  const mapping = await call(engine, "GET", "/sv/_mapping");
  assert.deepEqual(mapping.sv.mappings.properties.tokens, { type: "sparse_vector" });
  await call(engine, "PUT", "/sv/_doc/1", { tokens: { cat: 1.5, dog: 0.25 }, n: 1 });
  await call(engine, "PUT", "/sv/_doc/2?refresh=true", { n: 2 });
  const exists = await call(engine, "POST", "/sv/_search", {
    query: { exists: { field: "tokens" } },
  });
  assert.deepEqual(exists.hits.hits.map((h: { _id: string }) => h._id), ["1"]);
  // Elasticsearch 9 leaves vectors out of _source unless asked (real 9.5.4 answers `{}` here).
  assert.equal(exists.hits.hits[0]._source.tokens, undefined);
  const asked = await call(engine, "POST", "/sv/_search", {
    query: { exists: { field: "tokens" } },
    _source: { exclude_vectors: false },
  });
  assert.deepEqual(asked.hits.hits[0]._source.tokens, { cat: 1.5, dog: 0.25 });
  // The tokens are not terms of their own.
  const term = await call(engine, "POST", "/sv/_search", {
    query: { exists: { field: "tokens.cat" } },
  });
  assert.equal(term.hits.total.value, 0);
});
