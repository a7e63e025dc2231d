// Runs `deno doc --lint` over every module the package exports (the `exports` of deno.json), so
// each published name has documentation, an explicit type and no reference to a private type.
// New rooms are covered as soon as they are added to `exports`.
//
// Usage: deno run -A tools/check_docs.ts [root]   (exit 1 with deno doc's report on any error)

/**
 * The exported modules of a deno.json text, deduplicated, in order.
 *
 * @param denoJson The text of deno.json.
 * @returns The module paths, relative to the folder of deno.json.
 */
export function exportedModules(denoJson: string): string[] {
  const exports = (JSON.parse(denoJson) as { exports?: string | Record<string, string> }).exports;
  if (exports === undefined) return [];
  const paths = typeof exports === "string" ? [exports] : Object.values(exports);
  return [...new Set(paths)];
}

if (import.meta.main) {
  const root = Deno.args[0] ?? ".";
  const modules = exportedModules(await Deno.readTextFile(`${root}/deno.json`));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...modules],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) {
    console.error(text.trim());
    console.log(`doc lint failed over ${modules.length} exported module(s)`);
    Deno.exit(1);
  }
  console.log(`doc lint ok (${modules.length} exported modules)`);
}
