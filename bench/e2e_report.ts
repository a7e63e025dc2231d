// End-to-end throughput over loopback: the same `term` search (~10 hits) sent by a
// hand-written fetch (the baseline), JdbcTemplate.queryForList, a driver PreparedStatement, the
// official @elastic/elasticsearch client and JdbcTemplate on contrib/fetch_deno (HTTP/1.1 on
// Deno.connect instead of Deno's fetch), one at a time and 16 at a time.
//   deno run -A bench/e2e_report.ts          a plain table of requests/s and the ratio to fetch
//   deno bench -A bench/e2e_bench.ts         the same variants under Deno.bench
// The server is canned by default: a loopback HTTP server in this process that answers every
// search with the embedded engine's real answer, captured once, so the time measured is the
// clients' (E2E_SERVER=engine serves the engine itself; E2E_SERVER=child serves the canned answer
// from a child process, so the CPU column is the clients' alone). This file also exports the
// fixture.
//   E2E_VARIANTS="JdbcTemplate,Prepared"   only these variants beside the baseline
//
// Timing on a shared machine: every variant runs in short interleaved rounds, each round right
// after the baseline's, and a variant's figure is the median over rounds of its ratio to the
// baseline's round beside it; CPU time (user + system of this process, server included) per
// request is shown beside wall time, as it does not count time spent waiting for a core.

import { Client } from "npm:@elastic/elasticsearch@8";
import {
  type Connection,
  DataSource,
  type FetchFunction,
  type PreparedStatement,
  Transport,
} from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { Engine, serve } from "../engine/mod.ts";
import process from "node:process";
import { percentile } from "./_measure.ts";
import { cannedFetch } from "./_canned.ts";
import { denoFetch } from "../contrib/fetch_deno.ts";

/** One `{_ID, _DOC}` row, as every variant builds it. */
export type Row = { _ID: string; _DOC: string };
/** One way of running the search once; resolves to its rows. */
export type Variant = () => Promise<unknown>;

/** The index, its documents and the searched term (DOCS / TAGS ≈ 10 hits). */
export const INDEX = "idx";
export const DOCS = 1_000;
const TAGS = 100;
export const TAG = "t7";
/** How many requests run at once in the concurrent variants. */
export const CONCURRENCY = 16;

/** The server and one instance of each variant, ready to run. */
export interface Fixture {
  url: string;
  /**
   * `canned` (the engine's answer, captured once), `child` (the same, served by a child
   * process) or `engine` (the engine itself).
   */
  server: Server;
  variants: { name: string; one: Variant }[];
  close(): Promise<void>;
}

/** Where the answers come from (see the file's header). */
export type Server = "canned" | "child" | "engine";

/** The server named by E2E_SERVER (`canned` when unset or unknown). */
function serverOfEnv(): Server {
  const name = Deno.env.get("E2E_SERVER");
  return name === "engine" || name === "child" ? name : "canned";
}

/** The search every variant sends, as a hand-written body. */
const SEARCH_BODY = `{"query":{"term":{"tag":${JSON.stringify(TAG)}}}}`;

/**
 * Starts a server on a free loopback port and builds the variants.
 *
 * @param server `canned` (default, or E2E_SERVER): the engine's answer replayed by a bare
 * `Deno.serve`; `child`: the same from a child process; `engine`: the engine itself over HTTP.
 */
export async function startFixture(server: Server = serverOfEnv()): Promise<Fixture> {
  const engine = new Engine();
  let url: string;
  let stop: () => Promise<void>;
  if (server === "engine") {
    const served = await serve(engine, { port: 0 });
    url = served.url;
    stop = () => served.close();
    await load((path, init) => fetch(url + path, init));
  } else if (server === "child") {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", import.meta.filename!, "--serve-canned"],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the canned server did not start: ${out}`);
      out += value;
    }
    reader.releaseLock();
    url = out.trim();
    stop = async () => {
      child.kill();
      await child.status;
    };
  } else {
    const served = await serveCanned(engine);
    url = served.url;
    stop = served.stop;
  }

  const searchUrl = `${url}/${INDEX}/_search`;
  const rawFetch: Variant = async () => {
    const res = await fetch(searchUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: SEARCH_BODY,
    });
    if (!res.ok) throw new Error(`search: HTTP ${res.status} ${await res.text()}`);
    const body = await res.json();
    return toRows(body.hits.hits);
  };

  const ds = new DataSource({ nodes: [url] });
  const jdbc = new JdbcTemplate(ds);
  const TEMPLATE = `POST /${INDEX}/_search {"query": {"term": {"tag": #{tag}}}}`;
  const template: Variant = () => jdbc.queryForList(TEMPLATE, { tag: TAG });

  // A PreparedStatement holds one result at a time: one statement per concurrent slot.
  const conn: Connection = await ds.getConnection();
  const PREPARED = `POST /${INDEX}/_search {"query": {"term": {"tag": ?}}}`;
  const pool: PreparedStatement[] = Array.from(
    { length: CONCURRENCY },
    () => conn.prepareStatement(PREPARED),
  );
  let nextStatement = 0;
  const prepared: Variant = async () => {
    const stmt = pool[nextStatement++ % CONCURRENCY]!;
    stmt.setObject(1, TAG);
    const rs = await stmt.executeQuery();
    const rows: Row[] = [];
    while (rs.next()) rows.push({ _ID: rs.getString("_ID")!, _DOC: rs.getString("_DOC")! });
    return rows;
  };

  // The same template on contrib/fetch_deno (HTTP/1.1 on Deno.connect) instead of Deno's fetch.
  const wire = denoFetch();
  const jdbcWire = new JdbcTemplate(new DataSource({ nodes: [url], fetch: wire }));
  const templateWire: Variant = () => jdbcWire.queryForList(TEMPLATE, { tag: TAG });

  const client = new Client({ node: url });
  const official: Variant = async () => {
    const res = await client.search<Record<string, unknown>>({
      index: INDEX,
      query: { term: { tag: TAG } },
    });
    return toRows(res.hits.hits as { _id?: string; _source?: unknown }[]);
  };

  const variants = [
    { name: "raw fetch + res.json() + rows", one: rawFetch },
    { name: "JdbcTemplate.queryForList", one: template },
    { name: "driver PreparedStatement.executeQuery + rows", one: prepared },
    { name: "@elastic/elasticsearch@8 client.search", one: official },
    { name: "JdbcTemplate.queryForList on contrib/fetch_deno", one: templateWire },
  ];
  for (const v of variants) await check(v.name, v.one);

  return {
    url,
    server,
    variants,
    async close() {
      await conn.close();
      await client.close();
      wire.close();
      await stop();
      engine.close();
    },
  };
}

/** Loads the engine in process and serves its answer to the search, captured once. */
async function serveCanned(engine: Engine): Promise<{ url: string; stop: () => Promise<void> }> {
  await load((path, init) => engine.fetch(new Request("http://engine" + path, init)));
  const res = await engine.fetch(
    new Request(`http://engine/${INDEX}/_search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: SEARCH_BODY,
    }),
  );
  const canned = await res.text();
  const headers = {
    "content-type": "application/json",
    "x-elastic-product": "Elasticsearch",
  };
  const served = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      await req.body?.cancel();
      return new URL(req.url).pathname === `/${INDEX}/_search`
        ? new Response(canned, { headers })
        : Response.json({ error: "only the benchmark's search is canned" }, { status: 404 });
    },
  );
  return { url: `http://127.0.0.1:${served.addr.port}`, stop: () => served.shutdown() };
}

function toRows(hits: { _id?: string; _source?: unknown }[]): Row[] {
  const rows: Row[] = [];
  for (const h of hits) rows.push({ _ID: h._id!, _DOC: JSON.stringify(h._source) });
  return rows;
}

/** Creates the index and loads the documents through `send` (HTTP or the engine's own fetch). */
async function load(send: (path: string, init: RequestInit) => Promise<Response>): Promise<void> {
  const put = await send(`/${INDEX}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      mappings: {
        properties: {
          tag: { type: "keyword" },
          n: { type: "integer" },
          title: { type: "text" },
        },
      },
    }),
  });
  if (!put.ok) throw new Error(`create index: HTTP ${put.status} ${await put.text()}`);
  await put.body?.cancel();
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    lines.push(JSON.stringify({ index: { _index: INDEX, _id: String(i) } }));
    lines.push(JSON.stringify({ tag: `t${i % TAGS}`, n: i, title: `document number ${i}` }));
  }
  const bulk = await send(`/_bulk?refresh=true`, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: lines.join("\n") + "\n",
  });
  const result = await bulk.json();
  if (!bulk.ok || result.errors) throw new Error(`bulk: HTTP ${bulk.status}`);
}

/** Every variant must return the same ~10 rows, or the comparison means nothing. */
async function check(name: string, one: Variant): Promise<void> {
  const rows = await one() as Row[];
  const expected = DOCS / TAGS;
  if (rows.length !== expected || rows.some((r) => JSON.parse(r._DOC).tag !== TAG)) {
    throw new Error(`${name}: expected ${expected} rows with tag ${TAG}, got ${rows.length}`);
  }
}

/** Runs `one` CONCURRENCY times at once. */
export function sixteen(one: Variant): Promise<unknown> {
  const all: Promise<unknown>[] = [];
  for (let i = 0; i < CONCURRENCY; i++) all.push(one());
  return Promise.all(all);
}

/** Wall and CPU microseconds per request of one timed batch. */
interface Sample {
  wall: number;
  cpu: number;
}

/** Runs `n` requests one after the other, or `n` rounds of CONCURRENCY at once. */
async function timeBatch(one: Variant, n: number, concurrent: boolean): Promise<Sample> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  if (concurrent) { for (let i = 0; i < n; i++) await sixteen(one); }
  else for (let i = 0; i < n; i++) await one();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const requests = concurrent ? n * CONCURRENCY : n;
  return { wall: (wall * 1000) / requests, cpu: (cpu.user + cpu.system) / requests };
}

/**
 * The variants E2E_VARIANTS names (comma-separated parts of their names; the baseline, first,
 * always runs): fewer variants in a round, so none runs in the wake of another's garbage.
 */
function chosen(variants: readonly { name: string; one: Variant }[]) {
  const parts = Deno.env.get("E2E_VARIANTS")?.split(",").map((p) => p.trim()).filter(Boolean);
  if (!parts?.length) return variants;
  return variants.filter((v, i) => i === 0 || parts.some((p) => v.name.includes(p)));
}

/** Per variant: its samples and, per round, the baseline's wall time over its own. */
interface Series {
  wall: number[];
  cpu: number[];
  /** Throughput relative to the baseline (the first variant) in the same round. */
  ratio: number[];
  /** CPU per request relative to the baseline's in the same round. */
  cpuRatio: number[];
}

/**
 * Times every variant in `rounds` short rounds. Within a round the variants run in a rotating
 * order; each is compared with the baseline's batch of the same round, so a busy moment of the
 * machine weighs on both sides of a ratio.
 */
async function compare(
  variants: readonly { name: string; one: Variant }[],
  n: number,
  rounds: number,
  concurrent: boolean,
): Promise<Map<string, Series>> {
  const out = new Map<string, Series>();
  for (const v of variants) out.set(v.name, { wall: [], cpu: [], ratio: [], cpuRatio: [] });
  for (const v of variants) await timeBatch(v.one, Math.max(1, n >> 1), concurrent); // warm-up
  for (let round = 0; round < rounds; round++) {
    const samples = new Map<string, Sample>();
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(k + round) % variants.length]!;
      samples.set(v.name, await timeBatch(v.one, n, concurrent));
    }
    const base = samples.get(variants[0]!.name)!;
    for (const [name, sample] of samples) {
      const series = out.get(name)!;
      series.wall.push(sample.wall);
      series.cpu.push(sample.cpu);
      series.ratio.push(base.wall / sample.wall);
      series.cpuRatio.push(sample.cpu / base.cpu);
    }
  }
  return out;
}

/** The value at fraction `p` of the values (sorted here). */
function quantile(values: readonly number[], p: number): number {
  return percentile([...values].sort((a, b) => a - b), p);
}

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Prints one comparison: req/s, µs per request (wall, CPU), ratio to the first, its IQR. */
function table(title: string, results: Map<string, Series>): void {
  const names = [...results.keys()];
  const width = Math.max(...names.map((n) => n.length), title.length);
  const head = ["req/s", "µs/req", "CPU µs", "vs fetch", "IQR"];
  console.log(`${title.padEnd(width)}  ${head.map((h) => h.padStart(11)).join("  ")}`);
  console.log(`${"-".repeat(width)}  ${head.map(() => "-".repeat(11)).join("  ")}`);
  for (const name of names) {
    const s = results.get(name)!;
    const wall = median(s.wall);
    const cells = [
      (1e6 / wall).toFixed(0),
      wall.toFixed(1),
      median(s.cpu).toFixed(1),
      `${(100 * median(s.ratio)).toFixed(1)}%`,
      `${(100 * quantile(s.ratio, 0.25)).toFixed(0)}–${
        (100 * quantile(s.ratio, 0.75)).toFixed(0)
      }%`,
    ];
    console.log(`${name.padEnd(width)}  ${cells.map((c) => c.padStart(11)).join("  ")}`);
  }
}

/** Runs the comparison one at a time and CONCURRENCY at a time, then the layer breakdown. */
async function report(): Promise<void> {
  const SEQUENTIAL = Number(Deno.env.get("E2E_SEQUENTIAL") ?? 100);
  const BATCHES = Number(Deno.env.get("E2E_BATCHES") ?? 8);
  const ROUNDS = Number(Deno.env.get("E2E_ROUNDS") ?? 40);
  const fixture = await startFixture();
  try {
    console.log(
      `End to end over loopback (${fixture.url}, ${fixture.server} server), POST /${INDEX}/_search` +
        ` term on a keyword field, ${DOCS / TAGS} hits; ${ROUNDS} interleaved rounds of ` +
        `${SEQUENTIAL} sequential and ${BATCHES} × ${CONCURRENCY} concurrent requests per ` +
        "variant; medians, the ratio paired with the baseline's batch in the same round.",
    );
    console.log(
      `Deno ${Deno.version.deno}, V8 ${Deno.version.v8}; load average ${loadAverage()} at the start`,
    );
    console.log("");
    const variants = chosen(fixture.variants);
    table("one at a time", await compare(variants, SEQUENTIAL, ROUNDS, false));
    console.log("");
    table(
      `${CONCURRENCY} at a time (Promise.all)`,
      await compare(variants, BATCHES, ROUNDS, true),
    );
    if (Deno.env.get("E2E_STAGES") !== "0") await stages(fixture.url);
    console.log(`\nload average ${loadAverage()} at the end`);
  } finally {
    await fixture.close();
  }
}

function loadAverage(): string {
  return Deno.loadavg().map((l) => l.toFixed(2)).join(" ");
}

/**
 * Where the client's time goes: the same search built up layer by layer, each row adding one
 * layer of the driver, over loopback and then with `fetch` faked (client CPU alone).
 */
async function stages(url: string): Promise<void> {
  const body = SEARCH_BODY;
  const text = await (await fetch(`${url}/${INDEX}/_search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  })).text();
  // The engine's headers, built as bench/inproc_report.ts builds them (see bench/_canned.ts).
  const fake = cannedFetch(text, { inProcess: false });
  // The same fake marked in-process, as the engine's `engine.fetch` is: the driver reads its
  // bodies whole instead of streaming them for the size cap.
  const inProcess = cannedFetch(text);
  const runs = [
    ["over loopback", undefined, 50],
    ["fetch faked (client CPU only)", fake, 500],
    ["fetch faked and marked in-process (as engine.fetch)", inProcess, 500],
  ] as const;
  for (const [title, fetchFn, n] of runs) {
    const doFetch: FetchFunction = fetchFn ?? ((u, init) => fetch(u, init));
    const headers = { "content-type": "application/json", accept: "application/json" };
    const search = () => doFetch(`${url}/${INDEX}/_search`, { method: "POST", headers, body });
    const transport = new Transport({ nodes: [url], fetch: fetchFn });
    // Over loopback only: the bare exchange and the template on contrib/fetch_deno as well.
    const wire = fetchFn === undefined ? denoFetch() : undefined;
    const wireJdbc = wire && new JdbcTemplate(new DataSource({ nodes: [url], fetch: wire }));
    const ds = new DataSource({ nodes: [url], fetch: fetchFn });
    const conn = await ds.getConnection();
    const jdbc = new JdbcTemplate(ds);
    const POS = `POST /${INDEX}/_search {"query": {"term": {"tag": ?}}}`;
    const ladder: { name: string; one: Variant }[] = [
      {
        name: "fetch + res.json() + rows",
        one: async () => toRows((await (await search()).json()).hits.hits),
      },
      {
        name: "fetch + res.text() + JSON.parse + rows",
        one: async () => toRows(JSON.parse(await (await search()).text()).hits.hits),
      },
      {
        name: "same, fetch given an AbortController's signal",
        one: async () => {
          const signal = new AbortController().signal;
          const res = await doFetch(`${url}/${INDEX}/_search`, {
            method: "POST",
            headers,
            body,
            signal,
          });
          return toRows(JSON.parse(await res.text()).hits.hits);
        },
      },
      {
        name: "same, plus the size check's two header lookups",
        one: async () => {
          const signal = new AbortController().signal;
          const res = await doFetch(`${url}/${INDEX}/_search`, {
            method: "POST",
            headers,
            body,
            signal,
          });
          // What the transport's reader asks before trusting `res.text()` with the size cap.
          if (Number(res.headers.get("content-length")) > 1e9) throw new Error("too large");
          if (res.headers.get("content-encoding") !== null) throw new Error("encoded");
          return toRows(JSON.parse(await res.text()).hits.hits);
        },
      },
      {
        name: "Transport.request + JSON.parse + rows",
        one: async () => {
          const res = await transport.request({ method: "POST", path: `/${INDEX}/_search`, body });
          return toRows(JSON.parse(res.body).hits.hits);
        },
      },
      {
        name: "Statement.execute, rows by next()/getString",
        one: async () => {
          const stmt = conn.createStatement();
          await stmt.execute(POS, [TAG]);
          const rs = stmt.getResultSet()!;
          const rows: Row[] = [];
          while (rs.next()) rows.push({ _ID: rs.getString("_ID")!, _DOC: rs.getString("_DOC")! });
          return rows;
        },
      },
      {
        name: "Statement.execute, rows by rs.toArray()",
        one: async () => {
          const stmt = conn.createStatement();
          await stmt.execute(POS, [TAG]);
          return stmt.getResultSet()!.toArray();
        },
      },
      {
        name: "JdbcTemplate.queryForList",
        one: () =>
          jdbc.queryForList(`POST /${INDEX}/_search {"query": {"term": {"tag": #{tag}}}}`, {
            tag: TAG,
          }),
      },
      {
        // The same rows through a row handler: what queryForList's list metadata (total, took,
        // aggregations and raw, for listMeta) costs is the row above minus this.
        name: "JdbcTemplate.query + extractor rs.toArray()",
        one: () =>
          jdbc.query(`POST /${INDEX}/_search {"query": {"term": {"tag": #{tag}}}}`, {
            tag: TAG,
          }, { extractor: (rs) => rs.toArray() }),
      },
      ...(wire === undefined || wireJdbc === undefined ? [] : [
        {
          name: "contrib/fetch_deno + res.text() + JSON.parse + rows",
          one: async () => {
            const res = await wire(`${url}/${INDEX}/_search`, { method: "POST", headers, body });
            return toRows(JSON.parse(await res.text()).hits.hits);
          },
        },
        {
          name: "JdbcTemplate.queryForList on contrib/fetch_deno",
          one: () =>
            wireJdbc.queryForList(`POST /${INDEX}/_search {"query": {"term": {"tag": #{tag}}}}`, {
              tag: TAG,
            }),
        },
      ]),
    ];
    const results = await compare(ladder, n, 20, false);
    await conn.close();
    wire?.close();
    const width = Math.max(...ladder.map((v) => v.name.length));
    console.log("");
    console.log(
      `Where the time goes, ${title}: µs per search, median of 20 interleaved rounds × ${n}`,
    );
    const head = ["µs/req", "CPU µs", "CPU × first"];
    console.log(`${"".padEnd(width)}  ${head.map((h) => h.padStart(11)).join("  ")}`);
    for (const v of ladder) {
      const s = results.get(v.name)!;
      const cells = [
        median(s.wall).toFixed(1),
        median(s.cpu).toFixed(1),
        `${median(s.cpuRatio).toFixed(2)}×`,
      ];
      console.log(`${v.name.padEnd(width)}  ${cells.map((c) => c.padStart(11)).join("  ")}`);
    }
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--serve-canned") {
    // The child of E2E_SERVER=child: serve until killed, the URL on the first line.
    console.log((await serveCanned(new Engine())).url);
  } else {
    await report();
    Deno.exit(0);
  }
}
