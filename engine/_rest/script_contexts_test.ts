import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("_script_context lists each product's contexts by name, with their methods", async () => {
  // Real Elasticsearch 9.5.4 lists 35 contexts, OpenSearch 3.8.0 27; `score` as each answered.
  const cases = [
    ["elasticsearch", 35, {
      name: "score",
      methods: [
        {
          name: "execute",
          return_type: "double",
          params: [{
            type: "org.elasticsearch.script.ScoreScript$ExplanationHolder",
            name: "explanation",
          }],
        },
        { name: "getDoc", return_type: "java.util.Map", params: [] },
        { name: "getParams", return_type: "java.util.Map", params: [] },
        { name: "get_score", return_type: "double", params: [] },
        {
          name: "get_termStats",
          return_type: "org.elasticsearch.script.ScriptTermStats",
          params: [],
        },
      ],
    }],
    ["opensearch", 27, {
      name: "score",
      methods: [
        {
          name: "execute",
          return_type: "double",
          params: [{
            type: "org.opensearch.script.ScoreScript$ExplanationHolder",
            name: "explanation",
          }],
        },
        { name: "getDoc", return_type: "java.util.Map", params: [] },
        { name: "getParams", return_type: "java.util.Map", params: [] },
        { name: "get_score", return_type: "double", params: [] },
      ],
    }],
  ] as const;
  for (const [flavour, count, score] of cases) {
    const engine = new Engine({ flavour });
    const r = await call(engine, "GET", "/_script_context");
    assert.equal(r.code, 200);
    assert.equal(r.contexts.length, count);
    const names = r.contexts.map((c: { name: string }) => c.name);
    assert.deepEqual(names, [...names].sort());
    assert.equal(names[0], "aggregation_selector");
    assert.deepEqual(r.contexts.find((c: { name: string }) => c.name === "score"), score);
    engine.close();
  }
});

Deno.test("_script_language: the script types, and the languages each product lists", async () => {
  // Real Elasticsearch 9.5.4 (the distribution compared with):
  // {"types_allowed":["inline","stored"],"language_contexts":[]}
  const es = new Engine();
  const a = await call(es, "GET", "/_script_language");
  assert.deepEqual(a, { code: 200, types_allowed: ["inline", "stored"], language_contexts: [] });
  es.close();
  // Real OpenSearch 3.8.0: expression, mustache and painless, in that order; mustache runs in
  // `template` only.
  const os = new Engine({ flavour: "opensearch" });
  const b = await call(os, "GET", "/_script_language");
  assert.deepEqual(
    b.language_contexts.map((l: { language: string }) => l.language),
    ["expression", "mustache", "painless"],
  );
  assert.deepEqual(b.language_contexts[1], { language: "mustache", contexts: ["template"] });
  os.close();
});
