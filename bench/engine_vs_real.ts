// The embedded engine beside what a user would run instead: the same documents (engine_scale.ts's
// generator: a 6-word title, a keyword, a double, an integer, a date) loaded in the same run into
// the engine (its own process, `engine/main.ts`, over HTTP) and into real Elasticsearch and
// OpenSearch when they are up (`real/real.sh up`, URLs in ELASTICSEARCH_URL / OPENSEARCH_URL).
// Printed side by side: _bulk docs/s to searchable, `match` / `term` / terms-aggregation p50 and
// p99 at 1 and 16 in flight, start-up time and resident memory. Every backend gets one shard, no
// replica, 5,000-document batches sent one at a time, and `request_cache=false` on every search
// (a real node would otherwise answer the repeated size-0 aggregation from its cache).
//
//   deno task bench:vs-real                                   200,000 documents, engine only
//   REAL_STATE=.real bash real/real.sh run -- npx -y deno@2 task bench:vs-real
//   VS_DOCS=500000 VS_SEARCHES=300 ...                        other sizes
//
// Start-up: the engine's is timed here (spawn to its banner); a real engine's is read from
// `$REAL_STATE/<engine>.startup` (seconds, written by `real.sh up`), when there. Resident memory is
// the whole process tree's (Linux /proc), after the load and the searches.

import { batch, MAPPINGS, rng, WORDS } from "./engine_scale.ts";
import { spawnEngineProcess } from "./_engine_process.ts";
import { percentile } from "./_measure.ts";

const DOCS = Number(Deno.env.get("VS_DOCS") ?? 200_000);
const SEARCHES = Number(Deno.env.get("VS_SEARCHES") ?? 300);
const BATCH = 5000;

/** One backend under test. */
interface Backend {
  readonly name: string;
  readonly url: string;
  /** Start-up in seconds, when known. */
  readonly startup: number | null;
  /** Process-group leader (or the process) whose tree's memory is measured. */
  readonly pid: number | null;
}

const QUERIES: Array<[string, unknown]> = [
  ["match (2 words)", { query: { match: { title: `${WORDS[30]} ${WORDS[400]}` } } }],
  ["term", { query: { term: { tag: "t7" } } }],
  ["terms agg", { size: 0, aggs: { t: { terms: { field: "tag" } } } }],
];

async function call(base: string, method: string, path: string, body?: string): Promise<string> {
  const res = await fetch(base + path, {
    method,
    body,
    headers: {
      "content-type": path.includes("_bulk") ? "application/x-ndjson" : "application/json",
    },
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}

/** Resident KiB of a process and its descendants (Linux), or null elsewhere. */
function treeRssKb(root: number): number | null {
  try {
    const children = new Map<number, number[]>();
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      try {
        const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        const list = children.get(ppid) ?? [];
        list.push(Number(e.name));
        children.set(ppid, list);
      } catch { /* gone meanwhile */ }
    }
    let total = 0;
    const todo = [root];
    while (todo.length) {
      const pid = todo.pop()!;
      const status = Deno.readTextFileSync(`/proc/${pid}/status`);
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      todo.push(...(children.get(pid) ?? []));
    }
    return total;
  } catch {
    return null;
  }
}

/** Starts the engine in its own process; start-up is spawn to its first answer. */
async function startEngine(): Promise<{ backend: Backend; stop: () => void }> {
  const t = performance.now();
  const { url, pid, stop } = await spawnEngineProcess();
  await call(url, "GET", "/_cluster/health");
  const startup = (performance.now() - t) / 1000;
  return { backend: { name: "embedded engine", url, startup, pid }, stop };
}

/** A real engine named by the harness's environment, or null when it is not up. */
function realBackend(name: string, variable: string, file: string): Backend | null {
  const url = Deno.env.get(variable);
  if (!url) return null;
  const state = Deno.env.get("REAL_STATE");
  const read = (suffix: string): number | null => {
    if (!state) return null;
    try {
      return Number(Deno.readTextFileSync(`${state}/${file}.${suffix}`).trim());
    } catch {
      return null;
    }
  };
  return { name, url: url.replace(/\/$/, ""), startup: read("startup"), pid: read("pid") };
}

interface Figures {
  bulkPerSecond: number;
  rows: Map<string, { one: number[]; many: number[] }>;
  rssMb: number | null;
}

async function latencies(url: string, text: string, inFlight: number): Promise<number[]> {
  const lat: number[] = [];
  await Promise.all(Array.from({ length: inFlight }, async () => {
    for (let i = 0; i < Math.ceil(SEARCHES / inFlight); i++) {
      const q = performance.now();
      await call(url, "POST", "/vs/_search?request_cache=false", text);
      lat.push(performance.now() - q);
    }
  }));
  return lat.sort((a, b) => a - b);
}

async function measure(b: Backend): Promise<Figures> {
  await fetch(`${b.url}/vs`, { method: "DELETE" }).then((r) => r.body?.cancel());
  await call(
    b.url,
    "PUT",
    "/vs",
    JSON.stringify({
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: MAPPINGS,
    }),
  );
  const r = rng(7);
  const t = performance.now();
  for (let i = 0; i < DOCS; i += BATCH) {
    const text = await call(b.url, "POST", "/vs/_bulk", batch(i, Math.min(BATCH, DOCS - i), r));
    if (text.includes('"errors":true')) throw new Error(`${b.name}: a bulk item failed`);
  }
  await call(b.url, "POST", "/vs/_refresh");
  const count = JSON.parse(await call(b.url, "POST", "/vs/_count", "{}")).count;
  if (count !== DOCS) throw new Error(`${b.name}: ${count} of ${DOCS} visible`);
  const bulkPerSecond = DOCS / ((performance.now() - t) / 1000);
  const rows = new Map<string, { one: number[]; many: number[] }>();
  for (const [name, body] of QUERIES) {
    const text = JSON.stringify(body);
    for (let i = 0; i < 20; i++) await call(b.url, "POST", "/vs/_search?request_cache=false", text);
    rows.set(name, {
      one: await latencies(b.url, text, 1),
      many: await latencies(b.url, text, 16),
    });
  }
  const kb = b.pid === null ? null : treeRssKb(b.pid);
  await fetch(`${b.url}/vs`, { method: "DELETE" }).then((r) => r.body?.cancel());
  return { bulkPerSecond, rows, rssMb: kb === null ? null : kb / 1024 };
}

/** Runs the comparison and prints one column per backend. */
export async function engineVsReal(): Promise<void> {
  const engine = await startEngine();
  const backends = [engine.backend];
  const es = realBackend("Elasticsearch 9.5.4", "ELASTICSEARCH_URL", "elasticsearch");
  const os = realBackend("OpenSearch 3.8.0", "OPENSEARCH_URL", "opensearch");
  if (es) backends.push(es);
  if (os) backends.push(os);
  if (backends.length === 1) {
    console.log(
      "no real engine is up (ELASTICSEARCH_URL / OPENSEARCH_URL unset; see real/README.md): " +
        "the embedded engine's column only",
    );
  }
  const load = () => Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
  console.log(
    `${DOCS} documents, ${BATCH}-document _bulk batches, ${SEARCHES} searches per row after 20 ` +
      `warm-up; Deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, load ${load()}`,
  );
  const figures: Figures[] = [];
  try {
    for (const b of backends) {
      figures.push(await measure(b));
      console.log(`  ${b.name} done, load ${load()}`);
    }
  } finally {
    engine.stop();
  }
  const width = 24;
  const line = (label: string, cells: string[]) =>
    console.log(label.padEnd(40) + cells.map((c) => c.padEnd(width)).join(""));
  line("", backends.map((b) => b.name));
  line("start-up", backends.map((b) => b.startup === null ? "n/a" : `${b.startup.toFixed(1)} s`));
  line("_bulk to searchable", figures.map((f) => `${f.bulkPerSecond.toFixed(0)} docs/s`));
  for (const [name] of QUERIES) {
    for (const [label, key] of [["1 in flight", "one"], ["16 in flight", "many"]] as const) {
      line(
        `${name}, ${label} p50 / p99`,
        figures.map((f) => {
          const l = f.rows.get(name)![key];
          return `${percentile(l, 0.5).toFixed(2)} / ${percentile(l, 0.99).toFixed(2)} ms`;
        }),
      );
    }
  }
  line(
    "resident memory after",
    figures.map((f) => f.rssMb === null ? "n/a" : `${f.rssMb.toFixed(0)} MiB`),
  );
  console.log(`load average after: ${load()}`);
}

if (import.meta.main) await engineVsReal();
