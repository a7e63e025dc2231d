// The YAML corpus: OpenSearch's REST tests replayed by the conformance runner in its differential
// mode (`run.mjs --mirror`): the real engine drives each test, every request also goes to the
// embedded engine. The suite is not part of this repository; it is used when it sits beside the
// clone (`../shared/conformance`) or where `$CONFORMANCE_DIR` points, else this corpus is absent.
// The runner replays the suite twice: requests whose two real answers differ are "unstable".

import type { Answer } from "./compare.ts";
import type { Flavour } from "./generate.ts";
import { classify, type Exchange } from "./replay.ts";

/** One line of the runner's `--mirror-out` file. */
interface MirrorLine {
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

/** APIs that only read, whatever their method (searches, templates rendered, evaluations). */
const READS =
  /\/(_search|_msearch|_count|_explain|_validate|_field_caps|_render|_rank_eval|_mget|_termvectors|_mtermvectors)(\/|\?|$)|\/_execute(\?|$)/;

/** Whether a request may change the engine's state: not a GET or HEAD, nor a read by POST. */
export function mayWrite(method: string, path: string): boolean {
  return method !== "GET" && method !== "HEAD" && !READS.test(path);
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
  const first = await mirrorRun(dir, tests, flavour, version, realUrl, engineUrl);
  const second = await mirrorRun(dir, tests, flavour, version, realUrl, engineUrl);
  const same = (x: MirrorLine, y: MirrorLine | undefined) =>
    y !== undefined && x.section === y.section && x.method === y.method && x.path === y.path &&
    x.body === y.body;
  const generated = new Set<string>();
  // Sections where the embedded engine carried out a write the real engine could not (its
  // distribution lacks the module): from there on the two states have parted, so the section's
  // later requests say nothing about the API either. The generated and specification corpora
  // withhold such a write from the engine; the runner's mirror sends every request to both.
  const parted = new Set<string>();
  const out: Exchange[] = [];
  first.forEach((l, i) => {
    const text = l.path + " " + (l.body ?? "");
    const follows = [...generated].some((g) => text.includes(g));
    try {
      collectGenerated(JSON.parse(l.a.text), generated);
    } catch { /* not JSON */ }
    if (follows) return; // a follow-up of a value only the real engine generated
    const again = second[i];
    const step = { kind: "", method: l.method, path: l.path, repeatable: true };
    const { outcome, differences } = classify(
      step,
      l.a,
      same(l, again) ? again!.a : undefined,
      l.b,
      { corpus, partialOracle },
    );
    // a line with no counterpart in the second run (the runs took different turns) is unstable
    let o: Exchange["outcome"] = same(l, again) ? outcome : "unstable";
    if (parted.has(l.section)) o = "no oracle";
    else if (o === "no oracle" && l.b.status < 300 && mayWrite(l.method, l.path)) {
      parted.add(l.section);
    }
    out.push({
      corpus,
      kind: `${corpus}:${l.section.split(/\/| :: /)[0]!.replace(/\.yml$/, "")}`,
      method: l.method,
      path: l.path,
      ...(l.body === undefined ? {} : { body: l.body }),
      real: l.a,
      engine: l.b,
      outcome: o,
      differences: o === "unstable" ? [] : differences,
    });
  });
  return out;
}
