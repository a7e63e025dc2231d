// `cutoff_frequency`, which Elasticsearch 8+ dropped from `match` and `multi_match`. Expected
// values are the answers of real Elasticsearch 9.5.4 and OpenSearch 3.8.0 to the same requests
// over an index mapping `a` as text.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

const MATCH = '{"query":{"match":{"a":{"query":"x","cutoff_frequency":0.1}}}}';
const BOOL_PREFIX =
  '{"query":{"multi_match":{"query":"x","type":"bool_prefix","fields":["a"],"cutoff_frequency":0.001}}}';

async function answers(flavour: "elasticsearch" | "opensearch"): Promise<unknown[]> {
  const engine = new Engine({ flavour });
  const send = async (method: string, path: string, body: string) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method,
      headers: { "Content-Type": "application/json" },
      body,
    });
    const json = await res.json();
    return res.status === 200
      ? json.count ?? json.hits.total.value
      : [res.status, json.error.reason, json.error.col];
  };
  await engine.fetch("http://engine/probe", {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: '{"mappings":{"properties":{"a":{"type":"text"}}}}',
  }).then((r) => r.body?.cancel());
  const out = [
    await send("POST", "/probe/_count", MATCH),
    await send("POST", "/probe/_search", MATCH),
    await send("POST", "/probe/_search", BOOL_PREFIX),
  ];
  engine.close();
  return out;
}

Deno.test("cutoff_frequency: an unknown key of match and multi_match in Elasticsearch", async () => {
  assert.deepEqual(await answers("elasticsearch"), [
    [400, "[match] query does not support [cutoff_frequency]", 56],
    [400, "[match] query does not support [cutoff_frequency]", 56],
    [400, "[multi_match] query does not support [cutoff_frequency]", 93],
  ]);
});

Deno.test("cutoff_frequency: OpenSearch takes it but for bool_prefix", async () => {
  assert.deepEqual(await answers("opensearch"), [
    0,
    0,
    [400, "[cutoff_frequency] not allowed for type [bool_prefix]", 98],
  ]);
});
