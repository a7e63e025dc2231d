// The fuzzer's request generators: the conformance suite's calls, and one request either from
// the engine's route table or mutated from the suite.

import { expandPath, ROUTES } from "../../engine/_rest/routes.ts";
import { parseAllDocuments } from "npm:yaml@2";
import {
  IDS,
  mutate,
  NAMES,
  PARAM_VALUES,
  randomJson,
  Rng,
  searchBody,
} from "./engine_fuzz_json.ts";

export { Rng };

/** A request as the fuzzer sends it. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
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
