import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

const docs = [
  "shard over dog dock",
  "over shard dogs",
  "search river engine engines",
  "search the rivers dog",
  "engine",
];

const queries: unknown[] = [
  { "title": "shard ove" },
  { "title": "do" },
  { "title": "engin" },
  { "title": "search rive" },
  { "title": { "query": "search rive", "slop": 2 } },
  { "title": { "query": "do", "max_expansions": 1 } },
  { "title": { "query": "search riv", "max_expansions": 1 } },
  { "title": "zz" },
];

async function answers(flavour: "elasticsearch" | "opensearch"): Promise<string[]> {
  const engine = new Engine({ flavour });
  const call = (method: string, path: string, body: string) =>
    engine.fetch(`http://engine${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body,
    }).then((r) => r.text());
  await call(
    "PUT",
    "/mpp",
    JSON.stringify({ mappings: { properties: { title: { type: "text" } } } }),
  );
  const bulk = docs.map((title, i) =>
    `{"index":{"_id":"${i + 1}"}}\n${JSON.stringify({ title })}\n`
  )
    .join("");
  await call("POST", "/mpp/_bulk?refresh=true", bulk);
  const out: string[] = [];
  for (const q of queries) {
    out.push(
      await call(
        "POST",
        "/mpp/_search?filter_path=hits.total.value,hits.hits._id,hits.hits._score",
        JSON.stringify({ query: { match_phrase_prefix: q } }),
      ),
    );
  }
  return out;
}

// The expected answers are real Elasticsearch 9.5.4's and OpenSearch 3.8.0's to the same requests:
// the last term expands to the indexed terms it begins (at most max_expansions, in term order) at
// the next position; one term alone is a disjunction of its expansions.
Deno.test("match_phrase_prefix: Elasticsearch 9.5.4's matches and scores", async () => {
  assert.deepEqual(await answers("elasticsearch"), [
    '{"hits":{"total":{"value":1},"hits":[{"_id":"1","_score":1.5884793}]}}',
    '{"hits":{"total":{"value":3},"hits":[{"_id":"1","_score":2.0519087},{"_id":"2","_score":1.4226694},{"_id":"4","_score":0.79423964}]}}',
    '{"hits":{"total":{"value":2},"hits":[{"_id":"3","_score":2.0519087},{"_id":"5","_score":1.2180433}]}}',
    '{"hits":{"total":{"value":1},"hits":[{"_id":"3","_score":3.309578}]}}',
    '{"hits":{"total":{"value":2},"hits":[{"_id":"3","_score":3.309578},{"_id":"4","_score":2.0846043}]}}',
    '{"hits":{"total":{"value":1},"hits":[{"_id":"1","_score":1.2576691}]}}',
    '{"hits":{"total":{"value":1},"hits":[{"_id":"3","_score":2.0519087}]}}',
    '{"hits":{"total":{"value":0}}}',
  ]);
});

Deno.test("match_phrase_prefix: OpenSearch 3.8.0's matches and scores", async () => {
  assert.deepEqual(await answers("opensearch"), [
    '{"hits":{"total":{"value":1},"hits":[{"_id":"1","_score":0.722036}]}}',
    '{"hits":{"total":{"value":3},"hits":[{"_id":"1","_score":0.93268573},{"_id":"2","_score":0.6466679},{"_id":"4","_score":0.361018}]}}',
    '{"hits":{"total":{"value":2},"hits":[{"_id":"3","_score":0.93268573},{"_id":"5","_score":0.5536561}]}}',
    '{"hits":{"total":{"value":1},"hits":[{"_id":"3","_score":1.5043535}]}}',
    '{"hits":{"total":{"value":2},"hits":[{"_id":"3","_score":1.5043535},{"_id":"4","_score":0.94754744}]}}',
    '{"hits":{"total":{"value":1},"hits":[{"_id":"1","_score":0.57166773}]}}',
    '{"hits":{"total":{"value":1},"hits":[{"_id":"3","_score":0.93268573}]}}',
    '{"hits":{"total":{"value":0}}}',
  ]);
});
