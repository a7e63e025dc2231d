// `fuzzy_rewrite: constant_score` on a fuzzy full-text query: each expansion scores the boost.
// Expected values are the answers of real Elasticsearch 9.5.4 and OpenSearch 3.8.0 (OpenSearch's
// YAML test search/310_match_bool_prefix: both score the two hits 1.0).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("match_bool_prefix with fuzzy_rewrite constant_score scores 1.0 (both engines)", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/test", {
      mappings: { properties: { my_field1: { type: "text" }, my_field2: { type: "text" } } },
    });
    await call(engine, "PUT", "/test/_doc/1", {
      my_field1: "brown fox jump",
      my_field2: "xylophone",
    });
    await call(engine, "PUT", "/test/_doc/2?refresh=true", {
      my_field1: "brown emu jump",
      my_field2: "xylophone",
    });
    const query = {
      query: "xylophoen foo",
      fuzziness: 1,
      prefix_length: 1,
      max_expansions: 10,
      fuzzy_transpositions: true,
    };
    const r = await call(engine, "POST", "/test/_search", {
      query: { match_bool_prefix: { my_field2: { ...query, fuzzy_rewrite: "constant_score" } } },
    });
    assert.equal(r.hits.max_score, 1, flavour);
    assert.deepEqual(r.hits.hits.map((h: { _score: number }) => h._score), [1, 1]);
    // without the rewrite the expansion is scored (below 1 here)
    const scored = await call(engine, "POST", "/test/_search", {
      query: { match_bool_prefix: { my_field2: query } },
    });
    assert.ok(scored.hits.max_score < 1);
    engine.close();
  }
});
