// `deno task fuzz:engine [-- --requests N --seed S --budget MS --hostile SHARE --max-heap MIB]`:
// fuzzes the in-memory engine with requests generated from its route table, mutated from the
// conformance suite's bodies (when ../shared/conformance or CONFORMANCE_DIR is there) and drawn
// from the hostile corpus (tests/support/engine_fuzz_hostile.ts: dot segments, filter_path,
// many ranges, highlight and phrase parameters, deep nesting, bulk sizes; a quarter of the
// requests by default). Every request must answer within the budget (5 s). The task runs with a
// 1 GiB heap, from which the engine sizes its indexing pressure. Prints the figures; exits 1 on
// any 5xx, hang, crash, escaped path or heap past the bound.

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
  const hostile = flag("--hostile", 0.25);
  const maxHeapBytes = flag("--max-heap", 900) * 2 ** 20;
  const root = new URL("../../", import.meta.url).pathname;
  const corpusDir = `${Deno.env.get("CONFORMANCE_DIR") ?? `${root}shared/conformance`}/opensearch`;
  const report = await runFuzz({
    requests,
    seed,
    budgetMs,
    corpusDir,
    hostile,
    maxHeapBytes,
    finding: (s) => console.log(`finding: ${s.kind}: ${s.request}\n  -> ${s.answer ?? ""}`),
    progress: (done, r) =>
      console.log(
        `${done} requests, ${r.serverErrors} 5xx, ${r.hangs} hangs, ${r.crashes} crashes, peak heap ${
          (r.peakHeapBytes / 2 ** 20).toFixed(0)
        } MiB, ${(done / (r.millis / 1000)).toFixed(0)} req/s`,
      ),
  });
  console.log(JSON.stringify({ ...report, samples: report.samples.length }));
  for (const [shape, figures] of Object.entries(report.shapes)) {
    console.log(
      `  ${shape}: ${figures.requests} requests, slowest ${figures.slowestMs.toFixed(0)} ms`,
    );
  }
  console.log(
    `fuzz: ${report.requests} requests (seed ${seed}, ${report.corpusBodies} corpus bodies, ${
      Object.values(report.shapes).reduce((n, s) => n + s.requests, 0)
    } hostile): ${report.serverErrors} 5xx, ${report.hangs} hangs (${report.waits} requests waiting on a live engine), ${report.crashes} crashes, ${report.escapes} escaped paths, peak heap ${
      (report.peakHeapBytes / 2 ** 20).toFixed(1)
    } MiB (${report.heapOverruns} past the bound), slowest answer ${
      report.slowestMs.toFixed(0)
    } ms, ${(report.millis / 1000).toFixed(1)} s`,
  );
  const bad = report.serverErrors + report.hangs + report.crashes + report.escapes +
    report.heapOverruns;
  Deno.exit(bad === 0 ? 0 : 1);
}
