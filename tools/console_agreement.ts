// How alike the driver's tokenizer and Kibana's Dev Console read console text: every request
// example of the Elasticsearch specification (as shipped in dist/schema.json of the npm package
// @elastic/request-converter, Apache-2.0) is read by `parseRequests` of that package and by
// `parseScript`, and the two readings (method, path, body as JSON) are compared. It also checks
// that the driver's table of NDJSON endpoints (driver/command/_ndjson_endpoints.ts) is the
// specification's list of endpoints whose request media type is application/x-ndjson.
// Test-time only (an npm package the library does not depend on).
//
// Usage: deno task console:agreement [--list]

import { parseScript } from "../driver/internal.ts";
import { NDJSON_ENDPOINTS } from "../driver/command/_ndjson_endpoints.ts";

const PACKAGE = "npm:@elastic/request-converter@9.5.0";

// deno-lint-ignore no-explicit-any
type Any = any;

/** One example of the specification as console text. */
export interface Example {
  readonly name: string;
  readonly text: string;
}

/** The request examples of a schema as console text (`method_request`, a line break, the body). */
export function examplesOf(schema: Any): Example[] {
  const out: Example[] = [];
  for (const type of schema.types) {
    if (type.kind !== "request" || !type.examples) continue;
    for (const [name, example] of Object.entries<Any>(type.examples)) {
      if (typeof example.method_request !== "string") continue;
      const body = typeof example.value === "string" ? example.value : "";
      out.push({
        name: `${type.name.namespace}/${name}`,
        text: `${example.method_request}\n${body}`,
      });
    }
  }
  return out;
}

/** The URL templates of the endpoints whose request body is NDJSON, sorted. */
export function ndjsonPaths(schema: Any): string[] {
  const out: string[] = [];
  for (const endpoint of schema.endpoints) {
    if (!(endpoint.requestMediaType ?? []).includes("application/x-ndjson")) continue;
    for (const url of endpoint.urls) out.push(url.path);
  }
  return out.sort();
}

/** A reading of one request: method, path (decoded, no trailing slash), body as JSON values. */
export interface Reading {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

function normalPath(path: string): string {
  const bare = path.split("?")[0]!.replace(/\/+$/, "");
  try {
    return decodeURIComponent(bare || "/");
  } catch {
    return bare || "/";
  }
}

/** The driver's reading of a text holding one request, or the error message. */
export function driverReading(text: string): Reading | string {
  try {
    const [command, ...more] = parseScript(text).commands;
    if (!command || more.length > 0) return `${more.length + (command ? 1 : 0)} commands`;
    const joined = command.body?.join("?");
    let body: unknown = undefined;
    if (joined !== undefined) {
      body = command.ndjson
        ? joined.split("\n").filter(Boolean).map((line) => JSON.parse(line))
        : JSON.parse(joined);
    }
    return { method: command.method, path: normalPath(command.target.join("{?}")), body };
  } catch (error) {
    return (error as Error).message.split("\n")[0]!;
  }
}

/** Compares two readings; returns undefined when they agree, else what differs. */
export function difference(kibana: Reading | string, driver: Reading | string): string | undefined {
  if (typeof kibana === "string" && typeof driver === "string") return undefined;
  if (typeof kibana === "string") return `only the driver accepts (Kibana: ${kibana})`;
  if (typeof driver === "string") return `only Kibana accepts: ${driver}`;
  if (kibana.method !== driver.method) return `method ${kibana.method} vs ${driver.method}`;
  if (kibana.path !== driver.path) return `path ${kibana.path} vs ${driver.path}`;
  // Kibana reads an NDJSON body of one line as that line; the driver as a list of one.
  const a = kibana.body;
  const b = Array.isArray(driver.body) && !Array.isArray(a) && driver.body.length === 1
    ? driver.body[0]
    : driver.body;
  if (JSON.stringify(a) !== JSON.stringify(b)) return "body differs";
  return undefined;
}

async function kibanaReading(
  parseRequests: (text: string) => Promise<Any[]>,
  text: string,
): Promise<Reading | string> {
  try {
    const requests = await parseRequests(text);
    if (requests.length !== 1) return `${requests.length} requests`;
    const [r] = requests;
    return { method: r.method, path: normalPath(r.path), body: r.body };
  } catch (error) {
    return String((error as Error).message ?? error);
  }
}

if (import.meta.main) {
  const list = Deno.args.includes("--list");
  const schema = (await import(`${PACKAGE}/dist/schema.json`, { with: { type: "json" } })).default;
  const { parseRequests } = await import(PACKAGE);
  const want = ndjsonPaths(schema);
  const have = [...NDJSON_ENDPOINTS].sort();
  const tableOk = JSON.stringify(want) === JSON.stringify(have);
  if (!tableOk) {
    console.error(`the driver's NDJSON table differs from the specification:
  specification: ${want.join(" ")}
  driver:        ${have.join(" ")}`);
  }
  const examples = examplesOf(schema);
  let alike = 0;
  const kinds = new Map<string, number>();
  for (const { name, text } of examples) {
    const d = difference(await kibanaReading(parseRequests, text), driverReading(text));
    if (d === undefined) alike++;
    else {
      const kind = d.replace(/\(line \d+, column \d+\)/, "").slice(0, 90);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if (list) console.log(`${name}: ${d}\n  ${text.split("\n")[0]}`);
    }
  }
  const share = (100 * alike / examples.length).toFixed(1);
  console.log(`console agreement: ${alike} of ${examples.length} examples read alike (${share}%)`);
  for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${String(count).padStart(4)}  ${kind}`);
  }
  if (!tableOk) Deno.exit(1);
}
