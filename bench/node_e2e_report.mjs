// End to end on Node (or Bun) through the built npm package: the same `term` search (10 hits,
// `{_ID, _DOC}` rows built by every variant) sent by the runtime's built-in fetch (the baseline),
// by node:http with a keep-alive agent written by hand (the limit), by contrib/fetch_node alone,
// by JdbcTemplate over the built-in fetch and over contrib/fetch_node, and by the official
// @elastic/elasticsearch client; one at a time and 16 at a time, median of interleaved passes.
// The official client runs on its default connection (undici) where that works; on Bun 1.4,
// where undici's fails, on its `HttpConnection` (node:http), and the output says which.
//
// The server runs in a child process of the same runtime, so the figures are the client's:
//   canned   a fixed Elasticsearch-shaped answer (the client's cost dominates)
//   engine   the embedded engine served by `serve`, 1,000 documents
// Each table gives the wall time per request and this process's CPU time per request, with
// ratios against the built-in fetch and the official client measured in the same passes.
//
//   deno task build:npm
//   mkdir -p /tmp/es && (cd /tmp/es && npm i --no-save @elastic/elasticsearch@8)
//   ES_CLIENT=/tmp/es/node_modules/@elastic/elasticsearch/index.js node bench/node_e2e_report.mjs
//   ES_CLIENT=... npx -y node@22 bench/node_e2e_report.mjs
//   ES_CLIENT=... npx -y bun bench/node_e2e_report.mjs
//
// SERVER (canned, engine or both; default both), PKG (default dist/npm), ES_CLIENT (without it
// the official client is left out), ES_CONNECTION (undici or http: that connection of the
// official client only, e.g. HttpConnection on Node to compare with Bun), N_SEQ, N_ROUNDS,
// N_PASSES set the run; ONLY (a regular expression over the variant names) keeps some variants,
// e.g. for `node --cpu-prof`.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import process from "node:process";
import { fileURLToPath } from "node:url";

const pkg = process.env.PKG ?? fileURLToPath(new URL("../dist/npm", import.meta.url));
const INDEX = "idx";
const DOCS = 1_000;
const TAG = "t7";
const CONCURRENCY = 16;
const BASELINE = "built-in fetch + res.json() + rows";
const RAW_NODE = "contrib/fetch_node + res.json() + rows";
const VIA_NODE = "JdbcTemplate, contrib/fetch_node";
/** Each JdbcTemplate row against the same transport's raw fetch (the "vs raw" column). */
const RAW_OF = new Map([["JdbcTemplate, built-in fetch", BASELINE], [VIA_NODE, RAW_NODE]]);

// Run as a script (bench/runtime_stages.mjs imports `officialClient` from here).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--serve") await serveChild(process.argv[3]);
  else await main();
}

/**
 * The official client (the package at the path `ES_CLIENT`) on `url`, checked with `probe` (a
 * search it must answer): on its default connection (undici), or where that fails (Bun 1.4:
 * `response.headers` of undefined) on its `HttpConnection` (node:http). `ES_CONNECTION`
 * (`undici`, `http`) asks for one of the two only. Resolves to the client, the variant's name
 * (with the connection) and a line saying what was chosen and why; undefined without ES_CLIENT.
 */
export async function officialClient(url, probe) {
  const path = process.env.ES_CLIENT;
  if (!path) return undefined;
  const es = await import(path);
  let version = "8";
  try {
    version = JSON.parse(readFileSync(new URL("package.json", new URL(path, "file:///")), "utf8"))
      .version;
  } catch { /* the major version of the name is enough */ }
  const asked = process.env.ES_CONNECTION;
  const choices = [
    ["UndiciConnection", undefined],
    ["HttpConnection", es.HttpConnection],
  ].filter(([name]) => !asked || name.toLowerCase().startsWith(asked.toLowerCase()));
  if (choices.length === 0) throw new Error(`ES_CONNECTION=${asked}: undici or http`);
  const failed = [];
  for (const [name, Connection] of choices) {
    const client = new es.Client({ node: url, ...(Connection ? { Connection } : {}) });
    try {
      await probe(client);
    } catch (error) {
      failed.push(`${name} failed: ${error?.message ?? error}`);
      // A client whose connection failed may fail to close too (undici's on Bun).
      await Promise.resolve().then(() => client.close()).catch(() => {});
      continue;
    }
    return {
      client,
      name: `@elastic/elasticsearch@8 ${name === "HttpConnection" ? "(http) " : ""}client.search`,
      note: `official client: @elastic/elasticsearch ${version} on its ${name}` +
        (Connection ? " (node:http)" : " (undici, its default)") +
        (failed.length ? `; ${failed.join("; ")}` : asked ? ", as ES_CONNECTION asks" : ""),
    };
  }
  throw new Error(`the official client answers on no connection: ${failed.join("; ")}`);
}

/** The child: serves the canned answer or the engine on a free port, prints its URL. */
async function serveChild(kind) {
  if (kind === "canned") {
    const hits = Array.from({ length: 10 }, (_, i) => {
      const n = 7 + i * 100;
      return {
        _index: INDEX,
        _id: String(n),
        _score: 4.6051702,
        _source: { tag: TAG, n, title: `document number ${n}` },
      };
    });
    const answer = Buffer.from(JSON.stringify({
      took: 1,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: { total: { value: 10, relation: "eq" }, max_score: 4.6051702, hits },
    }));
    const headers = {
      "content-type": "application/json",
      "content-length": answer.length,
      "x-elastic-product": "Elasticsearch",
    };
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, headers);
        res.end(answer);
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    console.log(`http://127.0.0.1:${server.address().port}`);
    return;
  }
  const { Engine, serve } = await import(`${pkg}/esm/engine/mod.js`);
  const server = await serve(new Engine(), { port: 0 });
  const url = server.url;
  await fetch(`${url}/${INDEX}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      mappings: { properties: { tag: { type: "keyword" }, n: { type: "integer" } } },
    }),
  }).then((r) => r.text());
  const lines = [];
  for (let i = 0; i < DOCS; i++) {
    lines.push(JSON.stringify({ index: { _index: INDEX, _id: String(i) } }));
    lines.push(JSON.stringify({ tag: `t${i % 100}`, n: i, title: `document number ${i}` }));
  }
  await fetch(`${url}/_bulk?refresh=true`, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: lines.join("\n") + "\n",
  }).then((r) => r.text());
  console.log(url);
}

/** Starts a server child and resolves to its URL; the child ends with this process. */
async function startServer(kind) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--serve", kind], {
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env,
  });
  process.on("exit", () => child.kill());
  let out = "";
  for await (const chunk of child.stdout) {
    out += chunk;
    if (out.includes("\n")) break;
  }
  const url = /http:\/\/\S+/.exec(out)?.[0];
  if (!url) throw new Error(`the ${kind} server did not start: ${out}`);
  return { url, stop: () => child.kill() };
}

async function main() {
  const { DataSource } = await import(`${pkg}/esm/driver/mod.js`);
  const { JdbcTemplate } = await import(`${pkg}/esm/template/mod.js`);
  const { nodeFetch } = await import(`${pkg}/esm/contrib/fetch_node.js`);
  const SEQ = Number(process.env.N_SEQ ?? 4_000);
  const ROUNDS = Number(process.env.N_ROUNDS ?? 600);
  const PASSES = Number(process.env.N_PASSES ?? 8);
  const only = process.env.ONLY ? new RegExp(process.env.ONLY) : undefined;
  const kinds = (process.env.SERVER ?? "both") === "both"
    ? ["canned", "engine"]
    : [process.env.SERVER];
  const runtime = globalThis.Bun
    ? `Bun ${globalThis.Bun.version}`
    : `Node ${process.version} (V8 ${process.versions.v8})`;

  for (const kind of kinds) {
    const server = await startServer(kind);
    const url = server.url;
    const body = `{"query":{"term":{"tag":${JSON.stringify(TAG)}}}}`;
    const headers = { "content-type": "application/json", accept: "application/json" };
    const toRows = (hits) => hits.map((h) => ({ _ID: h._id, _DOC: JSON.stringify(h._source) }));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const searchUrl = `${url}/${INDEX}/_search`;
    const TEMPLATE = `POST /${INDEX}/_search {"query": {"term": {"tag": #{tag}}}}`;
    const nf = nodeFetch();
    const nfNet = globalThis.Bun ? nodeFetch({ bunSockets: false }) : undefined;
    const viaFetch = new JdbcTemplate(new DataSource({ nodes: [url] }));
    const viaNode = new JdbcTemplate(new DataSource({ nodes: [url], fetch: nf }));
    const official = await officialClient(
      url,
      (c) => c.search({ index: INDEX, query: { term: { tag: TAG } } }),
    );
    const client = official?.client;

    let variants = [
      {
        name: BASELINE,
        one: async () => {
          const res = await fetch(searchUrl, { method: "POST", headers, body });
          return toRows((await res.json()).hits.hits);
        },
      },
      {
        name: "node:http keep-alive by hand + rows",
        one: () =>
          new Promise((resolve, reject) => {
            const req = http.request(searchUrl, { method: "POST", headers, agent }, (res) => {
              const chunks = [];
              res.on("data", (c) => chunks.push(c));
              res.on("end", () => {
                try {
                  resolve(toRows(JSON.parse(Buffer.concat(chunks).toString()).hits.hits));
                } catch (e) {
                  reject(e);
                }
              });
              res.on("error", reject);
            });
            req.on("error", reject);
            req.end(body);
          }),
      },
      {
        name: RAW_NODE,
        one: async () => {
          const res = await nf(searchUrl, { method: "POST", headers, body });
          return toRows((await res.json()).hits.hits);
        },
      },
      // On Bun contrib/fetch_node uses Bun's own sockets; this is the same over Bun's node:net.
      ...(nfNet
        ? [{
          name: "contrib/fetch_node on node:net + json + rows",
          one: async () => {
            const res = await nfNet(searchUrl, { method: "POST", headers, body });
            return toRows((await res.json()).hits.hits);
          },
        }]
        : []),
      {
        name: "JdbcTemplate, built-in fetch",
        one: () => viaFetch.queryForList(TEMPLATE, { tag: TAG }),
      },
      {
        name: VIA_NODE,
        one: () => viaNode.queryForList(TEMPLATE, { tag: TAG }),
      },
    ];
    if (client) {
      variants.push({
        name: official.name,
        one: async () =>
          toRows((await client.search({ index: INDEX, query: { term: { tag: TAG } } })).hits.hits),
      });
    }
    const officialName = client ? variants.at(-1).name : undefined;
    if (only) variants = variants.filter((v) => only.test(v.name));
    for (const v of variants) {
      const rows = await v.one();
      if (rows.length !== 10 || rows.some((r) => JSON.parse(r._DOC).tag !== TAG)) {
        throw new Error(`${v.name}: expected 10 rows with tag ${TAG}`);
      }
    }

    const push = (m, k, x) => (m.get(k) ?? m.set(k, []).get(k)).push(x);
    const sixteen = (one) => Promise.all(Array.from({ length: CONCURRENCY }, one));
    // Wall time per request, and this process's CPU time per request (user + system): under a
    // loaded machine the second shows the client's own cost more steadily.
    const cpu = new Map();
    const perRequestUs = async (one, n, concurrent, name) => {
      const start = performance.now();
      const used = process.cpuUsage();
      for (let i = 0; i < n; i++) await (concurrent ? sixteen(one) : one());
      const requests = n * (concurrent ? CONCURRENCY : 1);
      const { user, system } = process.cpuUsage(used);
      if (name) push(cpu, `${name} ${concurrent}`, (user + system) / requests);
      return (performance.now() - start) * 1000 / requests;
    };
    for (const v of variants) {
      await perRequestUs(v.one, 300, false);
      await perRequestUs(v.one, 30, true);
    }
    const seq = new Map();
    const con = new Map();
    for (let pass = 0; pass < PASSES; pass++) {
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(k + pass) % variants.length];
        push(seq, v.name, await perRequestUs(v.one, Math.ceil(SEQ / PASSES), false, v.name));
        push(con, v.name, await perRequestUs(v.one, Math.ceil(ROUNDS / PASSES), true, v.name));
      }
    }

    console.log(
      `\n${runtime}, ${kind} server (child process): POST /${INDEX}/_search term, 10 hits, ` +
        `loopback; ${SEQ} sequential and ${ROUNDS} × ${CONCURRENCY} concurrent requests per ` +
        `variant, median of ${PASSES} interleaved passes`,
    );
    if (official) console.log(official.note);
    for (
      const [title, m, concurrent] of [["one at a time", seq, false], [
        `${CONCURRENCY} at a time`,
        con,
        true,
      ]]
    ) {
      const base = m.has(BASELINE) ? median(m.get(BASELINE)) : undefined;
      const ref = m.has(officialName) ? median(m.get(officialName)) : undefined;
      const refCpu = ref ? median(cpu.get(`${officialName} ${concurrent}`)) : undefined;
      const baseCpu = base ? median(cpu.get(`${BASELINE} ${concurrent}`)) : undefined;
      console.log(
        `\n${title.padEnd(46)} ${"µs/req".padStart(7)}${base ? " vs fetch" : ""}${
          ref ? " vs official" : ""
        }  vs raw ${"cpu µs".padStart(7)}${base ? " cpu × fetch" : ""}${
          ref ? " cpu vs official" : ""
        }`,
      );
      for (const v of variants) {
        const us = median(m.get(v.name));
        const cpuUs = median(cpu.get(`${v.name} ${concurrent}`));
        const raw = RAW_OF.get(v.name);
        const rawUs = raw && m.has(raw) ? median(m.get(raw)) : undefined;
        console.log(
          `${v.name.padEnd(46)} ${us.toFixed(0).padStart(7)}` +
            (base ? ` ${(base / us).toFixed(2).padStart(7)}×` : "") +
            (ref ? ` ${(ref / us).toFixed(2).padStart(10)}×` : "") +
            (rawUs ? ` ${(rawUs / us).toFixed(2).padStart(6)}×` : "".padStart(8)) +
            ` ${cpuUs.toFixed(0).padStart(7)}` +
            (base ? ` ${(cpuUs / baseCpu).toFixed(2).padStart(10)}×` : "") +
            (ref ? ` ${(refCpu / cpuUs).toFixed(2).padStart(14)}×` : ""),
        );
      }
    }
    // The row to read: JdbcTemplate on the transport recommended for this runtime
    // (contrib/fetch_node on Node and on Bun), against both baselines.
    if (seq.has(VIA_NODE)) {
      const ratio = (m, of) => m.has(of) ? (median(m.get(of)) / median(m.get(VIA_NODE))) : NaN;
      const f = (x) => Number.isNaN(x) ? "–" : x.toFixed(2);
      console.log(
        `\nrecommended on ${runtime.split(" (")[0]}: ${VIA_NODE}, 1 / ${CONCURRENCY} in flight, ` +
          `wall: vs built-in fetch ${f(ratio(seq, BASELINE))} / ${f(ratio(con, BASELINE))}, ` +
          `vs raw contrib/fetch_node ${f(ratio(seq, RAW_NODE))} / ${f(ratio(con, RAW_NODE))}` +
          (officialName
            ? `, vs the official client ${f(ratio(seq, officialName))}× / ${
              f(ratio(con, officialName))
            }×`
            : ""),
      );
    }

    nf.close();
    nfNet?.close();
    agent.destroy();
    await client?.close();
    server.stop();
  }
  process.exit(0);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
