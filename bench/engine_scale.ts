// The engine at scale, the way a user loads it: 5,000-document `_bulk` batches of small documents
// (a 6-word title, a keyword, a double, an integer, a date; one shard), then the time until the
// documents are searchable, resident memory per document, and search latency and throughput.
// The baseline of each figure is in the same run: searchable time against the `_bulk` time;
// each scored query answered top k first against the same query with `track_total_hits: true`
// (every match scored, the path before top k first), the others against `term`; every query one
// at a time and 16 in flight (p50, p99, searches/s). The load average is printed: the machine
// may be shared.
//
//   deno run -A bench/engine_bench.ts --scale            50,000 documents, over HTTP and in process
//   SCALE_DOCS=1000000 deno run -A --v8-flags=--expose-gc bench/engine_bench.ts --scale
//   SCALE_MODE=http|process                              one of the two only
//   SCALE_ROWS="match (2 words),term"                    only these rows of the table (and
//                                                        their baselines); SCALE_LONG=0 leaves
//                                                        out the rows beside long searches
//   SCALE_CLIENT=socket                                  over HTTP, a minimal HTTP/1.1 client on
//                                                        Deno.connect instead of fetch (below)
//
// The client runs in the same process and event loop as `serve`: its CPU and its garbage are
// the engine's too (with 16 in flight, Deno's fetch about doubles the survivors of each minor
// collection, 0.7 → 1.5 MB, and halves the searches per second). `SCALE_CLIENT=socket` measures
// the engine with a client that costs little of either; the default stays `fetch`, the figure
// every earlier round reported.
//
// Memory is measured from where the process stood before the load: the second mode of a run
// starts with the first one's heap grown and partly free, so its figures read low; run one mode
// per process (SCALE_MODE) for memory.

import { Engine, serve } from "../engine/mod.ts";
import { indexSnapshot } from "../engine/engine.ts";
import { countSnapshot, HeapCounter } from "../engine/_index/heap_bytes.ts";
import { percentile } from "./_measure.ts";

/** The vocabulary of the generated titles (word i is i-th most frequent). */
export const WORDS = Array.from({ length: 5000 }, (_, i) => "w" + i.toString(36));
const BATCH = 5000;

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A `_bulk` body of documents `from` … `from + n - 1`. */
export function batch(from: number, n: number, r: () => number): string {
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

/** The mapping of the generated documents. */
export const MAPPINGS = {
  properties: {
    title: { type: "text" },
    tag: { type: "keyword" },
    price: { type: "double" },
    qty: { type: "integer" },
    at: { type: "date" },
  },
};

const MATCH = { match: { title: `${WORDS[30]} ${WORDS[400]}` } };
// Common words: beyond 10,000 matches, where top k first can stop scoring (track_total_hits).
const COMMON = { match: { title: `${WORDS[3]} ${WORDS[40]}` } };
const MULTI = {
  multi_match: {
    query: `${WORDS[30]} ${WORDS[400]}`,
    fields: ["title", "tag^2"],
    type: "best_fields",
  },
};
// Every `t3` document matches (minimum_should_match 0 beside a filter); the match orders them.
const SHOULD_FILTER = {
  bool: {
    should: [{ match: { title: `${WORDS[30]} ${WORDS[400]}` } }],
    filter: [{ term: { tag: "t3" } }],
  },
};

/**
 * The searches, each with its baseline in the same run: a scored query answered top k first
 * against the same query with `track_total_hits: true` (every match counted and scored, as
 * before top k first); the others against `term`.
 */
const QUERIES: Array<[name: string, body: unknown, baseline: string]> = [
  [
    "term, exhaustive",
    { query: { term: { tag: "t7" } }, track_total_hits: true },
    "term, exhaustive",
  ],
  ["term", { query: { term: { tag: "t7" } } }, "term, exhaustive"],
  ["match, exhaustive", { query: MATCH, track_total_hits: true }, "match, exhaustive"],
  ["match (2 words)", { query: MATCH }, "match, exhaustive"],
  ["common, exhaustive", { query: COMMON, track_total_hits: true }, "common, exhaustive"],
  ["match (2 common)", { query: COMMON }, "common, exhaustive"],
  ["multi_match, exhaustive", { query: MULTI, track_total_hits: true }, "multi_match, exhaustive"],
  ["multi_match best_fields", { query: MULTI }, "multi_match, exhaustive"],
  ["should+filter, exh.", { query: SHOULD_FILTER, track_total_hits: true }, "should+filter, exh."],
  ["should + filter", { query: SHOULD_FILTER }, "should+filter, exh."],
  [
    "bool + range + sort",
    {
      query: {
        bool: { filter: [{ term: { tag: "t3" } }, { range: { price: { gte: 100, lt: 300 } } }] },
      },
      sort: [{ price: "asc" }],
    },
    "term, exhaustive",
  ],
  ["terms agg", { size: 0, aggs: { t: { terms: { field: "tag" } } } }, "term, exhaustive"],
];

/** Latencies (sorted) and throughput of `rounds` searches with `inFlight` at a time. */
async function measure(
  call: Call,
  text: string,
  inFlight: number,
  rounds: number,
): Promise<{ lat: number[]; perSecond: number }> {
  const lat: number[] = [];
  const t = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    for (let i = 0; i < Math.ceil(rounds / inFlight); i++) {
      const q = performance.now();
      await call("POST", "/scale/_search", text);
      lat.push(performance.now() - q);
    }
  }));
  const perSecond = lat.length / ((performance.now() - t) / 1000);
  return { lat: lat.sort((a, b) => a - b), perSecond };
}

/** The machine's load averages (1, 5, 15 minutes): the machine is shared. */
function load(): string {
  return Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
}

type Call = (method: string, path: string, body?: string, ndjson?: boolean) => Promise<string>;

/**
 * The index's memory per structure, per document: typed arrays and strings counted byte by byte,
 * JS objects estimated (see engine/_index/heap_bytes.ts), beside the measured heap + buffers.
 */
function breakdown(engine: Engine, docs: number, held: number): void {
  const counter = new HeapCounter();
  countSnapshot(counter, indexSnapshot(engine, "scale")!);
  const per = (n: number) => `${(n / docs).toFixed(0)}`;
  const parts = counter.parts.filter(([, n]) => n > 0).map(([p, n]) => `${p} ${per(n)}`);
  console.log(
    `  by structure, B per document: ${parts.join(", ")}; counted ${per(counter.total)} of ` +
      `${per(held)} held (the rest: allocator slack, garbage, the engine's other state)`,
  );
}

async function run(label: string, call: Call, docs: number, engine: Engine): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const m0 = Deno.memoryUsage();
  await call(
    "PUT",
    "/scale",
    JSON.stringify({ mappings: MAPPINGS }),
  );
  const r = rng(7);
  // The longest the event loop went without running a timer while loading (a blocking refresh
  // or merge shows here; requests wait that long).
  let lastTick = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - lastTick);
    lastTick = now;
  }, 1);
  let bulkMs = 0;
  for (let i = 0; i < docs; i += BATCH) {
    const body = batch(i, Math.min(BATCH, docs - i), r);
    const s = performance.now();
    await call("POST", "/scale/_bulk", body, true);
    bulkMs += performance.now() - s;
    // A task boundary, as a client with any other I/O has (in process, fetch alone never has one).
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  // Searchable: a refresh right after the load, then a search that must see every document.
  const s = performance.now();
  await call("POST", "/scale/_refresh");
  const count = JSON.parse(
    await call("POST", "/scale/_search", '{"size":0,"track_total_hits":true}'),
  );
  const firstSearchMs = performance.now() - s;
  clearInterval(ticker);
  stallMs = Math.max(stallMs, performance.now() - lastTick);
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
  console.log(`  longest event-loop stall while loading: ${stallMs.toFixed(0)} ms`);
  console.log(
    `  resident memory ${(rss / docs).toFixed(0)} B per document${gc ? " (after gc)" : ""}; ` +
      `JS heap + buffers ${(held / docs).toFixed(0)} B per document`,
  );
  breakdown(engine, docs, held);
  const n = Number(Deno.env.get("SCALE_SEARCHES") ?? 400);
  console.log(`  searches: ${n} per row after 20 warm-up, load average ${load()}`);
  console.log(
    `  ${"".padEnd(24)}${"1 in flight: p50 / p99 ms, /s".padEnd(34)}` +
      `16 in flight: p50 / p99 ms, /s       p50 vs baseline (1 | 16)`,
  );
  const p50s = new Map<string, [number, number]>();
  // The rows asked for (all by default), each with its baseline, in the table's order.
  const asked = Deno.env.get("SCALE_ROWS")?.split(",").map((r) => r.trim()).filter((r) => r);
  const wanted = new Set(asked ?? QUERIES.map(([name]) => name));
  for (const [name, , baseline] of QUERIES) if (wanted.has(name)) wanted.add(baseline);
  for (const [name, query, baseline] of QUERIES) {
    if (!wanted.has(name)) continue;
    const text = JSON.stringify(query);
    await measure(call, text, 1, 20);
    const one = await measure(call, text, 1, n);
    const many = await measure(call, text, 16, n);
    const row = (m: { lat: number[]; perSecond: number }) =>
      `${percentile(m.lat, 0.5).toFixed(2)} / ${percentile(m.lat, 0.99).toFixed(2)}, ` +
      `${m.perSecond.toFixed(0)}/s`;
    p50s.set(name, [percentile(one.lat, 0.5), percentile(many.lat, 0.5)]);
    const base = p50s.get(baseline);
    const ratio = base && baseline !== name
      ? `${(percentile(one.lat, 0.5) / base[0]).toFixed(2)}× | ${
        (percentile(many.lat, 0.5) / base[1]).toFixed(2)
      }× ${baseline}`
      : "(baseline)";
    console.log(`  ${name.padEnd(24)}${row(one).padEnd(34)}${row(many).padEnd(37)}${ratio}`);
  }
  if (Deno.env.get("SCALE_LONG") !== "0") await whileLong(call, n);
  await duringMerge(call, r, docs);
  console.log(`  load average after: ${load()}`);
}

/**
 * Short searches while long ones run: 15 `match` (or `term`) loops beside one loop of `terms`
 * aggregations over every document, or of a `match` of common words that scores every match
 * (`common, exhaustive`), against the same 16 in flight with no long search. In process a long
 * search runs to its end once started (one event loop); served over HTTP it gives the event loop
 * a turn every 2 ms, between its phases and inside their long loops (time slices). The short
 * ones' p99 shows how long they wait behind it.
 */
async function whileLong(call: Call, n: number): Promise<void> {
  const pairs = [
    ["match (2 words)", "terms agg", "a terms-agg loop", "aggs"],
    ["term", "terms agg", "a terms-agg loop", "aggs"],
    ["match (2 words)", "common, exhaustive", "a common-words loop", "searches"],
  ];
  for (const [name, longName, beside, unit] of pairs) {
    const long = JSON.stringify(QUERIES.find(([q]) => q === longName)![1]);
    const text = JSON.stringify(QUERIES.find(([q]) => q === name)![1]);
    const alone = await measure(call, text, 16, n);
    let running = true;
    let longRuns = 0;
    const background = (async () => {
      while (running) {
        await call("POST", "/scale/_search", long);
        longRuns++;
      }
    })();
    // The longest the event loop went without running a timer beside the long loop: how long
    // one search held it (in process a search holds it to its end).
    let lastTick = performance.now();
    let stallMs = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      stallMs = Math.max(stallMs, now - lastTick);
      lastTick = now;
    }, 1);
    const mixed = await measure(call, text, 15, n);
    clearInterval(ticker);
    running = false;
    await background;
    const row = (l: number[]) =>
      `p50 ${percentile(l, 0.5).toFixed(2)} / p99 ${percentile(l, 0.99).toFixed(2)} ms`;
    console.log(
      `  ${name}, 16 in flight: ${row(alone.lat)}; 15 beside ${beside} (${longRuns} ` +
        `${unit}): ${row(mixed.lat)}, longest event-loop stall ${stallMs.toFixed(1)} ms`,
    );
  }
}

/**
 * `match` at 16 in flight while a background merge runs against the same with none: 13 more
 * refreshed 5,000-document batches start a merge; latencies are sorted by whether `_stats`
 * reported a merge running before and after each round of 16. The first rounds after the
 * refreshes are also shown apart (the first searches on the new segments are slower, merge or
 * not), and the merge-running rounds without them.
 */
async function duringMerge(call: Call, r: () => number, docs: number): Promise<void> {
  const text = JSON.stringify(QUERIES.find(([n]) => n === "match (2 words)")![1]);
  const merging = async (): Promise<boolean> =>
    JSON.parse(await call("GET", "/scale/_stats/merge"))._all.primaries.merges.current > 0;
  const idle: number[] = [];
  const busy: number[] = [];
  // The first rounds after the refreshes run the first searches on 13 new segments (compiled
  // code and caches warming, the load's garbage collected), merge or not: shown apart too.
  const WARM_ROUNDS = 5;
  const first: number[] = [];
  const busyAfter: number[] = [];
  for (let i = 0; i < 13; i++) {
    const body = batch(docs + i * BATCH, BATCH, r);
    await call("POST", "/scale/_bulk?refresh=true", body, true);
  }
  const started = performance.now();
  for (let round = 0; round < 2000 && performance.now() - started < 60_000; round++) {
    const before = await merging();
    const { lat } = await measure(call, text, 16, 16);
    const after = await merging();
    await new Promise((resolve) => setTimeout(resolve, 0)); // a task boundary (see the load)
    if (before && after) busy.push(...lat);
    else if (!before && !after) idle.push(...lat);
    if (round < WARM_ROUNDS) first.push(...lat);
    else if (before && after) busyAfter.push(...lat);
    if (!after && idle.length >= 400) break;
  }
  for (const l of [busy, idle, first, busyAfter]) l.sort((a, b) => a - b);
  const row = (l: number[]) =>
    l.length
      ? `p50 ${percentile(l, 0.5).toFixed(2)} / p99 ${
        percentile(l, 0.99).toFixed(2)
      } ms (${l.length})`
      : "none";
  console.log(`  match, 16 in flight, merge running: ${row(busy)}; none running: ${row(idle)}`);
  console.log(
    `  match, 16 in flight, merge running after the first ${WARM_ROUNDS} rounds: ` +
      `${row(busyAfter)}; those first rounds: ${row(first)}`,
  );
}

/**
 * A keep-alive HTTP/1.1 client on raw sockets, one connection per request in flight (pooled):
 * it writes the request and reads an answer with a declared length (what `serve` sends). A
 * bench client that allocates little and keeps no stream, reader or finalization entry per
 * answer, as `fetch` does (see the module comment). Not `contrib/fetch_deno`: it builds a
 * `Response`, `Headers` and a body stream per answer, garbage in the engine's process too; in its
 * place (three runs at 1M, load 1.0–1.3) `match (2 words)` p99 at 16 in flight read 5.6–14.1 ms
 * against 4.7–6.6 with this client.
 */
export function socketClient(base: string): {
  call: (method: string, path: string, body?: string, type?: string) => Promise<[number, string]>;
  close(): void;
} {
  const url = new URL(base);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  type Conn = { conn: Deno.TcpConn; buf: Uint8Array; len: number };
  const idle: Conn[] = [];
  const all: Conn[] = [];
  const open = async (): Promise<Conn> => {
    const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    conn.setNoDelay(true);
    const c = { conn, buf: new Uint8Array(64 * 1024), len: 0 };
    all.push(c);
    return c;
  };
  /** The end of the head (after its blank line) in the bytes read, or -1. */
  const headEnd = (c: Conn): number => {
    for (let i = 3; i < c.len; i++) {
      if (c.buf[i] === 10 && c.buf[i - 1] === 13 && c.buf[i - 2] === 10 && c.buf[i - 3] === 13) {
        return i + 1;
      }
    }
    return -1;
  };
  const call = async (
    method: string,
    path: string,
    body?: string,
    type = "application/json",
  ): Promise<[number, string]> => {
    const c = idle.pop() ?? await open();
    const bytes = body === undefined ? undefined : encoder.encode(body);
    const head = encoder.encode(
      `${method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: ${type}\r\n` +
        (bytes ? `content-length: ${bytes.byteLength}\r\n` : "") + "\r\n",
    );
    const out = new Uint8Array(head.byteLength + (bytes?.byteLength ?? 0));
    out.set(head);
    if (bytes) out.set(bytes, head.byteLength);
    for (let w = 0; w < out.byteLength;) w += await c.conn.write(out.subarray(w));
    for (;;) {
      const end = headEnd(c);
      if (end > 0) {
        const headText = decoder.decode(c.buf.subarray(0, end));
        const status = Number(headText.slice(9, 12));
        const declared = /\r\ncontent-length: *(\d+)/i.exec(headText)?.[1];
        if (declared === undefined) {
          throw new Error(`${method} ${path}: an answer without content-length (${status})`);
        }
        const length = Number(declared);
        if (c.len >= end + length) {
          const text = decoder.decode(c.buf.subarray(end, end + length));
          c.buf.copyWithin(0, end + length, c.len);
          c.len -= end + length;
          idle.push(c);
          return [status, text];
        }
      }
      if (c.len === c.buf.length) {
        const grown = new Uint8Array(c.buf.length * 2);
        grown.set(c.buf);
        c.buf = grown;
      }
      const n = await c.conn.read(c.buf.subarray(c.len));
      if (n === null) throw new Error(`${method} ${path}: connection closed`);
      c.len += n;
    }
  };
  return { call, close: () => all.forEach((c) => c.conn.close()) };
}

/** Runs the scale report (see the module comment). */
export async function scaleReport(): Promise<void> {
  const docs = Number(Deno.env.get("SCALE_DOCS") ?? 50_000);
  const mode = Deno.env.get("SCALE_MODE");
  if (mode !== "process") {
    const engine = new Engine();
    const server = await serve(engine, { port: 0 });
    const socket = Deno.env.get("SCALE_CLIENT") === "socket" ? socketClient(server.url) : null;
    const call: Call = async (method, path, body, ndjson) => {
      if (socket) {
        const type = ndjson ? "application/x-ndjson" : "application/json";
        const [status, text] = await socket.call(method, path, body, type);
        if (status >= 300) throw new Error(`${method} ${path}: ${status} ${text.slice(0, 200)}`);
        return text;
      }
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
    await run(
      socket
        ? "over HTTP (serve, keep-alive socket client)"
        : "over HTTP (serve, keep-alive fetch)",
      call,
      docs,
      engine,
    );
    socket?.close();
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
    await run("in process (engine.fetch)", call, docs, engine);
    engine.close();
  }
}

if (import.meta.main) await scaleReport();
