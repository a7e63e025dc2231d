// End-to-end throughput over loopback: the same `term` search (~10 hits) sent by a
// hand-written fetch (the baseline), JdbcTemplate.queryForList, a driver PreparedStatement and the
// official @elastic/elasticsearch client, one at a time and 16 at a time.
//   deno run -A bench/e2e_report.ts          a plain table of requests/s and the ratio to fetch
//   deno bench -A bench/e2e_bench.ts         the same variants under Deno.bench
// This file also exports the fixture the bench file uses.

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

/** The engine, its server and one instance of each variant, ready to run. */
export interface Fixture {
  url: string;
  variants: { name: string; one: Variant }[];
  close(): Promise<void>;
}

/** Starts the engine on a free loopback port, loads the documents and builds the variants. */
export async function startFixture(): Promise<Fixture> {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  const url = server.url;
  await load(url);

  const searchUrl = `${url}/${INDEX}/_search`;
  const rawFetch: Variant = async () => {
    const res = await fetch(searchUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: `{"query":{"term":{"tag":${JSON.stringify(TAG)}}}}`,
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
  ];
  for (const v of variants) await check(v.name, v.one);

  return {
    url,
    variants,
    async close() {
      await conn.close();
      await client.close();
      await server.close();
      engine.close();
    },
  };
}

function toRows(hits: { _id?: string; _source?: unknown }[]): Row[] {
  const rows: Row[] = [];
  for (const h of hits) rows.push({ _ID: h._id!, _DOC: JSON.stringify(h._source) });
  return rows;
}

async function load(url: string): Promise<void> {
  const put = await fetch(`${url}/${INDEX}`, {
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
  const bulk = await fetch(`${url}/_bulk?refresh=true`, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: lines.join("\n") + "\n",
  });
  const result = await bulk.json();
  if (!bulk.ok || result.errors) throw new Error(`bulk: HTTP ${bulk.status}`);
  const refresh = await fetch(`${url}/${INDEX}/_refresh`, { method: "POST" });
  await refresh.body?.cancel();
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

async function timeSequential(one: Variant, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await one();
  return n / ((performance.now() - start) / 1000);
}

async function timeConcurrent(one: Variant, rounds: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < rounds; i++) await sixteen(one);
  return (rounds * CONCURRENCY) / ((performance.now() - start) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs every variant in interleaved passes (so drift in the machine hits all alike) and prints
 * the median requests/s per variant and its ratio to raw fetch.
 */
async function report(): Promise<void> {
  const SEQUENTIAL = Number(Deno.env.get("E2E_SEQUENTIAL") ?? 4_000);
  const ROUNDS = Number(Deno.env.get("E2E_ROUNDS") ?? 400);
  const PASSES = Number(Deno.env.get("E2E_PASSES") ?? 10);
  const fixture = await startFixture();
  try {
    for (const v of fixture.variants) {
      await timeSequential(v.one, 300);
      await timeConcurrent(v.one, 30);
    }
    const seq = new Map<string, number[]>();
    const con = new Map<string, number[]>();
    const count = fixture.variants.length;
    const push = (m: Map<string, number[]>, name: string, rate: number) =>
      (m.get(name) ?? m.set(name, []).get(name)!).push(rate);
    for (let pass = 0; pass < PASSES; pass++) {
      // Each pass starts with a different variant, so no variant always runs first or last.
      for (let k = 0; k < count; k++) {
        const v = fixture.variants[(k + pass) % count]!;
        push(seq, v.name, await timeSequential(v.one, Math.ceil(SEQUENTIAL / PASSES)));
      }
      for (let k = 0; k < count; k++) {
        const v = fixture.variants[(k + pass) % count]!;
        push(con, v.name, await timeConcurrent(v.one, Math.ceil(ROUNDS / PASSES)));
      }
    }
    console.log(
      `End to end over loopback (${fixture.url}), POST /${INDEX}/_search term on a keyword ` +
        `field, ${DOCS / TAGS} hits; ${SEQUENTIAL} sequential and ${ROUNDS} × ${CONCURRENCY} ` +
        `concurrent requests per variant, median of ${PASSES} interleaved passes, after warm-up.`,
    );
    console.log(`Deno ${Deno.version.deno}, V8 ${Deno.version.v8}`);
    console.log("");
    table("one at a time", seq, fixture.variants.map((v) => v.name));
    console.log("");
    table(`${CONCURRENCY} at a time (Promise.all)`, con, fixture.variants.map((v) => v.name));
    if (Deno.env.get("E2E_STAGES") !== "0") await stages(fixture.url);
  } finally {
    await fixture.close();
  }
}

/**
 * Where the client's time goes: the same search built up layer by layer, each row adding one
 * layer of the driver, over loopback and then with `fetch` faked (client CPU alone).
 */
async function stages(url: string): Promise<void> {
  const body = `{"query":{"term":{"tag":${JSON.stringify(TAG)}}}}`;
  const text = await (await fetch(`${url}/${INDEX}/_search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  })).text();
  const fake: FetchFunction = () =>
    Promise.resolve(new Response(text, { headers: { "content-type": "application/json" } }));
  for (
    const [title, fetchFn, n] of [["over loopback", undefined, 300], [
      "fetch faked (client CPU only)",
      fake,
      3_000,
    ]] as const
  ) {
    const doFetch: FetchFunction = fetchFn ?? ((u, init) => fetch(u, init));
    const headers = { "content-type": "application/json", accept: "application/json" };
    const search = () => doFetch(`${url}/${INDEX}/_search`, { method: "POST", headers, body });
    const transport = new Transport({ nodes: [url], fetch: fetchFn });
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
        name: "same, fetch given an AbortSignal.timeout",
        one: async () => {
          const signal = AbortSignal.timeout(30_000);
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
    ];
    const times = new Map<string, number[]>();
    for (const v of ladder) await timeSequential(v.one, n / 2);
    for (let pass = 0; pass < 8; pass++) {
      for (let k = 0; k < ladder.length; k++) {
        const v = ladder[(k + pass) % ladder.length]!;
        const rate = await timeSequential(v.one, n);
        (times.get(v.name) ?? times.set(v.name, []).get(v.name)!).push(1e6 / rate);
      }
    }
    await conn.close();
    const base = median(times.get(ladder[0]!.name)!);
    const width = Math.max(...ladder.map((v) => v.name.length));
    console.log("");
    console.log(`Where the time goes, ${title}: µs per search, median of 8 passes × ${n}`);
    console.log(`${"".padEnd(width)}  ${"µs/req".padStart(9)}  ${"vs first".padStart(9)}`);
    for (const v of ladder) {
      const us = median(times.get(v.name)!);
      const delta = `${us >= base ? "+" : ""}${(us - base).toFixed(1)}`;
      console.log(`${v.name.padEnd(width)}  ${us.toFixed(1).padStart(9)}  ${delta.padStart(9)}`);
    }
  }
}

function table(title: string, results: Map<string, number[]>, names: string[]): void {
  const base = median(results.get(names[0]!)!);
  const width = Math.max(...names.map((n) => n.length), title.length);
  const head = ["req/s", "µs/req", "vs fetch", "spread"];
  console.log(`${title.padEnd(width)}  ${head.map((h) => h.padStart(9)).join("  ")}`);
  console.log(`${"-".repeat(width)}  ${head.map(() => "-".repeat(9)).join("  ")}`);
  for (const name of names) {
    const rates = results.get(name)!;
    const rate = median(rates);
    const cells = [
      rate.toFixed(0),
      (1e6 / rate).toFixed(1),
      `${(100 * rate / base).toFixed(1)}%`,
      `±${(50 * (Math.max(...rates) - Math.min(...rates)) / rate).toFixed(0)}%`,
    ];
    console.log(`${name.padEnd(width)}  ${cells.map((c) => c.padStart(9)).join("  ")}`);
  }
}

if (import.meta.main) {
  await report();
  Deno.exit(0);
}
