// Bulk loading: BulkWriter against the official client's helpers.bulk (npm:@elastic/elasticsearch,
// bench-only) on the same documents, same batch size (1 MB) and concurrency (2), against the
// embedded engine served in its own process over loopback:
//   deno bench -A --v8-flags=--expose-gc bench/bulk_bench.ts
// BULK_DOCS documents per run (default 100,000); each run logs docs/s and its peak heap growth.

import { Client } from "npm:@elastic/elasticsearch@8";
import { BulkWriter, DataSource } from "../driver/mod.ts";
import { startEngineProcess } from "./_engine_process.ts";

const DOCS = Number(Deno.env.get("BULK_DOCS") ?? 100_000);
const url = await startEngineProcess();

async function* documents(): AsyncGenerator<Record<string, unknown>> {
  for (let i = 0; i < DOCS; i++) {
    yield { n: i, name: `city number ${i}`, pop: (i * 7) % 100_000, tags: ["a", "b"] };
  }
}

const gc = (globalThis as { gc?: () => void }).gc;
async function measure(name: string, run: () => Promise<number>): Promise<void> {
  await fetch(`${url}/bulk_bench`, { method: "DELETE" }).then((r) => r.body?.cancel());
  gc?.();
  const base = Deno.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, Deno.memoryUsage().heapUsed);
  }, 5);
  const t0 = performance.now();
  const n = await run();
  const ms = performance.now() - t0;
  clearInterval(timer);
  console.log(
    `${name.padEnd(30)} ${n.toLocaleString("en")} docs  ${
      Math.round(n / ms * 1000).toLocaleString("en").padStart(8)
    } docs/s  peak heap +${((peak - base) / 1e6).toFixed(1)} MB`,
  );
}

const client = new Client({ node: url });
const conn = await new DataSource({ nodes: [url] }).getConnection();

Deno.bench("@elastic/elasticsearch helpers.bulk (baseline)", {
  group: "bulk",
  baseline: true,
  n: 1,
  warmup: 0,
}, async () => {
  await measure("helpers.bulk", async () => {
    const stats = await client.helpers.bulk({
      datasource: documents(),
      onDocument: () => ({ index: { _index: "bulk_bench" } }),
      flushBytes: 1_000_000,
      concurrency: 2,
      flushInterval: 1000,
    });
    return stats.successful;
  });
});

Deno.bench("BulkWriter", { group: "bulk", n: 1, warmup: 0 }, async () => {
  await measure("BulkWriter", async () => {
    const writer = new BulkWriter(conn, {
      index: "bulk_bench",
      flushDocs: 1_000_000,
      flushBytes: 1_000_000,
      concurrency: 2,
    });
    return (await writer.write(documents())).successful;
  });
});
