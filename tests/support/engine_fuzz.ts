// Fuzzing the engine: requests generated from its route table (every API, its path parts and its
// parameters) and mutated from the conformance suite's request bodies, each run under a time
// budget in a worker whose heap is watched. A 5xx, a hang (no answer within the budget) or a
// crash (the worker dies) is a finding.

import { expandPath, ROUTES } from "../../engine/_rest/routes.ts";
import { parseAllDocuments } from "npm:yaml@2";

/** A request as the fuzzer sends it. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** What a run found. */
export interface FuzzReport {
  requests: number;
  statuses: Record<string, number>;
  serverErrors: number;
  hangs: number;
  crashes: number;
  peakHeapBytes: number;
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
  /** Called with each finding as it happens. */
  finding?: (sample: FuzzReport["samples"][number]) => void;
}

/** A small, seedable PRNG (mulberry32). */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    let t = (this.#s += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const NAMES = [
  "idx",
  "idx",
  "logs-1",
  "other",
  "*",
  "_all",
  "idx,other",
  "idx*",
  "missing",
  "UPPER",
  "a%2Fb",
  "%ZZ",
  "..",
  "__proto__",
  "constructor",
  "ñ",
  "x".repeat(300),
  "-bad",
  "_doc",
];
const IDS = ["1", "2", "3", "missing", "__proto__", "constructor", "%00", "a b", "9".repeat(600)];
const PARAM_VALUES = [
  "true",
  "false",
  "",
  "-1",
  "0",
  "1",
  "5",
  "10000",
  "10001",
  "2147483648",
  "99999999999999999999",
  "abc",
  "1m",
  "-5s",
  "0ms",
  "*",
  "_all",
  "NaN",
  "1e309",
  "wait_for",
  "open,closed",
  "n:desc",
  "a:",
  "(a+)+b",
];
const STRINGS = [
  "",
  "a",
  "quick brown fox",
  "*",
  "a*b",
  "a\\*b",
  "(a+)+b",
  "(.*a){20}",
  "[",
  "\\",
  "\u0000",
  "🙂",
  "now-1d/d",
  "2024-13-45",
  "__proto__",
  "constructor",
  "x".repeat(2000),
  "1e309",
  "ctx._source.a = 1",
  "ctx._source.l = []; ctx._source.l.add(ctx._source.l)",
];
const NUMBERS = [
  0,
  -1,
  1,
  2,
  10,
  0.5,
  1e-300,
  1e308,
  -1e308,
  2 ** 53 + 1,
  65536,
  10001,
  2147483647,
];
const KEYS = [
  "query",
  "aggs",
  "size",
  "from",
  "sort",
  "_source",
  "match",
  "term",
  "terms",
  "bool",
  "must",
  "should",
  "filter",
  "range",
  "gte",
  "field",
  "interval",
  "fixed_interval",
  "calendar_interval",
  "histogram",
  "date_histogram",
  "regexp",
  "wildcard",
  "prefix",
  "query_string",
  "script",
  "source",
  "doc",
  "upsert",
  "properties",
  "type",
  "__proto__",
  "constructor",
  "toString",
  "",
  "a.b",
  "n",
  "t",
  "k",
];

function scalar(rng: Rng): unknown {
  switch (rng.int(4)) {
    case 0:
      return rng.pick(STRINGS);
    case 1:
      return rng.pick(NUMBERS);
    case 2:
      return rng.chance(0.5);
    default:
      return null;
  }
}

/** A random JSON value biased toward the engine's vocabulary. */
export function randomJson(rng: Rng, depth = 0): unknown {
  const r = rng.int(10);
  if (depth > 5 || r < 4) return scalar(rng);
  if (r < 6) return Array.from({ length: rng.int(4) }, () => randomJson(rng, depth + 1));
  const out: Record<string, unknown> = {};
  const n = 1 + rng.int(3);
  for (let i = 0; i < n; i++) {
    Object.defineProperty(out, rng.pick(KEYS), {
      value: randomJson(rng, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

const QUERIES: Array<(rng: Rng) => unknown> = [
  () => ({ match_all: {} }),
  (r) => ({ match: { [r.pick(["t", "k", "n", "__proto__"])]: r.pick(STRINGS) } }),
  (r) => ({ term: { [r.pick(["k", "n", "t.keyword"])]: scalar(r) } }),
  (r) => ({ terms: { k: Array.from({ length: r.int(5) }, () => r.pick(STRINGS)) } }),
  (r) => ({ range: { [r.pick(["n", "d"])]: { gte: scalar(r), lt: scalar(r) } } }),
  (r) => ({ regexp: { k: { value: r.pick(STRINGS), flags: r.pick(["ALL", "NONE", "BAD"]) } } }),
  (r) => ({ wildcard: { [r.pick(["k", "t", "_id"])]: r.pick(STRINGS) } }),
  (r) => ({ prefix: { k: r.pick(STRINGS) } }),
  (r) => ({ query_string: { query: r.pick(STRINGS) + " " + r.pick(STRINGS) } }),
  (r) => ({ exists: { field: r.pick(["n", "k", "__proto__", "*"]) } }),
  (r) => ({ ids: { values: [r.pick(IDS)] } }),
  (r) => ({
    bool: { must: [randomQuery(r)], should: [randomQuery(r)], minimum_should_match: scalar(r) },
  }),
];

function randomQuery(rng: Rng): unknown {
  return rng.pick(QUERIES)(rng);
}

const AGGS: Array<(rng: Rng) => unknown> = [
  (r) => ({ terms: { field: r.pick(["k", "n", "t", "t.keyword"]), size: r.pick(NUMBERS) } }),
  (r) => ({ histogram: { field: "n", interval: r.pick(NUMBERS), min_doc_count: r.int(2) } }),
  (r) => ({ date_histogram: { field: "d", fixed_interval: r.pick(["1ms", "1d", "0ms", "1x"]) } }),
  (r) => ({
    date_histogram: { field: "d", calendar_interval: r.pick(["minute", "day", "year", "1q"]) },
  }),
  (r) => ({
    [r.pick(["min", "max", "avg", "sum", "value_count", "stats", "cardinality"])]: {
      field: r.pick(["n", "k", "d"]),
    },
  }),
  (r) => ({ range: { field: "n", ranges: [{ from: scalar(r), to: scalar(r) }] } }),
  (r) => ({ filters: { filters: { a: randomQuery(r), __proto__x: randomQuery(r) } } }),
];

function searchBody(rng: Rng): unknown {
  const body: Record<string, unknown> = { query: randomQuery(rng) };
  if (rng.chance(0.4)) {
    const agg = rng.pick(AGGS)(rng) as Record<string, unknown>;
    if (rng.chance(0.3)) agg.aggs = { inner: rng.pick(AGGS)(rng) };
    body.aggs = { [rng.pick(["a", "__proto__", "constructor"])]: agg };
  }
  if (rng.chance(0.3)) body.size = rng.pick(NUMBERS);
  if (rng.chance(0.2)) body.from = rng.pick(NUMBERS);
  if (rng.chance(0.3)) {
    body.sort = [{
      [rng.pick(["n", "k", "_score", "t", "__proto__"])]: rng.pick(["asc", "desc", "x"]),
    }];
  }
  if (rng.chance(0.2)) {
    body._source = rng.pick([false, ["k"], { includes: ["*"], excludes: ["n"] }]);
  }
  return body;
}

/** Mutates a JSON value: replaces, drops, renames, nests or grows one part of it. */
export function mutate(value: unknown, rng: Rng, depth = 0): unknown {
  if (depth > 12) return value;
  if (value === null || typeof value !== "object") {
    return rng.chance(0.5) ? scalar(rng) : value;
  }
  if (Array.isArray(value)) {
    const copy = value.slice();
    if (copy.length === 0 || rng.chance(0.2)) copy.push(randomJson(rng));
    else {
      const i = rng.int(copy.length);
      copy[i] = rng.chance(0.7) ? mutate(copy[i], rng, depth + 1) : randomJson(rng);
    }
    return copy;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  const target = entries.length > 0 ? rng.int(entries.length) : -1;
  const op = rng.int(6);
  for (let i = 0; i < entries.length; i++) {
    let [k, v] = entries[i]!;
    if (i === target) {
      if (op === 0) continue; // drop
      if (op === 1) k = rng.pick(KEYS); // rename
      else if (op === 2) v = randomJson(rng);
      else if (op === 3) v = [v, v];
      else v = mutate(v, rng, depth + 1);
    }
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  if (op === 5 || entries.length === 0) {
    Object.defineProperty(out, rng.pick(KEYS), {
      value: randomJson(rng),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A conformance-suite call: API name, path parts and parameters, body. */
interface CorpusCall {
  api: string;
  args: Record<string, unknown>;
  body?: unknown;
}

interface ApiSpec {
  paths: Array<{ path: string; methods: string[]; parts?: Record<string, unknown> }>;
}

/** Reads the suite's `do:` calls and its API specifications. */
export async function loadCorpus(
  dir: string,
): Promise<{ calls: CorpusCall[]; specs: Map<string, ApiSpec> }> {
  const calls: CorpusCall[] = [];
  const specs = new Map<string, ApiSpec>();
  try {
    for await (const f of Deno.readDir(`${dir}/api`)) {
      if (!f.name.endsWith(".json") || f.name.startsWith("_")) continue;
      const json = JSON.parse(await Deno.readTextFile(`${dir}/api/${f.name}`));
      for (const [name, spec] of Object.entries(json)) {
        specs.set(name, (spec as { url: ApiSpec }).url);
      }
    }
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (node === null || typeof node !== "object") return;
      const o = node as Record<string, unknown>;
      if (o.do && typeof o.do === "object") {
        for (const [api, raw] of Object.entries(o.do as Record<string, unknown>)) {
          if (!specs.has(api) || raw === null || typeof raw !== "object") continue;
          const { body, ...args } = raw as Record<string, unknown>;
          calls.push({ api, args, body });
        }
      }
      for (const v of Object.values(o)) visit(v);
    };
    for await (const apiDir of Deno.readDir(`${dir}/test`)) {
      if (!apiDir.isDirectory) continue;
      for await (const f of Deno.readDir(`${dir}/test/${apiDir.name}`)) {
        if (!f.name.endsWith(".yml") && !f.name.endsWith(".yaml")) continue;
        const text = await Deno.readTextFile(`${dir}/test/${apiDir.name}/${f.name}`);
        for (const doc of parseAllDocuments(text)) {
          try {
            visit(doc.toJS());
          } catch {
            // a document the YAML library cannot convert is skipped
          }
        }
      }
    }
  } catch {
    // no corpus: shapes alone
  }
  return { calls, specs };
}

function fillPath(pattern: string, rng: Rng, given: Record<string, unknown> = {}): string {
  return pattern.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = given[name];
    if (v !== undefined && !rng.chance(0.1)) {
      return encodeURIComponent(Array.isArray(v) ? v.join(",") : String(v));
    }
    if (name === "id") return encodeURIComponent(rng.pick(IDS));
    if (name === "task_id") return rng.pick(["searchvisitor:1", "x:1", "bad", "node:99"]);
    if (name === "scroll_id") return rng.pick(["abc", "c2Nyb2xsOjE6YQ", "_all"]);
    return rng.pick(NAMES);
  });
}

function ndjson(rng: Rng): string {
  const lines: string[] = [];
  const n = 1 + rng.int(4);
  for (let i = 0; i < n; i++) {
    const op = rng.pick(["index", "create", "update", "delete", "bogus"]);
    lines.push(JSON.stringify({ [op]: { _index: rng.pick(NAMES), _id: rng.pick(IDS) } }));
    if (op === "update") lines.push(JSON.stringify({ doc: randomJson(rng) }));
    else if (op !== "delete") lines.push(JSON.stringify(mutate({ n: 1, t: "a b", k: "x" }, rng)));
  }
  if (rng.chance(0.1)) lines.push("{not json");
  return lines.join("\n") + (rng.chance(0.9) ? "\n" : "");
}

const CONTENT_TYPES = [
  "application/json",
  "application/json",
  "application/json",
  "application/x-ndjson",
  "application/vnd.elasticsearch+json; compatible-with=9",
  "application/vnd.elasticsearch+json; compatible-with=6",
  "text/plain",
];

function bodyText(value: unknown, rng: Rng): string {
  const text = JSON.stringify(value) ?? "null";
  const r = rng.int(40);
  if (r === 0) return text.slice(0, rng.int(text.length + 1));
  if (r === 1) return "[".repeat(1200) + "]".repeat(1200);
  if (r === 2) return `{"a":`.repeat(900) + "1" + "}".repeat(900);
  if (r === 3) return text + text;
  return text;
}

/** One generated request (from the route table, or mutated from the corpus). */
export function generate(
  rng: Rng,
  corpus: { calls: CorpusCall[]; specs: Map<string, ApiSpec> },
): FuzzRequest {
  const headers: Record<string, string> = { "content-type": rng.pick(CONTENT_TYPES) };
  if (rng.chance(0.05)) headers.accept = "application/vnd.elasticsearch+json; compatible-with=8";
  let method: string;
  let path: string;
  let body: string | undefined;
  const params = new URLSearchParams();
  if (corpus.calls.length > 0 && rng.chance(0.5)) {
    const call = rng.pick(corpus.calls);
    const spec = corpus.specs.get(call.api)!;
    const usable = spec.paths.filter((p) =>
      Object.keys(p.parts ?? {}).every((k) => call.args[k] !== undefined)
    );
    const chosen = usable.length > 0 ? usable[usable.length - 1]! : rng.pick(spec.paths);
    method = rng.pick(chosen.methods);
    path = fillPath(chosen.path, rng, call.args);
    for (const [k, v] of Object.entries(call.args)) {
      if (Object.keys(chosen.parts ?? {}).includes(k) || typeof v === "object") continue;
      params.set(k, rng.chance(0.1) ? rng.pick(PARAM_VALUES) : String(v));
    }
    if (call.body !== undefined) {
      if (Array.isArray(call.body) && (call.api === "bulk" || call.api === "msearch")) {
        const lines = (call.body as unknown[]).map((l) =>
          typeof l === "string" ? l : JSON.stringify(rng.chance(0.3) ? mutate(l, rng) : l)
        );
        body = lines.join("\n") + "\n";
      } else body = bodyText(rng.chance(0.8) ? mutate(call.body, rng) : call.body, rng);
    }
  } else {
    const route = rng.pick(ROUTES);
    method = rng.chance(0.95) ? rng.pick(route.methods) : rng.pick(["PATCH", "OPTIONS", "GET"]);
    path = fillPath(rng.pick(expandPath(route.path)), rng);
    for (let i = rng.int(3); i > 0; i--) {
      const name = route.params.length > 0 && rng.chance(0.9)
        ? rng.pick(route.params)
        : rng.pick(["bogus", "refresh", "size", "q", "filter_path", "pretty"]);
      params.set(name, rng.pick(PARAM_VALUES));
    }
    if (route.api === "bulk" || route.api === "msearch") body = ndjson(rng);
    else if (["search", "count", "explain", "validate_query", "by_query"].includes(route.api)) {
      body = bodyText(rng.chance(0.7) ? searchBody(rng) : mutate(searchBody(rng), rng), rng);
    } else if (rng.chance(0.7) && method !== "HEAD") body = bodyText(randomJson(rng), rng);
  }
  if (method === "HEAD" && rng.chance(0.8)) body = undefined;
  const query = params.size > 0 ? `?${params}` : "";
  return { method, path: path + query, headers, body };
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
    crashes: 0,
    peakHeapBytes: 0,
    samples: [],
    corpusBodies: corpus.calls.filter((c) => c.body !== undefined).length,
    millis: 0,
  };
  const workerUrl = new URL("./engine_fuzz_worker.ts", import.meta.url);
  let worker = new Worker(workerUrl, { type: "module" });
  let crashed: ((e: unknown) => void) | null = null;
  let pending:
    | ((m: { status: number; head: string; heap: number; log?: string[] }) => void)
    | null = null;
  const wire = () => {
    worker.onmessage = (e) => pending?.(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      crashed?.(e);
    };
  };
  wire();
  let id = 0;
  const send = (r: FuzzRequest | { reset: true }) =>
    new Promise<{ status: number; head: string; heap: number; log?: string[] } | "hang" | "crash">(
      (resolve) => {
        const timer = setTimeout(() => resolve("hang"), budget);
        pending = (m) => {
          clearTimeout(timer);
          resolve(m);
        };
        crashed = () => {
          clearTimeout(timer);
          resolve("crash");
        };
        const job = "reset" in r
          ? { id: ++id, reset: true, method: "GET", url: "http://engine/", headers: {} }
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
  const seedEngine = async () => {
    await send({ reset: true });
    for (const r of SEED_DATA) await send(r);
  };
  await seedEngine();
  for (let i = 0; i < options.requests; i++) {
    if (i > 0 && i % epoch === 0) await seedEngine();
    let request: FuzzRequest;
    try {
      request = generate(rng, corpus);
    } catch {
      continue;
    }
    const answer = await send(request);
    report.requests++;
    if (answer === "hang" || answer === "crash") {
      if (answer === "hang") report.hangs++;
      else report.crashes++;
      const sample = { kind: answer, request: describe(request) };
      options.finding?.(sample);
      if (report.samples.length < 50) report.samples.push(sample);
      restart();
      await seedEngine();
      continue;
    }
    const key = String(answer.status);
    report.statuses[key] = (report.statuses[key] ?? 0) + 1;
    report.peakHeapBytes = Math.max(report.peakHeapBytes, answer.heap);
    if (answer.status >= 500 || answer.status < 0) {
      report.serverErrors++;
      const sample = {
        kind: answer.status < 0 ? "rejected" : "5xx",
        status: answer.status,
        request: describe(request),
        answer: `${answer.head} ${answer.log?.join(" | ") ?? ""}`,
      };
      options.finding?.(sample);
      if (report.samples.length < 50) report.samples.push(sample);
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
