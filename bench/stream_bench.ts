// Streaming every hit: Connection.stream / JdbcTemplate.stream against a hand-written loop over
// fetch (the same point in time + search_after requests, or the same scroll), over loopback:
//   deno bench -A --v8-flags=--expose-gc bench/stream_bench.ts
// The engine runs in its own process (so the heap measured is the client's), loaded with
// STREAM_DOCS documents (default 1,000,000) and a second index of a tenth of that; each run logs
// docs/s and the peak heap growth over the run. Flat memory: the peak is the same for both sizes.
// STREAM_ONLY=<regexp> keeps the variants whose "name (index)" matches (e.g. "scroll|stream_small").

import { DataSource } from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { startEngineProcess } from "./_engine_process.ts";

const DOCS = Number(Deno.env.get("STREAM_DOCS") ?? 1_000_000);
const PAGE = 10_000;
const url = await startEngineProcess();

async function load(index: string, count: number): Promise<void> {
  await fetch(`${url}/${index}`, { method: "DELETE" }).then((r) => r.body?.cancel());
  for (let start = 0; start < count; start += 10_000) {
    let body = "";
    for (let i = start; i < Math.min(count, start + 10_000); i++) {
      body += `{"index":{"_id":"${i}"}}\n{"n":${i},"name":"city number ${i}","pop":${
        (i * 7) % 100_000
      },"tags":["a","b"]}\n`;
    }
    const res = await fetch(`${url}/${index}/_bulk`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body,
    });
    await res.body?.cancel();
  }
  await fetch(`${url}/${index}/_refresh`, { method: "POST" }).then((r) => r.body?.cancel());
}
await load("stream_big", DOCS);
await load("stream_small", Math.round(DOCS / 10));

const gc = (globalThis as { gc?: () => void }).gc;
type Run = (index: string, sample: () => void) => Promise<number>;

/**
 * Runs once, sampling the heap every 1,000 hits (peak, garbage included) and, with
 * --expose-gc, the live heap after a collection every 50,000 hits; logs docs/s and both.
 */
async function measure(name: string, index: string, run: Run): Promise<void> {
  gc?.();
  const base = Deno.memoryUsage().heapUsed;
  let peak = base;
  let live = base;
  let ticks = 0;
  const sample = () => {
    if (++ticks % 1000 !== 0) return;
    if (gc && ticks % 50_000 === 0) {
      gc();
      live = Math.max(live, Deno.memoryUsage().heapUsed);
    }
    const used = Deno.memoryUsage().heapUsed;
    if (used > peak) peak = used;
  };
  const t0 = performance.now();
  const n = await run(index, sample);
  const ms = performance.now() - t0;
  console.log(
    `${name.padEnd(34)} ${index.padEnd(12)} ${n.toLocaleString("en").padStart(9)} hits  ` +
      `${Math.round(n / ms * 1000).toLocaleString("en").padStart(9)} docs/s  ` +
      `peak heap +${((peak - base) / 1e6).toFixed(1)} MB, live +${
        ((live - base) / 1e6).toFixed(1)
      } MB`,
  );
}

const json = { "content-type": "application/json" };
const post = async (path: string, body: unknown, method = "POST") => {
  const res = await fetch(url + path, { method, headers: json, body: JSON.stringify(body) });
  return await res.json();
};

/** The baseline: the point-in-time loop a user would write with fetch. */
const fetchPit: Run = async (index, sample) => {
  const { id } = await post(`/${index}/_pit?keep_alive=1m`, undefined);
  let pit = id as string;
  let after: unknown[] | undefined;
  let n = 0;
  try {
    for (;;) {
      const page = await post("/_search", {
        size: PAGE,
        pit: { id: pit, keep_alive: "1m" },
        sort: ["_shard_doc"],
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      });
      pit = page.pit_id ?? pit;
      const hits = page.hits.hits as { _id: string; _source: { n: number }; sort: unknown[] }[];
      for (const hit of hits) {
        if (hit._id !== undefined && hit._source.n >= 0) n++;
        sample();
      }
      if (hits.length < PAGE) return n;
      after = hits[hits.length - 1]!.sort;
    }
  } finally {
    await post("/_pit", { id: pit }, "DELETE");
  }
};

const fetchScroll: Run = async (index, sample) => {
  let page = await post(`/${index}/_search?scroll=1m`, { size: PAGE, sort: ["_doc"] });
  const id = page._scroll_id as string;
  let n = 0;
  while (page.hits.hits.length > 0) {
    for (const hit of page.hits.hits as { _id: string; _source: { n: number } }[]) {
      if (hit._id !== undefined && hit._source.n >= 0) n++;
      sample();
    }
    page = await post("/_search/scroll", { scroll: "1m", scroll_id: id });
  }
  await post("/_search/scroll", { scroll_id: [id] }, "DELETE");
  return n;
};

const ds = new DataSource({ nodes: [url] });
const conn = await ds.getConnection();
const jdbc = new JdbcTemplate(ds);
class City {
  n = 0;
  name = "";
}

const driverPages = (mode: "pit" | "scroll"): Run => async (index, sample) => {
  let n = 0;
  for await (
    const rs of conn.stream(`POST /${index}/_search`, [], { pageSize: PAGE, mode }).pages()
  ) {
    while (rs.next()) {
      if (rs.getString("_ID") !== null && (rs.getJson("_DOC") as { n: number }).n >= 0) n++;
      sample();
    }
  }
  return n;
};

const templateEntities = (mode: "pit" | "scroll"): Run => async (index, sample) => {
  let n = 0;
  for await (
    const city of jdbc.stream(`POST /${index}/_search`, [], City, { pageSize: PAGE, mode })
  ) {
    if (city.n >= 0) n++;
    sample();
  }
  return n;
};

const variants: [string, Run][] = [
  ["fetch loop, point in time (baseline)", fetchPit],
  ["Connection.stream pages, pit", driverPages("pit")],
  ["JdbcTemplate.stream entities, pit", templateEntities("pit")],
  ["fetch loop, scroll (baseline)", fetchScroll],
  ["Connection.stream pages, scroll", driverPages("scroll")],
  ["JdbcTemplate.stream entities, scroll", templateEntities("scroll")],
];

const only = new RegExp(Deno.env.get("STREAM_ONLY") ?? "");
for (const index of ["stream_small", "stream_big"]) {
  for (const [i, [name, run]] of variants.entries()) {
    if (!only.test(`${name} (${index})`)) continue;
    Deno.bench(
      `${name} (${index})`,
      { group: `${index} ${i < 3 ? "pit" : "scroll"}`, baseline: i % 3 === 0, n: 1, warmup: 0 },
      async () => await measure(name, index, run),
    );
  }
}
