// Where the client's time goes on Node or Bun: the same `term` search (10 hits, rows built) with
// one layer added per row, from a bare fetch to JdbcTemplate, over loopback against the canned
// Elasticsearch-shaped server of bench/node_e2e_report.mjs (a child process), one at a time and
// 16 at a time; then the same ladder with `fetch` faked (a prepared Response: the client's CPU
// alone). Median of interleaved passes, wall and CPU µs per request, each row against the first.
// With ES_CLIENT the official client is the loopback ladder's last row, on the connection
// bench/node_e2e_report.mjs picks (undici, or HttpConnection where undici fails: Bun 1.4).
//
//   deno task build:npm
//   npx -y bun bench/runtime_stages.mjs
//   node bench/runtime_stages.mjs            FETCH=node: over contrib/fetch_node instead (with
//                                            the runtime's fetch as the first row, over loopback)
//
// PKG (default dist/npm), FETCH (builtin or node), N (requests per pass), N_PASSES, ES_CLIENT
// (the official client's index.js) and ES_CONNECTION (undici or http) set the run.

import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { officialClient } from "./node_e2e_report.mjs";

const pkg = process.env.PKG ?? fileURLToPath(new URL("../dist/npm", import.meta.url));
const { DataSource, Transport } = await import(`${pkg}/esm/driver/mod.js`);
const { JdbcTemplate } = await import(`${pkg}/esm/template/mod.js`);
const { nodeFetch } = await import(`${pkg}/esm/contrib/fetch_node.js`);
const N = Number(process.env.N ?? 1_600);
const PASSES = Number(process.env.N_PASSES ?? 8);
const viaNode = process.env.FETCH === "node";
const runtime = globalThis.Bun
  ? `Bun ${globalThis.Bun.version}`
  : `Node ${process.version} (V8 ${process.versions.v8})`;

const server = spawn(process.execPath, [
  fileURLToPath(new URL("./node_e2e_report.mjs", import.meta.url)),
  "--serve",
  "canned",
], { stdio: ["ignore", "pipe", "inherit"] });
process.on("exit", () => server.kill());
let banner = "";
for await (const chunk of server.stdout) {
  banner += chunk;
  if (banner.includes("\n")) break;
}
const url = banner.trim();
const searchUrl = `${url}/idx/_search`;
const body = '{"query":{"term":{"tag":"t7"}}}';
const headers = { "content-type": "application/json", accept: "application/json" };
const toRows = (hits) => hits.map((h) => ({ _ID: h._id, _DOC: JSON.stringify(h._source) }));
const nf = nodeFetch();
const network = viaNode ? nf : (u, init) => fetch(u, init);
const canned = await (await network(searchUrl, { method: "POST", headers, body })).text();
// deno-lint-ignore require-await
const faked = async () =>
  new Response(canned, {
    headers: { "content-type": "application/json", "content-length": String(canned.length) },
  });
// Read like the runtime's fetch (declared length trusted, no race against the signal), so the
// faked ladder costs the same driver path as the built-in fetch over loopback.
faked[Symbol.for("searchvisitor.networkFetch")] = true;
const official = await officialClient(
  url,
  (c) => c.search({ index: "idx", query: { term: { tag: "t7" } } }),
);

function ladder(doFetch, injected, baseline, client) {
  const options = { nodes: [url], ...(injected ? { fetch: doFetch } : {}) };
  const transport = new Transport(options);
  const ds = new DataSource(options);
  const jdbc = new JdbcTemplate(ds);
  let conn;
  const search = (signal) => doFetch(searchUrl, { method: "POST", headers, body, signal });
  return [
    // Over contrib/fetch_node, the runtime's own fetch first: the baseline a user compares with.
    ...(baseline
      ? [[
        "runtime's fetch + res.json() + rows",
        async () =>
          toRows(
            (await (await fetch(searchUrl, { method: "POST", headers, body })).json()).hits
              .hits,
          ),
      ]]
      : []),
    ["fetch + res.json() + rows", async () => toRows((await (await search()).json()).hits.hits)],
    [
      "fetch + text + JSON.parse + rows",
      async () => toRows(JSON.parse(await (await search()).text()).hits.hits),
    ],
    [
      "same, with an AbortSignal.timeout",
      async () =>
        toRows(JSON.parse(await (await search(AbortSignal.timeout(30_000))).text()).hits.hits),
    ],
    ["Transport.request + JSON.parse + rows", async () => {
      const res = await transport.request({ method: "POST", path: "/idx/_search", body });
      return toRows(JSON.parse(res.body).hits.hits);
    }],
    ["Statement.execute + rs.toArray()", async () => {
      const stmt = (conn ??= await ds.getConnection()).createStatement();
      await stmt.execute('POST /idx/_search {"query": {"term": {"tag": ?}}}', ["t7"]);
      return stmt.getResultSet().toArray();
    }],
    [
      "JdbcTemplate.queryForList",
      () =>
        jdbc.queryForList('POST /idx/_search {"query": {"term": {"tag": #{tag}}}}', {
          tag: "t7",
        }),
    ],
    ...(client
      ? [[
        client.name.replace(" client.search", "").replace("@elastic/elasticsearch", "official"),
        async () =>
          toRows(
            (await client.client.search({ index: "idx", query: { term: { tag: "t7" } } })).hits
              .hits,
          ),
      ]]
      : []),
  ];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
async function measure(title, rungs) {
  for (const [name, one] of rungs) {
    const rows = await one();
    if (rows.length !== 10) throw new Error(`${name}: expected 10 rows, got ${rows.length}`);
  }
  const wall = new Map();
  const cpu = new Map();
  const push = (m, k, x) => (m.get(k) ?? m.set(k, []).get(k)).push(x);
  for (let pass = -1; pass < PASSES; pass++) {
    for (const concurrency of [1, 16]) {
      for (let k = 0; k < rungs.length; k++) {
        const [name, one] = rungs[(k + Math.max(pass, 0)) % rungs.length];
        const start = performance.now();
        const used = process.cpuUsage();
        for (let i = 0; i < N / concurrency; i++) {
          await (concurrency === 1 ? one() : Promise.all(Array.from({ length: concurrency }, one)));
        }
        const { user, system } = process.cpuUsage(used);
        if (pass < 0) continue; // the first pass warms up
        push(wall, `${name} ${concurrency}`, (performance.now() - start) * 1000 / N);
        push(cpu, `${name} ${concurrency}`, (user + system) / N);
      }
    }
  }
  console.log(`\n${title}: µs per request, median of ${PASSES} interleaved passes × ${N}`);
  console.log(
    `${"".padEnd(40)} ${"1: wall".padStart(8)} ${"cpu".padStart(6)} ${"+cpu".padStart(6)}` +
      ` ${"16: wall".padStart(9)} ${"cpu".padStart(6)} ${"+cpu".padStart(6)}`,
  );
  for (const [name] of rungs) {
    let line = name.padEnd(40);
    for (const c of [1, 16]) {
      const w = median(wall.get(`${name} ${c}`));
      const u = median(cpu.get(`${name} ${c}`));
      const base = median(cpu.get(`${rungs[0][0]} ${c}`));
      line += ` ${w.toFixed(1).padStart(c === 1 ? 8 : 9)} ${u.toFixed(1).padStart(6)} ${
        (u - base >= 0 ? "+" : "") + (u - base).toFixed(1)
      }`.padEnd(c === 1 ? 23 : 24);
    }
    console.log(line);
  }
}

console.log(
  `${runtime}, canned server (child process), ${
    viaNode ? "contrib/fetch_node" : "the runtime's fetch"
  }`,
);
if (official) console.log(official.note);
await measure("over loopback", ladder(network, viaNode, viaNode, official));
await measure("fetch faked (the client's CPU alone)", ladder(faked, true));
nf.close();
await official?.client.close();
process.exit(0);
