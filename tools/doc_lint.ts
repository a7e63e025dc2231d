// `deno task doc:lint`: `deno doc --lint` over every export of deno.json at once (so a room that
// is added to the exports is linted without touching this file), gated by a ceiling on the count
// of problems: the run fails when there are more than CEILING, and asks for the ceiling to be
// lowered when there are fewer. The goal is 0.
//
// Usage: deno run -A tools/doc_lint.ts

/** Problems known when the gate was set (undocumented overloads and constructors in template/). */
export const CEILING = 11;

/**
 * Counts the problems in `deno doc --lint` output.
 *
 * @param output What the command printed (colours are ignored).
 * @returns The problems, one line each: `kind file:line`.
 */
export function problems(output: string): string[] {
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const found: string[] = [];
  const re = /^error\[([a-z-]+)\]: (.*)\n\s*--> (.*)$/gm;
  for (const m of plain.matchAll(re)) {
    found.push(`${m[1]} ${m[3]!.replace(/^.*?\/(?=[^/]+\/[^/]+:\d)/, "")}: ${m[2]}`);
  }
  return found;
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url);
  const deno = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const entries = Object.values(deno.exports as Record<string, string>);
  const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...entries],
    cwd: root,
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  const found = problems(text);
  for (const line of found) console.log(`  ${line}`);
  console.log(
    `doc lint: ${found.length} problem(s) over ${entries.length} exports (ceiling ${CEILING})`,
  );
  if (found.length > CEILING) {
    console.log("doc lint: more problems than the ceiling; document what you exported");
    Deno.exit(1);
  }
  if (found.length < CEILING) {
    console.log(`doc lint: fewer problems now: lower CEILING to ${found.length}`);
  }
}
