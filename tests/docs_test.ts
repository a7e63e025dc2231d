// The documentation checked against the code: the error catalogue of docs/errors.md lists every
// exported error class and every error code, docs/checking.md every diagnostic code of the
// checker (and neither lists what no longer exists), relative links in
// README.md and docs/ reach a file, and every access-style guide has a plain JavaScript example.
// (The code blocks themselves run as doc tests: `deno test --doc` runs every ts/js block of docs/.)
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));

/** Exported error classes by name, over every module of deno.json's `exports` but the programs. */
async function exportedErrorClasses(): Promise<Set<string>> {
  const exports = JSON.parse(await read("deno.json")).exports as Record<string, string>;
  const names = new Set<string>();
  for (const [entry, path] of Object.entries(exports)) {
    if (entry === "./cli/main") continue; // a program: importing it runs it
    const mod = await import(new URL(path, ROOT).href) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value === "function" && value.prototype instanceof Error) names.add(name);
    }
  }
  return names;
}

/** Every error code the library rooms define: `…ErrorCode` unions and `code = "…"` fields. */
async function errorCodes(): Promise<Set<string>> {
  const codes = new Set<string>();
  for (
    const room of ["driver", "template", "lambda", "mapper", "xml", "migrate", "cli", "contrib"]
  ) {
    for await (const file of walk(new URL(`${room}/`, ROOT))) {
      const text = await Deno.readTextFile(file);
      for (const union of text.matchAll(/type \w*ErrorCode =([^;]*);/g)) {
        for (const m of union[1]!.matchAll(/"([A-Z_]+)"/g)) codes.add(m[1]!);
      }
      for (const m of text.matchAll(/readonly code(?:: \w+)? = "([A-Z_]+)"/g)) codes.add(m[1]!);
    }
  }
  return codes;
}

async function* walk(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* walk(url);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) yield url;
  }
}

/** The first two cells of the catalogue's rows: class (or "(cause only)") and code. */
function catalogue(markdown: string): { classes: Set<string>; codes: Set<string> } {
  const section = markdown.slice(markdown.indexOf("## Catalogue"));
  const classes = new Set<string>();
  const codes = new Set<string>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 4 || cells[1] === "class" || /^-+$/.test(cells[1]!)) continue;
    const cls = /^`(\w+)`$/.exec(cells[1]!);
    if (cls) classes.add(cls[1]!);
    const code = /^`([A-Z_]+)`$/.exec(cells[2]!);
    if (code) codes.add(code[1]!);
  }
  return { classes, codes };
}

Deno.test("docs/errors.md lists every exported error class and every code, and no other", async () => {
  const doc = catalogue(await read("docs/errors.md"));
  const classes = await exportedErrorClasses();
  assert.ok(classes.has("ResponseError") && classes.has("XmlSyntaxError")); // the scan sees them
  assert.deepEqual(
    [...classes].filter((c) => !doc.classes.has(c)),
    [],
    "classes missing from docs",
  );
  assert.deepEqual(
    [...doc.classes].filter((c) => !classes.has(c)),
    [],
    "classes no longer exported",
  );
  const codes = await errorCodes();
  assert.ok(codes.has("OUTCOME_UNKNOWN") && codes.has("MAPPER") && codes.has("MAPPER_LOAD"));
  assert.deepEqual([...codes].filter((c) => !doc.codes.has(c)), [], "codes missing from docs");
  assert.deepEqual([...doc.codes].filter((c) => !codes.has(c)), [], "codes that no longer exist");
});

Deno.test("docs/errors.md: each class's row gives the code its instances carry", async () => {
  const text = await read("docs/errors.md");
  const driver = await import(new URL("driver/mod.ts", ROOT).href);
  const samples: [string, { code: string }][] = [
    ["TimeoutError", new driver.TimeoutError("t")],
    ["ConnectionError", new driver.ConnectionError("c")],
    ["IllegalStateError", new driver.IllegalStateError("s")],
    ["UnsupportedFeatureError", new driver.UnsupportedFeatureError("f")],
    ["ResponseError", new driver.ResponseError(500, {})],
  ];
  for (const [name, error] of samples) {
    assert.match(text, new RegExp(`\\| \`${name}\` +\\| \`${error.code}\` `), name);
  }
});

/** The codes of the checker's diagnostics: `report(run, "…"` calls and `code: "…"` fields. */
async function diagnosticCodes(): Promise<Set<string>> {
  const codes = new Set<string>();
  for await (const file of walk(new URL("check/", ROOT))) {
    if (file.pathname.endsWith("/_spec_data.ts")) continue;
    const text = await Deno.readTextFile(file);
    for (const m of text.matchAll(/report\(\s*\w+,\s*"([a-z-]+)"/g)) codes.add(m[1]!);
    for (const m of text.matchAll(/\bcode: "([a-z-]+)"/g)) codes.add(m[1]!);
  }
  return codes;
}

Deno.test("docs/checking.md lists every diagnostic code the checker reports, and no other", async () => {
  const doc = new Set(
    [...(await read("docs/checking.md")).matchAll(/^\| `([a-z-]+)` +\|/gm)].map((m) => m[1]!),
  );
  const codes = await diagnosticCodes();
  assert.ok(codes.has("syntax") && codes.has("field-value") && codes.has("unknown-key"));
  assert.deepEqual([...codes].filter((c) => !doc.has(c)), [], "codes missing from docs");
  assert.deepEqual([...doc].filter((c) => !codes.has(c)), [], "codes that no longer exist");
});

/**
 * Docs other branches write; a link to one is accepted while it is missing here. Once the file
 * exists, its links are checked like any other.
 */
const WRITTEN_ELSEWHERE = new Set(["docs/coming-from-dbvisitor.md", "docs/real-clusters.md"]);

Deno.test("relative links in README.md and docs/ reach a file", async () => {
  const pages = ["README.md"];
  for await (const e of Deno.readDir(new URL("docs/", ROOT))) {
    if (e.name.endsWith(".md")) pages.push(`docs/${e.name}`);
  }
  const broken: string[] = [];
  for (const page of pages) {
    const text = (await read(page)).replace(/```[\s\S]*?```/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.split("#")[0]!;
      if (target === "" || /^[a-z]+:/.test(target)) continue;
      const url = new URL(target, new URL(page, ROOT));
      const relative = url.href.slice(ROOT.href.length);
      try {
        await Deno.stat(url);
      } catch {
        if (!WRITTEN_ELSEWHERE.has(relative)) broken.push(`${page}: ${m[1]}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test("every access-style guide shows the typed and the plain JavaScript form", async () => {
  for (
    const guide of [
      "driver",
      "jdbc-template",
      "lambda-template",
      "base-mapper",
      "annotation-mappers",
      "xml-mappers",
    ]
  ) {
    const text = await read(`docs/${guide}.md`);
    assert.match(text, /^```ts$/m, guide);
    assert.match(text, /^```js$/m, guide);
    const js = [...text.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).join("\n");
    assert.doesNotMatch(
      js,
      /^\s*@\w+|^\s*await using |: (string|number)\b/m,
      `${guide}: plain JS only`,
    );
  }
});

Deno.test("docs/install.md's import map names every export of deno.json, at its file", async () => {
  const exports = JSON.parse(await read("deno.json")).exports as Record<string, string>;
  const page = await read("docs/install.md");
  const json = /<!-- install: file my-deno-app\/deno\.json -->\s*```json\n([\s\S]*?)\n```/.exec(
    page,
  );
  assert.ok(json, "the page writes my-deno-app/deno.json");
  const expected: Record<string, string> = {};
  for (const [entry, path] of Object.entries(exports)) {
    if (entry === "./cli/main") continue; // a program, run with deno task cli
    expected[`@searchvisitor/searchvisitor${entry.slice(1)}`] = `../searchvisitor/${path.slice(2)}`;
  }
  assert.deepEqual(JSON.parse(json[1]!).imports, expected);
});

Deno.test("the README's install commands are lines CI runs in docs/install.md", async () => {
  const readme = await read("README.md");
  const section = readme.slice(
    readme.indexOf("## Install"),
    readme.indexOf("\n## ", readme.indexOf("## Install") + 1),
  );
  const block = /```sh\n([\s\S]*?)\n```/.exec(section);
  assert.ok(block, "the README's Install section has a sh block");
  const { installSteps } = await import("../tools/install_paths.ts");
  const run = new Set(
    installSteps(await read("docs/install.md")).filter((s) => s.kind === "run")
      .flatMap((s) => s.text.split("\n")),
  );
  const lines = block[1]!.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
  assert.ok(lines.length >= 5);
  assert.deepEqual(lines.filter((l) => !run.has(l)), []);
  assert.match(section, /Not yet published/);
});
