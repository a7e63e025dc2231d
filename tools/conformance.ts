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
  const command = new Deno.Command("node", {
    args: [
      new URL("run.mjs", SHARED).pathname,
      "--dir",
      dir,
      "--url",
      server.url,
      "--quiet",
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
