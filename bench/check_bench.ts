// The checker over 1,000 commands against its baseline in the same run:
//   deno bench -A bench/check_bench.ts
// 1,000 distinct commands: the Elasticsearch specification's request examples (tests/support/
// es_examples) plus searches with queries, aggregations and sort, checked against a mapping.
// Baseline: JSON.parse of the same bodies, the least any reading of the texts costs. The target is
// "well under a second" for 1,000 commands; the first, cold pass is printed as well.
import assert from "node:assert/strict";
import { checkCommand, MappingModel } from "../check/mod.ts";

const { examples } = JSON.parse(
  Deno.readTextFileSync(new URL("../tests/support/es_examples/examples.json", import.meta.url)),
) as { examples: { text: string }[] };
const texts = examples.map((e) => e.text);
for (let i = 0; texts.length < 1000; i++) {
  texts.push(`POST /users-${i}/_search?size=${i % 50}&track_total_hits=true
{"query": {"bool": {"must": [{"match": {"bio": "word ${i}"}}],
  "filter": [{"range": {"born": {"gte": "2020-01-${String(1 + (i % 28)).padStart(2, "0")}"}}},
             {"terms": {"tags": ["a${i}", "b"]}}]}},
 "aggs": {"by_tag": {"terms": {"field": "tags", "size": 10},
   "aggs": {"age": {"avg": {"field": "age"}}}}},
 "sort": [{"age": "desc"}, "_score"], "_source": ["name", "bio"]}`);
}
const mapping = MappingModel.from({
  properties: {
    name: { type: "text" },
    bio: { type: "text" },
    age: { type: "long" },
    born: { type: "date" },
    tags: { type: "keyword" },
  },
});
const bodies = texts.map((t) => {
  const at = t.indexOf("{");
  return at < 0 ? "{}" : t.slice(at);
});

function checkAll(): number {
  let n = 0;
  for (const [i, t] of texts.entries()) {
    n += checkCommand(t, i < examples.length ? {} : { mapping }).length;
  }
  return n;
}

{
  const start = performance.now();
  const found = checkAll();
  const ms = performance.now() - start;
  assert.equal(found, 0, "the bench's commands are all valid");
  console.log(`check: ${texts.length} commands, first (cold) pass ${ms.toFixed(0)} ms`);
}

Deno.bench("JSON.parse of the 1,000 bodies", { group: "check", baseline: true }, () => {
  for (const b of bodies) {
    try {
      JSON.parse(b);
    } catch {
      // NDJSON and texts with placeholders: parsing as far as it goes is the baseline's cost
    }
  }
});

Deno.bench("checkCommand over 1,000 commands (with a mapping)", { group: "check" }, () => {
  checkAll();
});
