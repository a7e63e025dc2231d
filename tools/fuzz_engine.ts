// `deno task fuzz:engine [-- --requests N --seed S --budget MS]`: fuzzes the in-memory engine with
// requests generated from its route table and mutated from the conformance suite's bodies (when
// ../shared/conformance or CONFORMANCE_DIR is there). Prints the figures; exits 1 on any 5xx,
// hang or crash.

import { runFuzz } from "../tests/support/engine_fuzz.ts";

function flag(name: string, fallback: number): number {
  const at = Deno.args.indexOf(name);
  const v = at >= 0 ? Number(Deno.args[at + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}

if (import.meta.main) {
  const requests = flag("--requests", 20_000);
  const seed = flag("--seed", 1);
  const budgetMs = flag("--budget", 5000);
  const root = new URL("../../", import.meta.url).pathname;
  const corpusDir = `${Deno.env.get("CONFORMANCE_DIR") ?? `${root}shared/conformance`}/opensearch`;
  const report = await runFuzz({
    requests,
    seed,
    budgetMs,
    corpusDir,
    finding: (s) => console.log(`finding: ${s.kind}: ${s.request}\n  -> ${s.answer ?? ""}`),
    progress: (done, r) =>
      console.log(
        `${done} requests, ${r.serverErrors} 5xx, ${r.hangs} hangs, ${r.crashes} crashes, peak heap ${
          (r.peakHeapBytes / 2 ** 20).toFixed(0)
        } MiB, ${(done / (r.millis / 1000)).toFixed(0)} req/s`,
      ),
  });
  console.log(JSON.stringify({ ...report, samples: report.samples.length }));
  console.log(
    `fuzz: ${report.requests} requests (seed ${seed}, ${report.corpusBodies} corpus bodies): ${report.serverErrors} 5xx, ${report.hangs} hangs (${report.waits} requests waiting on a live engine), ${report.crashes} crashes, peak heap ${
      (report.peakHeapBytes / 2 ** 20).toFixed(1)
    } MiB, ${(report.millis / 1000).toFixed(1)} s`,
  );
  Deno.exit(report.serverErrors + report.hangs + report.crashes === 0 ? 0 : 1);
}
