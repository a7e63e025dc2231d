// What exactness beyond 2^53 costs: the same 50,000 `long` values, once within the safe range
// (the baseline: doubles only) and once shifted past 2^62 (doubles plus the exact bigints),
// loaded through Shard and queried by range, sorted and aggregated with terms; and 1,000 partial
// updates of such documents in one `_bulk`.
//
//   deno bench -A bench/exact_longs_bench.ts

import { Engine } from "../engine/mod.ts";
import { Shard } from "../engine/_index/shard.ts";
import { keepSourceText } from "../engine/_index/raw_source.ts";
import { searchApi, SearchContexts } from "../engine/_search/search_api.ts";
import type { Mappings, StoredDoc } from "../engine/_index/types.ts";
import type { SearchTarget } from "../engine/_index/search_target.ts";

const DOCS = 50_000;
const mappings: Mappings = { properties: { n: { type: "long" } } };

/** Docs whose `n` is `base + i * 7919 % DOCS` (a permutation, so values are distinct). */
function generate(base: bigint): StoredDoc[] {
  const docs: StoredDoc[] = [];
  for (let i = 0; i < DOCS; i++) {
    const text = `{"n":${base + BigInt((i * 7919) % DOCS)}}`;
    const source = JSON.parse(text);
    keepSourceText(source, text);
    docs.push({ id: String(i), source, version: 1, seqNo: i, primaryTerm: 1 });
  }
  return docs;
}

const SAFE = 1_000_000n;
const BIG = 2n ** 62n;
const safeDocs = generate(SAFE);
const bigDocs = generate(BIG);

function load(docs: StoredDoc[]): Shard {
  const shard = new Shard();
  shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), mappings);
  return shard;
}

function target(shard: Shard): SearchTarget {
  return { index: "bench", snapshot: shard.snapshot(), mappings, maxResultWindow: 10000 };
}

const safe = target(load(safeDocs));
const big = target(load(bigDocs));
const ctx = new SearchContexts();
const params = new URLSearchParams();
const bodies = (base: bigint) => ({
  range: { query: { range: { n: { gte: base + 1000n, lt: base + 2000n } } } },
  sort: { sort: [{ n: "desc" }], size: 10 },
  terms: { size: 0, aggs: { t: { terms: { field: "n", size: 10 } } } },
});
const safeBodies = bodies(SAFE);
const bigBodies = bodies(BIG);

Deno.bench("load 50k longs, safe range", { group: "load", baseline: true }, () => {
  load(safeDocs);
});
Deno.bench("load 50k longs, beyond 2^53", { group: "load" }, () => {
  load(bigDocs);
});
for (const name of ["range", "sort", "terms"] as const) {
  Deno.bench(`${name}: safe range`, { group: name, baseline: true }, () => {
    searchApi(ctx, [safe], safeBodies[name], params);
  });
  Deno.bench(`${name}: beyond 2^53`, { group: name }, () => {
    searchApi(ctx, [big], bigBodies[name], params);
  });
}

// Writes that rebuild a source: 1,000 partial updates in one `_bulk`, on sources whose `n` is
// within the safe range (the baseline: the plain path) and beyond 2^53 (merged exactly).
const UPDATES = 1_000;
async function updateEngine(base: bigint): Promise<{ engine: Engine; body: string }> {
  const engine = new Engine();
  let load = "";
  let body = "";
  for (let i = 0; i < UPDATES; i++) {
    load += `{"index":{"_id":"${i}"}}\n{"n":${base + BigInt(i)},"k":0}\n`;
    body += `{"update":{"_id":"${i}"}}\n{"doc":{"k":1}}\n`;
  }
  await engine.fetch(
    new Request("http://engine/up/_bulk", {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: load,
    }),
  );
  return { engine, body };
}
const safeUpdates = await updateEngine(SAFE);
const bigUpdates = await updateEngine(BIG);
const runUpdates = async ({ engine, body }: { engine: Engine; body: string }) => {
  const reply = await engine.fetch(
    new Request("http://engine/up/_bulk", {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body,
    }),
  );
  if (reply.status !== 200) throw new Error(await reply.text());
  await reply.body?.cancel();
};
Deno.bench("1k partial updates, safe range", { group: "update", baseline: true }, async () => {
  await runUpdates(safeUpdates);
});
Deno.bench("1k partial updates, beyond 2^53", { group: "update" }, async () => {
  await runUpdates(bigUpdates);
});
