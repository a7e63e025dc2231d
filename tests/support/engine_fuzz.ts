// Fuzzing the engine: requests generated from its route table (every API, its path parts and its
// parameters) and mutated from the conformance suite's request bodies, each run under a time
// budget in a worker whose heap is watched. A 5xx, a hang (no answer within the budget) or a
// crash (the worker dies) is a finding.

import { type FuzzRequest, generate, loadCorpus, Rng } from "./engine_fuzz_gen.ts";
import { hostile, type HostileRequest, hostileSeed } from "./engine_fuzz_hostile.ts";

export type { FuzzRequest };

/** What a run found. */
export interface FuzzReport {
  requests: number;
  statuses: Record<string, number>;
  serverErrors: number;
  /** Requests that got no answer in time from an engine that had frozen. */
  hangs: number;
  /** Requests still waiting while the engine kept answering others (not a hang). */
  waits: number;
  crashes: number;
  peakHeapBytes: number;
  /** Hostile requests whose check failed afterwards (a path that reached another index). */
  escapes: number;
  /** Answers after which the engine's heap passed `maxHeapBytes`. */
  heapOverruns: number;
  /** The slowest answer, in ms. */
  slowestMs: number;
  /** Per hostile shape: requests sent and the slowest answer. */
  shapes: Record<string, { requests: number; slowestMs: number }>;
  samples: Array<{ kind: string; status?: number; request: string; answer?: string }>;
  corpusBodies: number;
  millis: number;
}

/** Options of {@link runFuzz}. */
export interface FuzzOptions {
  requests: number;
  seed?: number;
  /** Time budget per request (a slower answer is a hang). */
  budgetMs?: number;
  /** The conformance suite folder (`…/opensearch`), for the corpus; skipped when absent. */
  corpusDir?: string;
  /** Requests between fresh engines (and fresh seed data). */
  epoch?: number;
  /** Progress callback, every 10,000 requests. */
  progress?: (done: number, report: FuzzReport) => void;
  /** Share of requests drawn from the hostile corpus (0 by default). */
  hostile?: number;
  /** Words of the long hostile document (100,000 by default). */
  hostileWords?: number;
  /** Scales the hostile sizes (ranges, bulk documents): 1 by default, less for a short pass. */
  hostileScale?: number;
  /** The heap the engine is told it has (its own isolate's by default): sizes indexing pressure. */
  engineHeapBytes?: number;
  /** A heap past this after an answer is a finding (none by default). */
  maxHeapBytes?: number;
  /** Called with each finding as it happens. */
  finding?: (sample: FuzzReport["samples"][number]) => void;
}

const SEED_DATA: FuzzRequest[] = (() => {
  const json = { "content-type": "application/json" };
  const docs: string[] = [];
  for (let i = 0; i < 30; i++) {
    docs.push(JSON.stringify({ index: { _index: i % 2 ? "idx" : "other", _id: String(i) } }));
    docs.push(JSON.stringify({ n: i, d: i * 86_400_000, k: `k${i % 7}`, t: `word${i % 5} fox` }));
  }
  return [
    {
      method: "PUT",
      path: "/idx",
      headers: json,
      body: JSON.stringify({
        mappings: {
          properties: {
            n: { type: "long" },
            d: { type: "date" },
            k: { type: "keyword" },
            t: { type: "text", fields: { keyword: { type: "keyword" } } },
            items: { type: "nested" },
          },
        },
      }),
    },
    {
      method: "POST",
      path: "/_bulk?refresh=true",
      headers: { "content-type": "application/x-ndjson" },
      body: docs.join("\n") + "\n",
    },
  ];
})();

function describe(r: FuzzRequest): string {
  const body = typeof r.body === "string" ? r.body.slice(0, 300) : r.body ? "<bytes>" : "";
  return `${r.method} ${r.path.slice(0, 200)} [${r.headers["content-type"]}] ${body}`;
}

/** Runs the fuzzer. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const rng = new Rng(options.seed ?? 1);
  const budget = options.budgetMs ?? 5000;
  const epoch = options.epoch ?? 2000;
  const corpus = options.corpusDir
    ? await loadCorpus(options.corpusDir)
    : { calls: [], specs: new Map() };
  const report: FuzzReport = {
    requests: 0,
    statuses: {},
    serverErrors: 0,
    hangs: 0,
    waits: 0,
    crashes: 0,
    peakHeapBytes: 0,
    escapes: 0,
    heapOverruns: 0,
    slowestMs: 0,
    shapes: {},
    samples: [],
    corpusBodies: corpus.calls.filter((c) => c.body !== undefined).length,
    millis: 0,
  };
  const workerUrl = new URL("./engine_fuzz_worker.ts", import.meta.url);
  let worker = new Worker(workerUrl, { type: "module" });
  type Answer = { id: number; status: number; head: string; heap: number; log?: string[] };
  let crashed: ((e: unknown) => void) | null = null;
  const pending = new Map<number, (m: Answer) => void>();
  const wire = () => {
    worker.onmessage = (e) => pending.get(e.data.id)?.(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      crashed?.(e);
    };
  };
  wire();
  let id = 0;
  const send = (r: FuzzRequest | { reset: true }, limit = budget) =>
    new Promise<Answer | "hang" | "crash">(
      (resolve) => {
        const jobId = id + 1;
        const timer = setTimeout(() => {
          pending.delete(jobId);
          resolve("hang");
        }, limit);
        pending.set(jobId, (m) => {
          pending.delete(jobId);
          clearTimeout(timer);
          resolve(m);
        });
        crashed = () => {
          clearTimeout(timer);
          resolve("crash");
        };
        const job = "reset" in r
          ? {
            id: ++id,
            reset: true,
            heapBytes: options.engineHeapBytes,
            method: "GET",
            url: "http://engine/",
            headers: {},
          }
          : {
            id: ++id,
            method: r.method,
            url: `http://engine${r.path}`,
            headers: r.headers,
            body: r.body,
          };
        worker.postMessage(job);
      },
    );
  const restart = () => {
    worker.terminate();
    worker = new Worker(workerUrl, { type: "module" });
    wire();
  };
  const hostileShare = options.hostile ?? 0;
  const seedData = hostileShare > 0
    ? [...SEED_DATA, ...hostileSeed(options.hostileWords)]
    : SEED_DATA;
  const seedEngine = async () => {
    await send({ reset: true });
    for (const r of seedData) await send(r, Math.max(budget, 60_000));
  };
  const note = (sample: FuzzReport["samples"][number]) => {
    options.finding?.(sample);
    if (report.samples.length < 50) report.samples.push(sample);
  };
  await seedEngine();
  for (let i = 0; i < options.requests; i++) {
    if (i > 0 && i % epoch === 0) await seedEngine();
    let request: FuzzRequest;
    let shaped: HostileRequest | undefined;
    try {
      shaped = rng.chance(hostileShare) ? hostile(rng, options.hostileScale) : undefined;
      request = shaped ?? generate(rng, corpus);
    } catch {
      continue;
    }
    const sentAt = performance.now();
    const answer = await send(request);
    const tookMs = performance.now() - sentAt;
    report.requests++;
    report.slowestMs = Math.max(report.slowestMs, tookMs);
    if (shaped) {
      const shape = report.shapes[shaped.shape] ??= { requests: 0, slowestMs: 0 };
      shape.requests++;
      shape.slowestMs = Math.max(shape.slowestMs, tookMs);
    }
    // A hostile request waits for nothing: past the budget it is a hang.
    if (answer === "hang" && !shaped && (await send({ reset: true }, budget)) !== "hang") {
      // The engine still answers: this request waits for something that never comes (as
      // `refresh=wait_for` on an index whose refresh is disabled waits in Elasticsearch too);
      // the fresh engine drops it.
      report.waits++;
      await seedEngine();
      continue;
    }
    if (answer === "hang" || answer === "crash") {
      if (answer === "hang") report.hangs++;
      else report.crashes++;
      note({ kind: answer, request: describe(request) });
      restart();
      await seedEngine();
      continue;
    }
    const key = String(answer.status);
    report.statuses[key] = (report.statuses[key] ?? 0) + 1;
    report.peakHeapBytes = Math.max(report.peakHeapBytes, answer.heap);
    if (options.maxHeapBytes !== undefined && answer.heap > options.maxHeapBytes) {
      report.heapOverruns++;
      note({ kind: "heap", status: answer.status, request: describe(request) });
    }
    if (shaped?.check) {
      const check = shaped.check;
      const after = await send(check.request);
      if (after !== "hang" && after !== "crash" && after.status !== check.status) {
        report.escapes++;
        note({
          kind: "escape",
          status: after.status,
          request: describe(request),
          answer: `${describe(check.request)} -> ${after.status}`,
        });
        await seedEngine();
      }
    }
    if (answer.status >= 500 || answer.status < 0) {
      report.serverErrors++;
      note({
        kind: answer.status < 0 ? "rejected" : "5xx",
        status: answer.status,
        request: describe(request),
        answer: `${answer.head} ${answer.log?.join(" | ") ?? ""}`,
      });
    }
    if (options.progress && report.requests % 10_000 === 0) {
      report.millis = performance.now() - started;
      options.progress(report.requests, report);
    }
  }
  worker.terminate();
  report.millis = performance.now() - started;
  return report;
}
