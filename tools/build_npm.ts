// `deno task build:npm [outDir]`: builds the npm package from the same sources JSR publishes.
//
// Every export of deno.json becomes a subpath export of the package (so a room added to deno.json
// is picked up without touching this file). The TypeScript compiler (an npm build-time tool, never
// a dependency of the package) emits one ES module per source file, with `.d.ts` types and source
// maps: a class re-exported by several subpaths stays ONE class, so `instanceof` holds everywhere.
// The output is checked: no `Deno.` code path (the engine serves with node:http, which Deno, Node
// and Bun share), no import outside the package but `node:` built-ins.

import ts from "npm:typescript@5.8.3";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL as toFileUrl } from "node:url";
import { buildPlayground } from "./build_playground.ts";

/** One subpath export: `"./driver"` → `driver/mod.ts`. */
export interface Entry {
  /** The subpath, `"."` or `"./name"`. */
  subpath: string;
  /** The source file, relative to the project root, e.g. `driver/mod.ts`. */
  source: string;
}

/** The npm `package.json` fields built from deno.json. */
export interface PackageJson {
  name: string;
  version: string;
  [key: string]: unknown;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The cli entry that becomes the `searchvisitor` bin (only when it exists). */
const BIN_SOURCE = "cli/main.ts";
/**
 * Reads the subpath exports of a deno.json that go into the npm package: all but the Deno-only
 * adapters (a source named `*_deno.ts`, such as `contrib/fetch_deno.ts`, which runs on `Deno.*`
 * and is published on JSR only).
 *
 * @param denoJson The parsed deno.json.
 * @returns One entry per export, in order.
 */
export function entriesOf(denoJson: { exports?: string | Record<string, string> }): Entry[] {
  const exports = typeof denoJson.exports === "string"
    ? { ".": denoJson.exports }
    : denoJson.exports ?? {};
  return Object.entries(exports)
    .map(([subpath, file]) => ({ subpath, source: file.replace(/^\.\//, "") }))
    .filter((entry) => !entry.source.endsWith("_deno.ts"));
}

/** `driver/mod.ts` → `./esm/driver/mod.js` (or `.d.ts`). */
function out(source: string, ext: ".js" | ".d.ts"): string {
  return `./esm/${source.replace(/\.ts$/, ext)}`;
}

/**
 * Builds package.json for the npm package.
 *
 * @param denoJson The parsed deno.json.
 * @param hasBin Whether the cli entry exists.
 * @returns The package.json object.
 */
export function packageJson(
  denoJson: { name: string; version: string; license?: string; exports?: Record<string, string> },
  hasBin: boolean,
): PackageJson {
  const exports: Record<string, unknown> = {};
  for (const { subpath, source } of entriesOf(denoJson)) {
    exports[subpath] = { types: out(source, ".d.ts"), default: out(source, ".js") };
  }
  exports["./package.json"] = "./package.json";
  return {
    name: denoJson.name,
    version: denoJson.version,
    description: "JDBC, JdbcTemplate and MyBatis-style data access for Elasticsearch and " +
      "OpenSearch over fetch, with an embedded engine and a console",
    license: denoJson.license ?? "MIT",
    type: "module",
    engines: { node: ">=20" },
    exports,
    ...(exports["."] ? { main: out("mod.ts", ".js"), types: out("mod.ts", ".d.ts") } : {}),
    ...(hasBin ? { bin: { searchvisitor: out(BIN_SOURCE, ".js") } } : {}),
    files: ["esm/", "README.md", "LICENSE"],
    keywords: ["elasticsearch", "opensearch", "jdbc", "mybatis", "orm", "deno", "bun", "edge"],
  };
}

/**
 * Emits JavaScript, declarations and source maps for every file the entries reach.
 *
 * @param sources The entry files, relative to the project root.
 * @param esmDir Where to write.
 * @returns The written files, relative to `esmDir`.
 */
function emit(sources: readonly string[], esmDir: string): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    declaration: true,
    sourceMap: true,
    inlineSources: true,
    // Types are checked by `deno check` with Deno's libs; here the compiler only emits.
    noCheck: true,
    skipLibCheck: true,
    strict: true,
    useDefineForClassFields: true,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    rootDir: ROOT,
    outDir: esmDir,
    newLine: ts.NewLineKind.LineFeed,
  };
  const program = ts.createProgram(sources.map((s) => join(ROOT, s)), options);
  const written: string[] = [];
  const result = program.emit(undefined, (file, text) => {
    // Declarations keep `.ts` specifiers; consumers resolve the emitted `.js` next to them.
    if (file.endsWith(".d.ts")) {
      text = text.replace(/(from\s+["']\.{1,2}\/[^"']*)\.ts(["'])/g, "$1.js$2");
    }
    Deno.mkdirSync(dirname(file), { recursive: true });
    Deno.writeTextFileSync(file, text);
    written.push(relative(esmDir, file));
  });
  const problems = result.diagnostics.map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, "\n")
  );
  if (result.emitSkipped || problems.length > 0) {
    throw new Error(`the TypeScript emit failed:\n${problems.join("\n")}`);
  }
  return written;
}

/**
 * Checks the emitted JavaScript: no test file, no `Deno.` code path, and no import that leaves the
 * package except `node:` built-ins (which only the runtime adapters use).
 *
 * @param esmDir The emitted tree.
 * @param files The written files, relative to it.
 * @returns One line per problem.
 */
export function auditOutput(esmDir: string, files: readonly string[]): string[] {
  const problems: string[] = [];
  for (const file of files.filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"))) {
    const text = Deno.readTextFileSync(join(esmDir, file));
    if (/_test\.(js|d\.ts)$/.test(file)) {
      problems.push(`${file}: test code in the package`);
    }
    const code = text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    if (file.endsWith(".js") && /\bDeno\s*\./.test(code)) problems.push(`${file}: uses Deno.*`);
    for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
      if (spec.startsWith(".") && spec.endsWith(".ts") && file.endsWith(".js")) {
        problems.push(`${file}: import of ${spec} was not rewritten to .js`);
      } else if (!spec.startsWith(".") && !spec.startsWith("node:")) {
        problems.push(`${file}: imports ${spec}, which the package does not ship`);
      }
    }
  }
  return problems;
}

/**
 * Ships the playground page with the bin (`searchvisitor --engine --playground`): its static files
 * and its bundle (minified, no source map), where `esm/playground/server_node.js` looks for them.
 *
 * @param esmDir The emitted tree.
 */
async function shipPlayground(esmDir: string): Promise<void> {
  const from = join(ROOT, "playground", "static");
  const to = join(esmDir, "playground", "static");
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
  const bundle = join(esmDir, "dist", "playground", "app.js");
  await buildPlayground(toFileUrl(bundle), { sourceMap: false, minify: true });
}

/**
 * Builds the package into `outDir` (emptied first).
 *
 * @param outDir The output folder; `dist/npm` by default.
 * @returns The package.json written.
 */
export async function buildNpm(outDir: string = join(ROOT, "dist", "npm")): Promise<PackageJson> {
  const denoJson = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  const esmDir = join(outDir, "esm");
  const hasBin = await Deno.stat(join(ROOT, BIN_SOURCE)).then(() => true, () => false);
  const sources = entriesOf(denoJson).map((e) => e.source);
  if (hasBin && !sources.includes(BIN_SOURCE)) sources.push(BIN_SOURCE);
  const files = emit(sources, esmDir);
  const problems = auditOutput(esmDir, files);
  if (problems.length > 0) throw new Error(`the npm package is not clean:\n${problems.join("\n")}`);
  if (hasBin) {
    const bin = join(esmDir, BIN_SOURCE.replace(/\.ts$/, ".js"));
    const text = await Deno.readTextFile(bin);
    if (!text.startsWith("#!")) await Deno.writeTextFile(bin, `#!/usr/bin/env node\n${text}`);
    await Deno.chmod(bin, 0o755);
  }
  if (hasBin) await shipPlayground(esmDir);
  const pkg = packageJson(denoJson, hasBin);
  await Deno.writeTextFile(join(outDir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  await Deno.copyFile(join(ROOT, "README.md"), join(outDir, "README.md"));
  await Deno.copyFile(join(ROOT, "LICENSE"), join(outDir, "LICENSE"));
  return pkg;
}

if (import.meta.main) {
  const outDir = Deno.args[0] ? resolve(Deno.args[0]) : undefined;
  const pkg = await buildNpm(outDir);
  const where = relative(Deno.cwd(), outDir ?? join(ROOT, "dist", "npm")) || ".";
  console.log(
    `built ${pkg.name}@${pkg.version} in ${where}: ${Object.keys(pkg.exports as object).join(" ")}`,
  );
}
