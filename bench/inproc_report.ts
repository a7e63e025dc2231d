// JdbcTemplate on a canned in-process answer against the hand-written read of the same answer
// (issue 27's in-process figure), CPU of this process only, the baseline measured in the same run.
//   deno run -A bench/inproc_report.ts
// INPROC_ROUNDS (default 40) interleaved rounds of INPROC_READS (default 2,000) reads per variant;
// within a round the variants run in a rotating order and each one's CPU per read is divided by
// the baseline's of the same round; the figure is the median of those ratios. INPROC_VARIANTS
// (comma-separated names of the list below, the baseline always first) chooses the variants; by
// default the baseline, queryForList (the same value each read), the baseline and queryForList
// with a new value per read (the driver reuses a bind repeated with the same values; the
// hand-written read then builds its body per read), and query with an extractor. The others:
// the lambda's untyped queryForList (a builder made per read, or one builder made once), then the
// layers taken away from the top (the driver's first result of a text, the transport alone).
//
// The answer is the embedded engine's to the search of bench/e2e_report.ts (10 hits), captured
// once; `fetch` answers it from memory (bench/_canned.ts, the same response as the in-process
// ladder of bench/e2e_report.ts), marked in-process as the engine's `engine.fetch` is, so the
// time measured is the client's own. No network, no server.

import { DataSource, type FetchFunction, type ResultSet, Transport } from "../driver/mod.ts";
import { executeFirst } from "../driver/internal.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { LambdaTemplate } from "../lambda/mod.ts";
import { Engine } from "../engine/mod.ts";
import process from "node:process";
import { cannedFetch, cannedResponse } from "./_canned.ts";

type Row = { _ID: string; _DOC: string };
type Variant = { name: string; one: () => Promise<unknown> };

const INDEX = "idx";
const TAG = "t7";
const BODY = `{"query":{"term":{"tag":${JSON.stringify(TAG)}}}}`;
const ROUNDS = Number(Deno.env.get("INPROC_ROUNDS") ?? 40);
const READS = Number(Deno.env.get("INPROC_READS") ?? 2_000);

/** The engine's answer to the search over 1,000 documents, 10 of them tagged TAG. */
async function cannedAnswer(): Promise<string> {
  const engine = new Engine();
  const send = (path: string, init: RequestInit) =>
    engine.fetch(new Request("http://engine" + path, init));
  const json = { "content-type": "application/json" };
  const put = await send(`/${INDEX}`, {
    method: "PUT",
    headers: json,
    body: JSON.stringify({
      mappings: { properties: { tag: { type: "keyword" }, n: { type: "integer" } } },
    }),
  });
  await put.text();
  const lines: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    lines.push(JSON.stringify({ index: { _index: INDEX, _id: String(i) } }));
    lines.push(JSON.stringify({ tag: `t${i % 100}`, n: i, title: `document number ${i}` }));
  }
  const bulk = await send("/_bulk?refresh=true", {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: lines.join("\n") + "\n",
  });
  await bulk.text();
  const res = await send(`/${INDEX}/_search`, { method: "POST", headers: json, body: BODY });
  const text = await res.text();
  engine.close();
  return text;
}

function toRows(hits: { _id?: string; _source?: unknown }[]): Row[] {
  const rows: Row[] = [];
  for (const h of hits) rows.push({ _ID: h._id!, _DOC: JSON.stringify(h._source) });
  return rows;
}

async function main(): Promise<void> {
  const text = await cannedAnswer();
  const fetch = cannedFetch(text);
  const url = "http://es.local";
  const ds = new DataSource({ nodes: [url], fetch });
  const jdbc = new JdbcTemplate(ds);
  const conn = await ds.getConnection();
  const transport = new Transport({ nodes: [url], fetch });
  // The lambda reads the index's mapping once (for exact conditions): its own fetch answers that.
  const mapping = JSON.stringify({
    [INDEX]: { mappings: { properties: { tag: { type: "keyword" }, n: { type: "integer" } } } },
  });
  const lambdaFetch: FetchFunction = (u) =>
    Promise.resolve(cannedResponse(String(u).endsWith("/_mapping") ? mapping : text));
  Object.defineProperty(lambdaFetch, Symbol.for("searchvisitor.inProcessFetch"), { value: true });
  const lambda = new LambdaTemplate(new DataSource({ nodes: [url], fetch: lambdaFetch }));
  const oneBuilder = lambda.query(INDEX).eq("tag", TAG);
  const POSITIONAL = `POST /${INDEX}/_search {"query": {"term": {"tag": ?}}}`;
  const ARGS = [TAG];
  const TEMPLATE = `POST /${INDEX}/_search {"query": {"term": {"tag": #{tag}}}}`;
  const searchHeaders = { "content-type": "application/json", accept: "application/json" };
  let reads = 0;
  const all: Variant[] = [
    {
      name: "fetch + res.json() + rows",
      one: async () => {
        const res = await fetch(`${url}/${INDEX}/_search`, {
          method: "POST",
          headers: searchHeaders,
          body: BODY,
        });
        return toRows((await res.json()).hits.hits);
      },
    },
    { name: "queryForList", one: () => jdbc.queryForList(TEMPLATE, { tag: TAG }) },
    {
      // The baseline's body built per read with a value of its own, as hand-written code would.
      name: "fetch + res.json() + rows, a new value per read",
      one: async () => {
        const body = `{"query":{"term":{"tag":${
          JSON.stringify(TAG + ":" + (++reads % 1_000_000))
        }}}}`;
        const res = await fetch(`${url}/${INDEX}/_search`, {
          method: "POST",
          headers: searchHeaders,
          body,
        });
        return toRows((await res.json()).hits.hits);
      },
    },
    {
      // A value of its own per read (the canned answer is the same): no repeated bind is reused.
      name: "queryForList, a new value per read",
      one: () => jdbc.queryForList(TEMPLATE, { tag: TAG + ":" + (++reads % 1_000_000) }),
    },
    {
      name: "query + extractor toArray",
      one: () => jdbc.query(TEMPLATE, { tag: TAG }, { extractor: (rs) => rs.toArray() }),
    },
    {
      // Documents as maps ({_id, ...fields}), not {_ID, _DOC} rows: checked by its own shape.
      name: "lambda queryForList",
      one: () => lambda.query(INDEX).eq("tag", TAG).queryForList(),
    },
    {
      // The same read through one builder made once: its compiled command is kept and reused.
      name: "lambda queryForList (one builder)",
      one: () => oneBuilder.queryForList(),
    },
    {
      name: "executeFirst + toArray",
      one: async () => ((await executeFirst(conn, POSITIONAL, ARGS)) as ResultSet).toArray(),
    },
    {
      name: "Transport.request + JSON.parse + rows",
      one: async () => {
        const res = await transport.request({
          method: "POST",
          path: `/${INDEX}/_search`,
          body: BODY,
        });
        return toRows(JSON.parse(res.body).hits.hits);
      },
    },
  ];
  const wanted = Deno.env.get("INPROC_VARIANTS")?.split(",").map((s) => s.trim());
  const variants = all.filter((v, i) =>
    i === 0 || (wanted === undefined ? i < 5 : wanted.includes(v.name))
  );
  for (const v of variants) {
    const rows = await v.one() as Row[];
    const tags = rows.map((r) =>
      "_DOC" in r ? JSON.parse(r._DOC).tag : (r as { tag?: string }).tag
    );
    if (rows.length !== 10 || tags.some((tag) => tag !== TAG)) {
      throw new Error(`${v.name}: expected 10 rows tagged ${TAG}, got ${rows.length}`);
    }
    for (let i = 0; i < READS; i++) await v.one(); // warm-up
  }
  const ratios = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  const cpus = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  const load0 = Deno.loadavg()[0]!;
  for (let round = 0; round < ROUNDS; round++) {
    const cpu = new Map<string, number>();
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(k + round) % variants.length]!;
      const c0 = process.cpuUsage();
      for (let i = 0; i < READS; i++) await v.one();
      const c = process.cpuUsage(c0);
      cpu.set(v.name, (c.user + c.system) / READS);
    }
    const base = cpu.get(variants[0]!.name)!;
    for (const [name, c] of cpu) {
      ratios.get(name)!.push(c / base);
      cpus.get(name)!.push(c);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)]!;
  console.log(
    `Deno ${Deno.version.deno}, ${ROUNDS} rounds × ${READS} reads, load average ${
      load0.toFixed(2)
    } → ${Deno.loadavg()[0]!.toFixed(2)}`,
  );
  const width = Math.max(...variants.map((v) => v.name.length));
  console.log(
    `${"".padEnd(width)}  ${["CPU µs", "× baseline", "IQR"].map((h) => h.padStart(11)).join("  ")}`,
  );
  for (const v of variants) {
    const r = ratios.get(v.name)!;
    const cells = [
      median(cpus.get(v.name)!).toFixed(2),
      `${median(r).toFixed(3)}×`,
      `${q(r, 0.25).toFixed(2)}–${q(r, 0.75).toFixed(2)}`,
    ];
    console.log(`${v.name.padEnd(width)}  ${cells.map((c) => c.padStart(11)).join("  ")}`);
  }
}

if (import.meta.main) {
  await main();
  Deno.exit(0);
}
