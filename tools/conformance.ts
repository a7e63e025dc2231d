// `deno task conformance [-- runner options]`: runs the shared YAML REST tests against an in-process engine.
// Exits non-zero when fewer than 90% of the non-skipped sections pass.

import { Engine, serve } from "../engine/mod.ts";

const ROOT = new URL("../", import.meta.url);
const SHARED = new URL("../shared/conformance/", ROOT);
const THRESHOLD = 0.9;

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
    const api = file.path.split("/")[0];
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

if (import.meta.main) {
  if (!(await exists(new URL("run.mjs", SHARED)))) {
    console.log("conformance: ../shared/conformance is absent; nothing to run");
    Deno.exit(0);
  }
  const flavour = Deno.args.includes("--elasticsearch") ? "elasticsearch" : "opensearch";
  const extra = Deno.args.filter((a) => a !== "--elasticsearch");
  const engine = new Engine({ flavour });
  const server = await serve(engine, { port: 0 });
  const dir = new URL("opensearch", SHARED).pathname;
  const report = await Deno.makeTempFile({ suffix: ".json" });
  const command = new Deno.Command("node", {
    args: [
      new URL("run.mjs", SHARED).pathname,
      "--dir",
      dir,
      "--url",
      server.url,
      "--quiet",
      "--json",
      report,
      ...extra,
    ],
    stdout: "piped",
    stderr: "inherit",
  });
  const child = command.spawn();
  const output = await child.output();
  const text = new TextDecoder().decode(output.stdout);
  await Deno.stdout.write(output.stdout);
  await server.close();
  engine.close();
  try {
    const json = JSON.parse(await Deno.readTextFile(report)) as { files: ReportFile[] };
    console.log("\nper API (pass / fail / skip):");
    for (const [api, c] of [...perApi(json.files)].sort(([a], [b]) => (a < b ? -1 : 1))) {
      console.log(
        `  ${api.padEnd(26)} ${String(c.pass).padStart(3)} / ${String(c.fail).padStart(3)} / ${
          String(c.skip).padStart(3)
        }`,
      );
    }
  } catch {
    // no JSON report (runner stopped early): the summary line below still tells the result
  } finally {
    await Deno.remove(report).catch(() => {});
  }
  const summary = parseSummary(text);
  if (!summary) {
    console.error("conformance: no summary line from the runner");
    Deno.exit(2);
  }
  const ran = summary.passed + summary.failed;
  const rate = ran === 0 ? 1 : summary.passed / ran;
  console.log(
    `conformance: ${(rate * 100).toFixed(1)}% of ${ran} non-skipped sections pass (threshold 90%)`,
  );
  Deno.exit(rate >= THRESHOLD ? 0 : 1);
}
