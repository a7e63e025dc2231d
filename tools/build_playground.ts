// Builds the playground page's script: the library's own sources (driver, template) and the
// page's code bundled into one browser ES module, dist/playground/app.js, with `deno bundle`
// (esbuild inside Deno; a build-time tool, nothing is fetched at run time). The server in
// playground/server_node.ts serves it under /_playground/app.js.
//
// Usage: deno run -A tools/build_playground.ts [out.js]

const ENTRY = new URL("../playground/browser/app.ts", import.meta.url);
const DEFAULT_OUT = new URL("../dist/playground/app.js", import.meta.url);

/**
 * Bundles the page.
 *
 * @param out Where the bundle goes.
 * @param options An inline source map (the default) and minification (off by default).
 * @returns The bundle's size in bytes.
 */
export async function buildPlayground(
  out: URL = DEFAULT_OUT,
  options: { sourceMap?: boolean; minify?: boolean } = {},
): Promise<number> {
  await Deno.mkdir(new URL(".", out), { recursive: true });
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--format",
      "esm",
      // Error names come from `new.target.name`; without this a bundler renames a class that
      // refers to itself (`_ResponseError`), and the page would show other names than Deno.
      "--keep-names",
      ...(options.sourceMap === false ? [] : ["--sourcemap=inline"]),
      ...(options.minify ? ["--minify"] : []),
      "--output",
      out.pathname,
      ENTRY.pathname,
    ],
    stdout: "inherit",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(`build_playground: deno bundle failed\n${new TextDecoder().decode(stderr)}`);
  }
  const text = await Deno.readTextFile(out);
  // The page must stand alone: no import left to fetch, no runtime-specific global.
  if (/^\s*import\s|\bimport\(\s*["']/m.test(text.replace(/\/\/# sourceMappingURL=.*$/m, ""))) {
    throw new Error("build_playground: the bundle still imports modules");
  }
  return (await Deno.stat(out)).size;
}

if (import.meta.main) {
  const out = Deno.args[0] ? new URL(Deno.args[0], `file://${Deno.cwd()}/`) : DEFAULT_OUT;
  const size = await buildPlayground(out);
  console.log(`playground bundle: ${out.pathname} (${Math.round(size / 1024)} KiB)`);
}
