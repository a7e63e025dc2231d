// Runs `deno doc --lint` over every module the package exports (the `exports` of deno.json), so
// each published name has documentation, an explicit type and no reference to a private type.
// New rooms are covered as soon as they are added to `exports`.
//
// With `--html DIR` it writes the API reference instead: `deno doc --html` of the same modules
// into DIR (`deno task doc:html` writes dist/api/index.html).
//
// Usage: deno run -A tools/check_docs.ts [root]   (exit 1 with deno doc's report on any error)
//        deno run -A tools/check_docs.ts --html DIR [root]

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

/**
 * The `deno doc` arguments: the lint over the modules, or the HTML reference written to a folder.
 *
 * @param modules The exported modules.
 * @param htmlDir Where to write the HTML reference; the lint when absent.
 * @returns The arguments after `deno`.
 */
export function docArgs(modules: readonly string[], htmlDir?: string): string[] {
  return htmlDir === undefined
    ? ["doc", "--lint", ...modules]
    : ["doc", "--html", "--name=searchvisitor", `--output=${htmlDir}`, ...modules];
}

if (import.meta.main) {
  const args = [...Deno.args];
  const htmlAt = args.indexOf("--html");
  const htmlDir = htmlAt >= 0 ? args.splice(htmlAt, 2)[1] : undefined;
  const root = args[0] ?? ".";
  const modules = exportedModules(await Deno.readTextFile(`${root}/deno.json`));
  if (htmlDir !== undefined) {
    await Deno.mkdir(htmlDir.startsWith("/") ? htmlDir : `${root}/${htmlDir}`, { recursive: true });
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: docArgs(modules, htmlDir),
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const what = htmlDir === undefined ? "doc lint" : "API reference";
  if (!out.success) {
    console.error(text.trim());
    console.log(`${what} failed over ${modules.length} exported module(s)`);
    Deno.exit(1);
  }
  console.log(
    htmlDir === undefined
      ? `doc lint ok (${modules.length} exported modules)`
      : `API reference of ${modules.length} exported modules in ${htmlDir}/index.html`,
  );
}
