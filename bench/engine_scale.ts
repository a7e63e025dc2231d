// The engine at scale, the way a user loads it: 5,000-document `_bulk` batches of small documents
// (a 6-word title, a keyword, a double, an integer, a date; one shard), then the time until the
// documents are searchable, resident memory per document, and search latency and throughput.
// The baseline of each figure is in the same run: searchable time against the `_bulk` time,
// query latencies against `term`, 16-in-flight throughput against one at a time.
//
//   deno run -A bench/engine_bench.ts --scale            50,000 documents, over HTTP and in process
//   SCALE_DOCS=1000000 deno run -A --v8-flags=--expose-gc bench/engine_bench.ts --scale
//   SCALE_MODE=http|process                              one of the two only

import { Engine, serve } from "../engine/mod.ts";
import { percentile } from "./_measure.ts";

const WORDS = Array.from({ length: 5000 }, (_, i) => "w" + i.toString(36));
const BATCH = 5000;

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function batch(from: number, n: number, r: () => number): string {
  const lines: string[] = [];
  for (let i = from; i < from + n; i++) {
    const title: string[] = [];
    for (let w = 0; w < 6; w++) {
      title.push(WORDS[Math.floor(Math.exp(r() * Math.log(WORDS.length + 1)) - 1)]!);
    }
    lines.push(`{"index":{"_id":"${i}"}}`);
    lines.push(JSON.stringify({
      title: title.join(" "),
      tag: "t" + (i % 50),
      price: Math.round(r() * 100_000) / 100,
      qty: Math.floor(r() * 1000),
      at: new Date(Date.UTC(2024, 0, 1) + Math.floor(r() * 365 * 86_400_000)).toISOString(),
    }));
  }
  return lines.join("\n") + "\n";
}

const QUERIES: Record<string, unknown> = {
  term: { query: { term: { tag: "t7" } } },
  "match (2 words)": { query: { match: { title: `${WORDS[30]} ${WORDS[400]}` } } },
  // Common words: beyond 10,000 matches, where top k first can stop scoring (track_total_hits).
  "match (2 common)": { query: { match: { title: `${WORDS[3]} ${WORDS[40]}` } } },
  "bool + range + sort": {
    query: {
      bool: { filter: [{ term: { tag: "t3" } }, { range: { price: { gte: 100, lt: 300 } } }] },
    },
    sort: [{ price: "asc" }],
  },
  "terms agg": { size: 0, aggs: { t: { terms: { field: "tag" } } } },
};

type Call = (method: string, path: string, body?: string, ndjson?: boolean) => Promise<string>;

async function run(label: string, call: Call, docs: number): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const m0 = Deno.memoryUsage();
  await call(
    "PUT",
    "/scale",
    JSON.stringify({
      mappings: {
        properties: {
          title: { type: "text" },
          tag: { type: "keyword" },
          price: { type: "double" },
          qty: { type: "integer" },
          at: { type: "date" },
        },
      },
    }),
  );
  const r = rng(7);
  let bulkMs = 0;
  for (let i = 0; i < docs; i += BATCH) {
    const body = batch(i, Math.min(BATCH, docs - i), r);
    const s = performance.now();
    await call("POST", "/scale/_bulk", body, true);
    bulkMs += performance.now() - s;
  }
  // Searchable: a refresh right after the load, then a search that must see every document.
  const s = performance.now();
  await call("POST", "/scale/_refresh");
  const count = JSON.parse(
    await call("POST", "/scale/_search", '{"size":0,"track_total_hits":true}'),
  );
  const firstSearchMs = performance.now() - s;
  if (count.hits.total.value !== docs) {
    throw new Error(`${count.hits.total.value} of ${docs} visible`);
  }
  gc?.();
  const m = Deno.memoryUsage();
  const rss = m.rss - m0.rss;
  // The engine's own objects and buffers (JS heap + array buffers), apart from allocator slack.
  const held = m.heapUsed + m.external - m0.heapUsed - m0.external;
  const totalMs = bulkMs + firstSearchMs;
  console.log(
    `\n${label}: ${docs} documents in ${BATCH}-document _bulk batches (Deno ${Deno.version.deno})`,
  );
  console.log(
    `  _bulk ${(bulkMs / 1000).toFixed(1)} s (${(docs / bulkMs * 1000).toFixed(0)} docs/s); ` +
      `refresh + first search after it ${(firstSearchMs / 1000).toFixed(2)} s; searchable after ` +
      `${(totalMs / bulkMs).toFixed(2)}× the _bulk time (${
        (docs / totalMs * 1000).toFixed(0)
      } docs/s end to end)`,
  );
  console.log(
    `  resident memory ${(rss / docs).toFixed(0)} B per document${gc ? " (after gc)" : ""}; ` +
      `JS heap + buffers ${(held / docs).toFixed(0)} B per document`,
  );
  const n = Number(Deno.env.get("SCALE_SEARCHES") ?? 200);
  let termP50 = 0;
  for (const [name, query] of Object.entries(QUERIES)) {
    const text = JSON.stringify(query);
    const samples: number[] = [];
    for (let i = 0; i < n + 10; i++) {
      const t = performance.now();
      await call("POST", "/scale/_search", text);
      if (i >= 10) samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    const p50 = percentile(samples, 0.5);
    if (name === "term") termP50 = p50;
    console.log(
      `  ${name.padEnd(20)} p50 ${p50.toFixed(2)} ms (${(p50 / termP50).toFixed(1)}× term), ` +
        `p99 ${percentile(samples, 0.99).toFixed(2)} ms`,
    );
  }
  const match = JSON.stringify(QUERIES["match (2 words)"]);
  const one = async (k: number) => {
    const t = performance.now();
    for (let i = 0; i < k; i++) await call("POST", "/scale/_search", match);
    return k / ((performance.now() - t) / 1000);
  };
  const sequential = await one(n);
  const t = performance.now();
  const lat: number[] = [];
  await Promise.all(Array.from({ length: 16 }, async () => {
    for (let i = 0; i < n / 8; i++) {
      const q = performance.now();
      await call("POST", "/scale/_search", match);
      lat.push(performance.now() - q);
    }
  }));
  const concurrent = (16 * n / 8) / ((performance.now() - t) / 1000);
  lat.sort((a, b) => a - b);
  console.log(
    `  match, 16 in flight: ${concurrent.toFixed(0)} searches/s (${
      (concurrent / sequential).toFixed(2)
    }× ` +
      `one at a time, ${sequential.toFixed(0)}/s); p99 ${percentile(lat, 0.99).toFixed(1)} ms`,
  );
}

/** Runs the scale report (see the module comment). */
export async function scaleReport(): Promise<void> {
  const docs = Number(Deno.env.get("SCALE_DOCS") ?? 50_000);
  const mode = Deno.env.get("SCALE_MODE");
  if (mode !== "process") {
    const engine = new Engine();
    const server = await serve(engine, { port: 0 });
    const call: Call = async (method, path, body, ndjson) => {
      const res = await fetch(server.url + path, {
        method,
        body,
        headers: { "content-type": ndjson ? "application/x-ndjson" : "application/json" },
      });
      const text = await res.text();
      if (res.status >= 300) {
        throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
      }
      return text;
    };
    await run("over HTTP (serve, keep-alive fetch)", call, docs);
    await server.close();
    engine.close();
  }
  if (mode !== "http") {
    const engine = new Engine();
    const call: Call = async (method, path, body, ndjson) => {
      const res = await engine.fetch(`http://engine${path}`, {
        method,
        body,
        headers: { "content-type": ndjson ? "application/x-ndjson" : "application/json" },
      });
      const text = await res.text();
      if (res.status >= 300) {
        throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
      }
      return text;
    };
    await run("in process (engine.fetch)", call, docs);
    engine.close();
  }
}

if (import.meta.main) await scaleReport();
