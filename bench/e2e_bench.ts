// End-to-end benchmarks over loopback, each group with raw fetch as its baseline:
//   deno bench -A bench/e2e_bench.ts
// A canned Elasticsearch-shaped server on a free 127.0.0.1 port answers with the embedded
// engine's real answer (1,000 documents; E2E_SERVER=engine serves the engine itself); every
// variant sends the same `term` search (10 hits) and builds `{_ID, _DOC}` rows. Target:
// JdbcTemplate at ≥ 95% of raw fetch, one at a time and 16 at a time, ahead of
// @elastic/elasticsearch. For paired interleaved rounds with CPU time per request and the
// layer-by-layer breakdown: deno run -A bench/e2e_report.ts

import { CONCURRENCY, sixteen, startFixture } from "./e2e_report.ts";

const fixture = await startFixture();
globalThis.addEventListener("unload", () => {
  // Best effort: the process is ending; close() stops the server and the clients' sockets.
  void fixture.close();
});

// Warm the engine and every client first: Deno.bench runs the group's benchmarks one after the
// other, and without this the first (the baseline) would also pay for the engine's warm-up.
for (const v of fixture.variants) {
  for (let i = 0; i < 500; i++) await v.one();
  for (let i = 0; i < 30; i++) await sixteen(v.one);
}

for (const [i, v] of fixture.variants.entries()) {
  Deno.bench(v.name, { group: "e2e one at a time", baseline: i === 0 }, async () => {
    await v.one();
  });
}

for (const [i, v] of fixture.variants.entries()) {
  Deno.bench(
    `${v.name} ×${CONCURRENCY}`,
    { group: `e2e ${CONCURRENCY} at a time`, baseline: i === 0 },
    async () => {
      await sixteen(v.one);
    },
  );
}
