// `deno task conformance [-- runner options]`: runs the shared YAML REST tests against an in-process
// engine, twice:
//  1. with the shared runner exactly as it is: the official figure;
//  2. with one correction that makes `catch: /regex/` behave as in the upstream Java runner
//     (`DoSection` matches the error with a plain regex; only `match:` assertions use COMMENTS
//     mode). The shared runner strips whitespace from `catch` patterns too, so a pattern such as
//     `/conflicts may only be .* but was \[cat\]/` can match no server's error. The copy with the
//     correction lives in a temporary folder; the shared runner is never changed.
// Exits non-zero when the official run passes fewer sections than FLOOR (a regression), or when
// the corrected run passes fewer than 90% of its non-skipped sections.

import { Engine, serve } from "../engine/mod.ts";

const ROOT = new URL("../", import.meta.url);
/** The suite's folder: `CONFORMANCE_DIR` when set, else `../shared/conformance` beside the repo. */
const SHARED = Deno.env.get("CONFORMANCE_DIR")
  ? new URL(`file://${Deno.env.get("CONFORMANCE_DIR")!.replace(/\/?$/, "/")}`)
  : new URL("../shared/conformance/", ROOT);
const THRESHOLD = 0.9;
/** Sections the official run passed when this floor was set; fewer is a regression. */
const FLOOR = 289;
/** The one line of the shared runner that the corrected run replaces, and its replacement. */
export const CATCH_REGEX_LINE = "const re = regexOf(cs);";
export const CATCH_REGEX_FIX = "const re = new RegExp(cs.trim().slice(1, -1));";

async function exists(url: URL): Promise<boolean> {
  try {
    await Deno.stat(url);
    return true;
  } catch {
    return false;
  }
}

/** One file of the runner's `--json` report. */
interface ReportFile {
  path: string;
  sections: Array<{ name: string; status: "pass" | "fail" | "skip" }>;
}

/** Pass / fail / skip counts per API folder (`bulk`, `indices.create`, ...), from the `--json` report. */
export function perApi(
  files: ReportFile[],
): Map<string, { pass: number; fail: number; skip: number }> {
  const out = new Map<string, { pass: number; fail: number; skip: number }>();
  for (const file of files) {
    const api = file.path.split("/")[0]!;
    const counts = out.get(api) ?? { pass: 0, fail: 0, skip: 0 };
    for (const section of file.sections) counts[section.status]++;
    out.set(api, counts);
  }
  return out;
}

/** Parses the runner's last line: `N passed, M failed, K skipped`. */
export function parseSummary(
  text: string,
): { passed: number; failed: number; skipped: number } | undefined {
  const m = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(text);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3]) } : undefined;
}

/** The runner's summary, its per-API table, and the exit status of the run. */
interface RunResult {
  passed: number;
  failed: number;
  skipped: number;
  perApi: Map<string, { pass: number; fail: number; skip: number }>;
  failing: string[];
}

async function runOnce(runner: string, url: string, extra: string[]): Promise<RunResult> {
  const report = await Deno.makeTempFile({ suffix: ".json" });
  try {
    const output = await new Deno.Command("node", {
      args: [runner, "--dir", new URL("opensearch", SHARED).pathname, "--url", url, "--quiet"]
        .concat(["--json", report], extra),
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    const summary = parseSummary(text);
    if (!summary) throw new Error(`no summary line from the runner:\n${text.slice(-2000)}`);
    const json = JSON.parse(await Deno.readTextFile(report)) as { files: ReportFile[] };
    const failing = json.files.flatMap((f) =>
      f.sections.filter((s) => s.status === "fail").map((s) => `${f.path} :: ${s.name}`)
    );
    return { ...summary, perApi: perApi(json.files), failing };
  } finally {
    await Deno.remove(report).catch(() => {});
  }
}

function rate(r: RunResult): number {
  const ran = r.passed + r.failed;
  return ran === 0 ? 1 : r.passed / ran;
}

function describe(label: string, r: RunResult): string {
  return `${label}: ${r.passed} of ${r.passed + r.failed} non-skipped sections pass (${
    (rate(r) * 100).toFixed(1)
  }%), ${r.skipped} skipped`;
}

if (import.meta.main) {
  const runner = new URL("run.mjs", SHARED).pathname;
  if (!(await exists(new URL("run.mjs", SHARED)))) {
    console.log("conformance: ../shared/conformance is absent; nothing to run");
    Deno.exit(0);
  }
  const flavour = Deno.args.includes("--elasticsearch") ? "elasticsearch" : "opensearch";
  const extra = Deno.args.filter((a) => a !== "--elasticsearch");
  const engine = new Engine({ flavour });
  const server = await serve(engine, { port: 0 });
  let official: RunResult;
  let corrected: RunResult | undefined;
  try {
    official = await runOnce(runner, server.url, extra);
    const source = await Deno.readTextFile(runner);
    if (source.split(CATCH_REGEX_LINE).length === 2) {
      const dir = await Deno.makeTempDir();
      const copy = `${dir}/run.mjs`;
      await Deno.writeTextFile(copy, source.replace(CATCH_REGEX_LINE, CATCH_REGEX_FIX));
      try {
        corrected = await runOnce(copy, server.url, extra);
      } finally {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    } else {
      console.log("conformance: the shared runner changed; the corrected run is not needed");
    }
  } finally {
    await server.close();
    engine.close();
  }
  console.log("per API, official runner (pass / fail / skip):");
  for (const [api, c] of [...official.perApi].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const n = (x: number) => String(x).padStart(3);
    console.log(`  ${api.padEnd(26)} ${n(c.pass)} / ${n(c.fail)} / ${n(c.skip)}`);
  }
  const residual = corrected?.failing ?? official.failing;
  console.log(`failing sections${corrected ? " (corrected run)" : ""}:`);
  for (const name of residual) console.log(`  ${name}`);
  console.log(describe("conformance, shared runner as is", official));
  if (corrected) console.log(describe("conformance, upstream catch-regex semantics", corrected));
  const gate = corrected ?? official;
  const ok = official.passed >= FLOOR && rate(gate) >= THRESHOLD;
  if (official.passed < FLOOR) {
    console.error(`conformance: regression: ${official.passed} sections pass, fewer than ${FLOOR}`);
  }
  if (rate(gate) < THRESHOLD) console.error("conformance: below the 90% target");
  Deno.exit(ok ? 0 : 1);
}
