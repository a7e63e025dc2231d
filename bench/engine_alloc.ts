// Bytes allocated per `match` search (2 words, size 10), in process (`engine.fetch`) and over
// HTTP (`serve`), on the scale report's documents (bench/engine_scale.ts). Allocation, not time:
// a shared, loaded machine changes latency but not what a request allocates, and the young
// generation's collections (what a p99 catches) come every `semi-space size / bytes per request`
// requests.
//
//   deno run -A --v8-flags=--expose-gc,--min-semi-space-size=512,--max-semi-space-size=512 \
//     bench/engine_alloc.ts                               200,000 documents, 2,000 searches
//   ALLOC_DOCS=… ALLOC_SEARCHES=… ALLOC_MODE=process|http  other sizes, one mode
//   ALLOC_MODE=socket                                     over HTTP with the scale report's
//                                                         raw-socket client instead of fetch
//
// The phases are found by difference: a `GET /`, a `match_none` search of size 0, the `match`
// with size 0, the `match` with its 10 hits, each a phase more than the one before.
//
// `GET /` is the baseline: the REST layer and the client alone, in the same run.
//
// The method: a full gc, then `Deno.memoryUsage().heapUsed`, then N searches one at a time, then
// `heapUsed` again with no gc between. With a young generation large enough to take all N
// searches' garbage (the semi-space flags), no scavenge runs inside the window, so the delta is
// everything allocated on the JS heap (kept or not) over N searches; the run checks that (a
// delta below the previous window's means a collection ran) and says so. The client's own
// allocations (the request text, the `fetch` call, reading the answer) are in the figure too:
// the same for a baseline and a change, so differences are the engine's.

import { Engine, serve } from "../engine/mod.ts";
import { batch, MAPPINGS, rng, socketClient, WORDS } from "./engine_scale.ts";

type Call = (method: string, path: string, body?: string) => Promise<string>;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc (see the module comment)");

const MATCH = JSON.stringify({ query: { match: { title: `${WORDS[30]} ${WORDS[400]}` } } });

async function load(call: Call, docs: number): Promise<void> {
  await call("PUT", "/scale", JSON.stringify({ mappings: MAPPINGS }));
  const r = rng(7);
  for (let i = 0; i < docs; i += 5000) {
    await call("POST", "/scale/_bulk", batch(i, Math.min(5000, docs - i), r));
  }
  await call("POST", "/scale/_refresh");
  await call("POST", "/scale/_forcemerge?max_num_segments=1");
}

/** Bytes allocated per request over `n` requests one at a time (see the module comment). */
async function perRequest(
  call: Call,
  n: number,
  request: Step = ["POST", "/scale/_search", MATCH],
) {
  gc!();
  const before = Deno.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) await call(...request);
  const after = Deno.memoryUsage().heapUsed;
  return (after - before) / n;
}

type Step = [method: string, path: string, body?: string];

/**
 * The phases by difference: each request below does one more phase than the one before it
 * (the REST layer alone; a search that matches nothing; scoring the match without hits;
 * rendering 10 hits and writing the answer).
 */
const PHASES: Array<[name: string, request: Step]> = [
  ["GET / (request, route, answer)", ["GET", "/"]],
  ["match_none, size 0 (+ search setup)", [
    "POST",
    "/scale/_search",
    JSON.stringify({ size: 0, query: { match_none: {} } }),
  ]],
  ["match, size 0 (+ parse, score)", [
    "POST",
    "/scale/_search",
    JSON.stringify({ size: 0, query: JSON.parse(MATCH).query }),
  ]],
  ["match, size 10 (+ 10 hits)", ["POST", "/scale/_search", MATCH]],
];

async function report(label: string, call: Call, docs: number, n: number): Promise<void> {
  await load(call, docs);
  const answer = await call("POST", "/scale/_search", MATCH);
  for (let i = 0; i < 200; i++) await call("POST", "/scale/_search", MATCH);
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) runs.push(await perRequest(call, n));
  const sorted = [...runs].sort((a, b) => a - b);
  const spread = (sorted[4]! - sorted[0]!) / sorted[2]!;
  console.log(
    `${label}: ${(sorted[2]! / 1024).toFixed(2)} KB allocated per match search (median of 5 ` +
      `windows of ${n}; windows ${runs.map((r) => (r / 1024).toFixed(2)).join(" ")} KB; ` +
      `spread ${(spread * 100).toFixed(1)}%${spread > 0.1 ? ", a scavenge ran in a window" : ""})` +
      `; answer ${answer.length} chars`,
  );
  const row: string[] = [];
  for (const [name, request] of PHASES) {
    for (let i = 0; i < 100; i++) await call(...request);
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push(await perRequest(call, n / 2, request));
    row.push(`${name} ${(runs.sort((a, b) => a - b)[1]! / 1024).toFixed(1)}`);
  }
  console.log(`  by phase, KB per request (median of 3 windows of ${n / 2}): ${row.join("; ")}`);
}

const docs = Number(Deno.env.get("ALLOC_DOCS") ?? 200_000);
const n = Number(Deno.env.get("ALLOC_SEARCHES") ?? 2000);
const mode = Deno.env.get("ALLOC_MODE");

if (mode === "socket") {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const socket = socketClient(server.url);
  const call: Call = async (method, path, body) => {
    const type = path.endsWith("_bulk") ? "application/x-ndjson" : "application/json";
    const [status, text] = await socket.call(method, path, body, type);
    if (status >= 300) throw new Error(`${path}: ${status} ${text.slice(0, 200)}`);
    return text;
  };
  await report("over HTTP (serve, keep-alive socket client)", call, docs, n);
  socket.close();
  await server.close();
  engine.close();
}
if (mode !== "http" && mode !== "socket") {
  const engine = new Engine();
  const call: Call = async (method, path, body) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method,
      body,
      headers: { "content-type": "application/json" },
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };
  await report("in process (engine.fetch)", call, docs, n);
  engine.close();
}
if (mode !== "process" && mode !== "socket") {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const call: Call = async (method, path, body) => {
    const res = await fetch(server.url + path, {
      method,
      body,
      headers: { "content-type": "application/json" },
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };
  await report("over HTTP (serve, keep-alive fetch)", call, docs, n);
  await server.close();
  engine.close();
}
