import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

const docs = [
  { title: "quick fox", body: "the lazy dog jumps over the quick brown fox fox" },
  { title: "fox" },
  { body: "quick quick search engine" },
  { title: "search shard visitor river stone", body: "fox" },
  { title: "nothing here" },
];

const queries = [
  { query: "quick fox", fields: ["title", "body"] },
  { query: "fox", fields: ["title^2", "body"] },
  { query: "quick search", fields: ["title", "body^1.5"], operator: "and" },
];

async function scores(flavour: "elasticsearch" | "opensearch"): Promise<string[]> {
  const engine = new Engine({ flavour });
  const call = (method: string, path: string, body: string) =>
    engine.fetch(`http://engine${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body,
    }).then((r) => r.text());
  await call(
    "PUT",
    "/cf",
    JSON.stringify({
      mappings: { properties: { title: { type: "text" }, body: { type: "text" } } },
    }),
  );
  const bulk = docs.map((d, i) => `{"index":{"_id":"${i + 1}"}}\n${JSON.stringify(d)}\n`).join("");
  await call("POST", "/cf/_bulk?refresh=true", bulk);
  const out: string[] = [];
  for (const q of queries) {
    out.push(
      await call(
        "POST",
        "/cf/_search?filter_path=hits.hits._id,hits.hits._score",
        JSON.stringify({ query: { combined_fields: q } }),
      ),
    );
  }
  return out;
}

// The expected answers are real Elasticsearch 9.5.4's and OpenSearch 3.8.0's to the same requests.
Deno.test("combined_fields: BM25F scores as Elasticsearch 9.5.4's (LegacyBM25Similarity)", async () => {
  assert.deepEqual(await scores("elasticsearch"), [
    '{"hits":{"hits":[{"_id":"1","_score":1.6670208},{"_id":"3","_score":1.0604477},{"_id":"2","_score":1.0560414},{"_id":"4","_score":0.7046783}]}}',
    '{"hits":{"hits":[{"_id":"2","_score":1.217157},{"_id":"1","_score":1.0626646},{"_id":"4","_score":0.6271719}]}}',
    '{"hits":{"hits":[{"_id":"3","_score":2.756183}]}}',
  ]);
});

Deno.test("combined_fields: BM25F scores as OpenSearch 3.8.0's", async () => {
  assert.deepEqual(await scores("opensearch"), [
    '{"hits":{"hits":[{"_id":"1","_score":0.75773674},{"_id":"3","_score":0.4820217},{"_id":"2","_score":0.4800188},{"_id":"4","_score":0.3203083}]}}',
    '{"hits":{"hits":[{"_id":"2","_score":0.5532532},{"_id":"1","_score":0.48302937},{"_id":"4","_score":0.28507814}]}}',
    '{"hits":{"hits":[{"_id":"3","_score":1.2528105}]}}',
  ]);
});
