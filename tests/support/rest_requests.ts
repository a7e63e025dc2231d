// Reads the requests of the OpenSearch YAML REST tests (a folder laid out as `test/<api>/*.yml`
// plus `api/*.json` specs) as console command texts, for the checker's false-positive corpus.
// Requests a test expects to fail (`catch`) are left out: they may be wrong on purpose.

import { parseAllDocuments } from "npm:yaml@2";

/** One request of the suite as console text, with where it came from. */
export interface RestRequest {
  readonly source: string;
  readonly text: string;
}

interface ApiSpec {
  url: { paths: { path: string; methods: string[]; parts?: Record<string, unknown> }[] };
}

const SKIP_KEYS = new Set([
  "catch",
  "headers",
  "warnings",
  "allowed_warnings",
  "node_selector",
  "warnings_regex",
  "allowed_warnings_regex",
]);

/** The conformance folder: `CONFORMANCE_DIR` when set, else `../shared/conformance` beside the repo. */
export function conformanceDir(): string | undefined {
  const dir = Deno.env.get("CONFORMANCE_DIR") ??
    new URL("../../../shared/conformance/", import.meta.url).pathname;
  try {
    Deno.statSync(`${dir}/opensearch/api`);
    return dir;
  } catch {
    return undefined;
  }
}

/** Every request of the suite under `dir/opensearch`. */
export function restRequests(dir: string): RestRequest[] {
  const root = `${dir}/opensearch`;
  const specs = new Map<string, ApiSpec>();
  for (const entry of Deno.readDirSync(`${root}/api`)) {
    if (!entry.name.endsWith(".json") || entry.name.startsWith("_")) continue;
    const json = JSON.parse(Deno.readTextFileSync(`${root}/api/${entry.name}`));
    for (const [name, spec] of Object.entries(json)) specs.set(name, spec as ApiSpec);
  }
  const out: RestRequest[] = [];
  for (const api of [...Deno.readDirSync(`${root}/test`)].map((e) => e.name).sort()) {
    for (const file of [...Deno.readDirSync(`${root}/test/${api}`)].map((e) => e.name).sort()) {
      const source = `${api}/${file}`;
      const docs = parseAllDocuments(Deno.readTextFileSync(`${root}/test/${api}/${file}`));
      for (const doc of docs) {
        const sections = doc.toJS() as Record<string, unknown[]> | null;
        for (const steps of Object.values(sections ?? {})) {
          if (!Array.isArray(steps)) continue;
          // A section skipped on every version never runs: its requests are not a valid corpus.
          const skipAll = steps.some((step) =>
            (step as Record<string, { version?: string }>)?.skip?.version?.trim() === "all"
          );
          if (skipAll) continue;
          for (const step of steps) {
            const action = (step as Record<string, unknown>)?.do as
              | Record<string, unknown>
              | undefined;
            if (!action || "catch" in action) continue;
            for (const [name, args] of Object.entries(action)) {
              if (SKIP_KEYS.has(name)) continue;
              const spec = specs.get(name);
              if (!spec) continue;
              const text = toText(spec, (args ?? {}) as Record<string, unknown>);
              if (text) out.push({ source, text });
            }
          }
        }
      }
    }
  }
  return out;
}

function toText(spec: ApiSpec, args: Record<string, unknown>): string | undefined {
  const given = new Set(Object.keys(args));
  let best: { path: string; methods: string[]; parts: string[] } | undefined;
  for (const p of spec.url.paths) {
    const parts = Object.keys(p.parts ?? {});
    if (!parts.every((x) => given.has(x))) continue;
    if (!best || parts.length > best.parts.length) {
      best = { path: p.path, methods: p.methods, parts };
    }
  }
  if (!best) return undefined;
  // A stashed value (`$name`) is known only when the test runs: it becomes a placeholder.
  const encode = (v: unknown) =>
    typeof v === "string" && v.startsWith("$")
      ? "{?}"
      : encodeURIComponent(Array.isArray(v) ? v.join(",") : String(v));
  const path = best.path.replace(/\{(\w+)\}/g, (_, name: string) => encode(args[name]));
  const query: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    if (k === "body" || best.parts.includes(k)) continue;
    query.push(`${k}=${encode(v)}`);
  }
  const body = args.body;
  const method = body !== undefined && best.methods.includes("POST") && best.methods[0] === "GET"
    ? "POST"
    : best.methods[0]!;
  let text = `${method} ${path}${query.length ? "?" + query.join("&") : ""}`;
  if (body !== undefined) {
    if (Array.isArray(body)) {
      text += "\n" +
        body.map((line) => typeof line === "string" ? line : JSON.stringify(line)).join("\n");
    } else text += "\n" + (typeof body === "string" ? body : JSON.stringify(body));
  }
  return text;
}
