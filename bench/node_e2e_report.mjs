// End to end on Node (or Bun) through the built npm package: the same `term` search as
// bench/e2e_report.ts (1,000 documents, ~10 hits, rows built by every variant), sent by Node's
// built-in fetch (the baseline), by node:http with a keep-alive agent written by hand (the
// limit), by JdbcTemplate over the built-in fetch, by JdbcTemplate over contrib/fetch_node, and
// by the official @elastic/elasticsearch client; one at a time and 16 at a time, median of
// interleaved passes.
//
//   deno task build:npm
//   mkdir -p /tmp/es && (cd /tmp/es && npm i --no-save @elastic/elasticsearch@8)
//   ES_CLIENT=/tmp/es/node_modules/@elastic/elasticsearch/index.js node bench/node_e2e_report.mjs
//   npx -y bun bench/node_e2e_report.mjs   (the official client's undici connection fails on Bun 1.4)
//
// PKG (default dist/npm) names the built package; without ES_CLIENT the official client is left
// out. N_SEQ, N_ROUNDS and N_PASSES set the sizes.

import http from "node:http";
import process from "node:process";
import { fileURLToPath } from "node:url";

const pkg = process.env.PKG ?? fileURLToPath(new URL("../dist/npm", import.meta.url));
const { DataSource } = await import(`${pkg}/esm/driver/mod.js`);
const { JdbcTemplate } = await import(`${pkg}/esm/template/mod.js`);
const { Engine, serve } = await import(`${pkg}/esm/engine/mod.js`);
const { nodeFetch } = await import(`${pkg}/esm/contrib/fetch_node.js`);
const official = process.env.ES_CLIENT ? await import(process.env.ES_CLIENT) : undefined;

const INDEX = "idx";
const DOCS = 1_000;
const TAG = "t7";
const CONCURRENCY = 16;
const SEQ = Number(process.env.N_SEQ ?? 2_000);
const ROUNDS = Number(process.env.N_ROUNDS ?? 200);
const PASSES = Number(process.env.N_PASSES ?? 8);

const engine = new Engine();
const server = await serve(engine, { port: 0 });
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

const body = `{"query":{"term":{"tag":${JSON.stringify(TAG)}}}}`;
const headers = { "content-type": "application/json", accept: "application/json" };
const toRows = (hits) => hits.map((h) => ({ _ID: h._id, _DOC: JSON.stringify(h._source) }));
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const searchUrl = new URL(`${url}/${INDEX}/_search`);
const TEMPLATE = `POST /${INDEX}/_search {"query": {"term": {"tag": #{tag}}}}`;
const nf = nodeFetch();
const viaFetch = new JdbcTemplate(new DataSource({ nodes: [url] }));
const viaNode = new JdbcTemplate(new DataSource({ nodes: [url], fetch: nf }));
const client = official ? new official.Client({ node: url }) : undefined;

const variants = [
  {
    name: "built-in fetch + res.json() + rows",
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
    name: "JdbcTemplate, built-in fetch",
    one: () => viaFetch.queryForList(TEMPLATE, { tag: TAG }),
  },
  {
    name: "JdbcTemplate, contrib/fetch_node",
    one: () => viaNode.queryForList(TEMPLATE, { tag: TAG }),
  },
];
if (client) {
  variants.push({
    name: "@elastic/elasticsearch@8 client.search",
    one: async () =>
      toRows((await client.search({ index: INDEX, query: { term: { tag: TAG } } })).hits.hits),
  });
}
for (const v of variants) {
  const rows = await v.one();
  if (rows.length !== 10 || rows.some((r) => JSON.parse(r._DOC).tag !== TAG)) {
    throw new Error(`${v.name}: expected 10 rows with tag ${TAG}`);
  }
}

const sixteen = (one) => Promise.all(Array.from({ length: CONCURRENCY }, one));
async function perRequestUs(one, n, concurrent) {
  const start = performance.now();
  for (let i = 0; i < n; i++) await (concurrent ? sixteen(one) : one());
  return (performance.now() - start) * 1000 / (n * (concurrent ? CONCURRENCY : 1));
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (const v of variants) {
  await perRequestUs(v.one, 300, false);
  await perRequestUs(v.one, 30, true);
}
const seq = new Map();
const con = new Map();
const push = (m, k, x) => (m.get(k) ?? m.set(k, []).get(k)).push(x);
for (let pass = 0; pass < PASSES; pass++) {
  for (let k = 0; k < variants.length; k++) {
    const v = variants[(k + pass) % variants.length];
    push(seq, v.name, await perRequestUs(v.one, Math.ceil(SEQ / PASSES), false));
    push(con, v.name, await perRequestUs(v.one, Math.ceil(ROUNDS / PASSES), true));
  }
}

const runtime = globalThis.Bun ? `Bun ${globalThis.Bun.version}` : `Node ${process.version}`;
console.log(
  `${runtime}: POST /${INDEX}/_search term, 10 hits, loopback; ${SEQ} sequential and ` +
    `${ROUNDS} × ${CONCURRENCY} concurrent requests per variant, median of ${PASSES} interleaved passes`,
);
for (const [title, m] of [["one at a time", seq], [`${CONCURRENCY} at a time`, con]]) {
  const base = median(m.get(variants[0].name));
  const ref = client ? median(m.get(variants[4].name)) : undefined;
  console.log(
    `\n${title.padEnd(42)} ${"µs/req".padStart(8)} ${"vs fetch".padStart(9)} ${
      ref ? "vs official".padStart(12) : ""
    }`,
  );
  for (const v of variants) {
    const us = median(m.get(v.name));
    console.log(
      `${v.name.padEnd(42)} ${us.toFixed(0).padStart(8)} ${(base / us).toFixed(2).padStart(8)}×` +
        (ref ? ` ${(ref / us).toFixed(2).padStart(11)}×` : ""),
    );
  }
}

nf.close();
agent.destroy();
await client?.close();
await server.close();
engine.close();
process.exit(0);
