import assert from "node:assert/strict";
import { join } from "node:path";
import { auditOutput, entriesOf, packageJson } from "./build_npm.ts";

Deno.test("build_npm: every deno.json export becomes a subpath export with types", () => {
  const deno = {
    name: "@s/s",
    version: "1.2.3",
    exports: { ".": "./mod.ts", "./driver": "./driver/mod.ts", "./xml": "./xml/mod.ts" },
  };
  assert.deepEqual(entriesOf(deno).map((e) => e.source), ["mod.ts", "driver/mod.ts", "xml/mod.ts"]);
  const pkg = packageJson(deno, true);
  assert.deepEqual(pkg.exports, {
    ".": { types: "./esm/mod.d.ts", default: "./esm/mod.js" },
    "./driver": { types: "./esm/driver/mod.d.ts", default: "./esm/driver/mod.js" },
    "./xml": { types: "./esm/xml/mod.d.ts", default: "./esm/xml/mod.js" },
    "./package.json": "./package.json",
  });
  assert.deepEqual(pkg.engines, { node: ">=20" });
  assert.deepEqual(pkg.bin, { searchvisitor: "./esm/cli/main.js" });
  assert.equal(pkg.dependencies, undefined);
  assert.equal(packageJson(deno, false).bin, undefined);
  assert.deepEqual(entriesOf({ exports: "./mod.ts" }), [{ subpath: ".", source: "mod.ts" }]);
});

Deno.test("build_npm: a Deno-only adapter (a *_deno.ts export) stays out of the package", () => {
  const deno = {
    name: "@s/s",
    version: "1.2.3",
    exports: { "./driver": "./driver/mod.ts", "./contrib/fetch_deno": "./contrib/fetch_deno.ts" },
  };
  assert.deepEqual(entriesOf(deno).map((e) => e.subpath), ["./driver"]);
  assert.deepEqual(Object.keys(packageJson(deno, false).exports as object), [
    "./driver",
    "./package.json",
  ]);
});

Deno.test("build_npm: the audit refuses Deno code, foreign imports, unrewritten .ts and tests", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files: Record<string, string> = {
      "ok.js":
        'import { a } from "./b.js";\nimport { createServer } from "node:http";\n// Deno.serve in a comment\n',
      "deno.js": "export const s = Deno.serve;\n",
      "npm.js": 'import x from "left-pad";\n',
      "ts.js": 'export * from "./c.ts";\n',
      "x_test.js": "",
      "strings.js": 'const t = "a from \\"b\\""; export { t };\n',
    };
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(join(dir, name), text);
    }
    assert.deepEqual(auditOutput(dir, Object.keys(files)), [
      "deno.js: uses Deno.*",
      "npm.js: imports left-pad, which the package does not ship",
      "ts.js: import of ./c.ts was not rewritten to .js",
      "x_test.js: test code in the package",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
