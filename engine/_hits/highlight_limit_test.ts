import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const TEXT = "the quick brown fox jumps over the lazy dog fox";

async function indexWithLimit(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/hl", {
    settings: { "index.highlight.max_analyzed_offset": 20 },
    mappings: {
      properties: { t: { type: "text" }, p: { type: "text", index_options: "offsets" } },
    },
  });
  await call(engine, "PUT", "/hl/_doc/1?refresh=true", { t: TEXT, p: TEXT });
  return engine;
}

function search(engine: Engine, field: string, extra: Record<string, unknown> = {}) {
  return call(engine, "POST", "/hl/_search", {
    query: { bool: { should: [{ match: { [field]: "fox" } }, { match: { [field]: "quick" } }] } },
    highlight: { ...extra, fields: { [field]: {} } },
  });
}

Deno.test("highlight: a value past index.highlight.max_analyzed_offset fails the shard", async () => {
  // Elasticsearch 9.5.4
  const es = await search(await indexWithLimit("elasticsearch"), "t");
  const esReason =
    "The length [47] of field [t] in doc[0]/index[hl] exceeds the [index.highlight.max_analyzed_offset] limit [20]. To avoid this error, set the query parameter [max_analyzed_offset] to a value less than index setting [20] and this will tolerate long field values by truncating them.";
  assert.equal(es.code, 400);
  assert.equal(es.error.type, "search_phase_execution_exception");
  assert.deepEqual(es.error.root_cause, [{ type: "illegal_argument_exception", reason: esReason }]);
  assert.equal(es.error.failed_shards[0].reason.reason, esReason);
  // OpenSearch 3.8.0
  const os = await search(await indexWithLimit("opensearch"), "t");
  assert.equal(os.code, 400);
  assert.equal(
    os.error.root_cause[0].reason,
    "The length of [t] field of [0] doc of [hl] index has exceeded [20] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!",
  );
});

Deno.test("highlight: fields indexed with offsets are not bound by the setting", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const got = await search(await indexWithLimit(flavour), "p");
    assert.equal(got.code, 200);
    assert.deepEqual(got.hits.hits[0].highlight, {
      p: ["the <em>quick</em> brown <em>fox</em> jumps over the lazy dog <em>fox</em>"],
    });
  }
});

Deno.test("highlight: the request's limit reads the value up to it", async () => {
  // Elasticsearch 9.5.4 (max_analyzed_offset) and OpenSearch 3.8.0 (max_analyzer_offset): only
  // the terms in the first 19 characters are marked.
  for (
    const [flavour, key] of [
      ["elasticsearch", "max_analyzed_offset"],
      ["opensearch", "max_analyzer_offset"],
    ] as const
  ) {
    const got = await search(await indexWithLimit(flavour), "t", { [key]: 19 });
    assert.equal(got.code, 200);
    assert.deepEqual(got.hits.hits[0].highlight, {
      t: ["the <em>quick</em> brown <em>fox</em> jumps over the lazy dog fox"],
    });
  }
  // Above the index setting: Elasticsearch refuses the long value, OpenSearch the request.
  const es = await search(await indexWithLimit("elasticsearch"), "t", { max_analyzed_offset: 100 });
  assert.match(es.error.root_cause[0].reason, /^The length \[47\] of field \[t\]/);
  const os = await search(await indexWithLimit("opensearch"), "t", { max_analyzer_offset: 100 });
  assert.equal(
    os.error.root_cause[0].reason,
    "max_analyzer_offset has exceeded [20] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!",
  );
});
