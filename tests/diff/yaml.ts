// The YAML corpus: OpenSearch's REST tests replayed by the conformance runner in its differential
// mode (`run.mjs --mirror`): the real engine drives each test, every request also goes to the
// embedded engine. The suite is not part of this repository; it is used when it sits beside the
// clone (`../shared/conformance`) or where `$CONFORMANCE_DIR` points, else this corpus is absent.
// The runner replays the suite twice: requests whose two real answers differ are "unstable".

import type { Answer } from "./compare.ts";
import type { Flavour } from "./generate.ts";
import { classify, type Exchange, partsStates } from "./replay.ts";

/** One line of the runner's `--mirror-out` file. */
export interface MirrorLine {
  section: string;
  method: string;
  path: string;
  body?: string;
  a: Answer;
  b: Answer;
}

/** The conformance folder, or undefined when it is absent. */
export function conformanceDir(): string | undefined {
  const env = Deno.env.get("CONFORMANCE_DIR");
  const dir = env ?? new URL("../../../shared/conformance", import.meta.url).pathname;
  try {
    Deno.statSync(`${dir}/run.mjs`);
    return dir;
  } catch {
    return undefined;
  }
}

async function mirrorRun(
  dir: string,
  tests: string,
  flavour: Flavour,
  version: string,
  realUrl: string,
  engineUrl: string,
): Promise<MirrorLine[]> {
  const out = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await new Deno.Command("node", {
      args: [
        `${dir}/run.mjs`,
        "--dir",
        tests,
        "--url",
        realUrl,
        "--mirror",
        engineUrl,
        "--mirror-out",
        out,
        "--flavor",
        flavour,
        "--version",
        version,
        "--quiet",
      ],
      stdout: "null",
      stderr: "inherit",
    }).output();
    const text = await Deno.readTextFile(out);
    return text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as MirrorLine);
  } finally {
    await Deno.remove(out).catch(() => {});
  }
}

const GENERATED = ["_id", "_scroll_id", "pit_id", "id", "task", "scroll_id"];

/** Values the real engine generated (ids of at least 16 characters), as compare.mjs collects them. */
function collectGenerated(v: unknown, out: Set<string>): void {
  if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v as { [k: string]: unknown })) {
      if (GENERATED.includes(k) && typeof x === "string" && x.length >= 16) out.add(x);
      else collectGenerated(x, out);
    }
  }
}

/** Elastic's elasticsearch-clients-tests, vendored with the API specifications they call. */
export const CLIENTS_TESTS = new URL("./clients_tests", import.meta.url).pathname;

/**
 * Runs a suite twice through the runner's mirror mode: OpenSearch's REST tests (`yaml`, from the
 * conformance folder) or the vendored clients tests (`clients`); undefined when the runner is
 * absent.
 */
export async function yamlCorpus(
  corpus: "yaml" | "clients",
  flavour: Flavour,
  version: string,
  realUrl: string,
  engineUrl: string,
  partialOracle: boolean,
): Promise<Exchange[] | undefined> {
  const dir = conformanceDir();
  if (!dir) return undefined;
  const tests = corpus === "yaml" ? `${dir}/opensearch` : CLIENTS_TESTS;
  const mirror = wipingMirror(engineUrl);
  try {
    const first = await mirrorRun(dir, tests, flavour, version, realUrl, mirror.url);
    const second = await mirrorRun(dir, tests, flavour, version, realUrl, mirror.url);
    return classifyLines(first, second, { corpus, partialOracle });
  } finally {
    await mirror.close();
  }
}

/**
 * Sorts the lines of the two runs into exchanges. A line whose request carries a value only the
 * real engine generated is left out; one without a counterpart in the second run is unstable; once
 * a request without an oracle parted the two engines' states (`partsStates`), the rest of its test
 * section has no oracle either.
 */
export function classifyLines(
  first: readonly MirrorLine[],
  second: readonly MirrorLine[],
  opts: { corpus: string; partialOracle: boolean },
): Exchange[] {
  const { corpus, partialOracle } = opts;
  const same = (x: MirrorLine, y: MirrorLine | undefined) =>
    y !== undefined && x.section === y.section && x.method === y.method && x.path === y.path &&
    x.body === y.body;
  const generated = new Set<string>();
  const out: Exchange[] = [];
  let parted: string | undefined; // the section whose states a write without an oracle parted
  first.forEach((l, i) => {
    const text = l.path + " " + (l.body ?? "");
    const follows = [...generated].some((g) => text.includes(g));
    try {
      collectGenerated(JSON.parse(l.a.text), generated);
    } catch { /* not JSON */ }
    if (follows) return; // a follow-up of a value only the real engine generated
    const again = second[i];
    const step = { kind: "", method: l.method, path: l.path, repeatable: true };
    const classified = parted === l.section
      ? { outcome: "no oracle" as const, differences: [] }
      : classify(step, l.a, same(l, again) ? again!.a : undefined, l.b, { corpus, partialOracle });
    if (classified.outcome === "no oracle" && partsStates(step, l.a, l.b)) parted = l.section;
    // a line with no counterpart in the second run (the runs took different turns) is unstable
    const o = same(l, again) ? classified.outcome : "unstable";
    out.push({
      corpus,
      kind: `${corpus}:${l.section.split(/\/| :: /)[0]!.replace(/\.yml$/, "")}`,
      method: l.method,
      path: l.path,
      ...(l.body === undefined ? {} : { body: l.body }),
      real: l.a,
      engine: l.b,
      outcome: o,
      differences: o === "unstable" ? [] : classified.differences,
    });
  });
  return out;
}

/** The runner's first cleanup request after each section: every index, by wildcard. */
const WIPE = /^\/\*\?expand_wildcards=open%2Cclosed%2Chidden$/;

/**
 * A pass-through to the embedded engine that makes the runner's cleanup reach all of it. The
 * runner deletes every index by wildcard; where the real engine refuses that
 * (`action.destructive_requires_name`, true in Elasticsearch 8+), it deletes by name the indices
 * the real engine lists, which leaves in the embedded engine an index only it created (one the
 * real engine refused): the next section would find it there. On the runner's wildcard cleanup
 * the embedded engine is emptied (the setting lifted for that one request, then reset), then the
 * request goes on as sent. The cleanup is never recorded, so nothing compared passes through here
 * changed.
 */
export function wipingMirror(engineUrl: string): { url: string; close: () => Promise<void> } {
  const base = engineUrl.replace(/\/$/, "");
  const json = { "Content-Type": "application/json" };
  const setting = (v: boolean | null) =>
    fetch(`${base}/_cluster/settings`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ transient: { "action.destructive_requires_name": v } }),
    }).then((r) => r.body?.cancel());
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const path = url.pathname + url.search;
      if (req.method === "DELETE" && WIPE.test(path)) {
        await setting(false);
        await fetch(base + path, { method: "DELETE" }).then((r) => r.body?.cancel());
        await setting(null);
      }
      const body = req.method === "GET" || req.method === "HEAD"
        ? undefined
        : await req.arrayBuffer();
      const headers = new Headers(req.headers);
      for (const h of ["host", "connection", "accept-encoding"]) headers.delete(h);
      const res = await fetch(base + path, { method: req.method, headers, body });
      const back = new Headers(res.headers);
      // fetch has decoded the body: its encoding and length are no longer the engine's
      for (const h of ["content-encoding", "content-length"]) back.delete(h);
      const text = await res.arrayBuffer();
      return new Response(req.method === "HEAD" ? null : text, {
        status: res.status,
        headers: back,
      });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}
