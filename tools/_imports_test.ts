import assert from "node:assert/strict";
import { importsOf, resolveImport } from "./_imports.ts";

Deno.test("every kind of import is listed with its line", () => {
  const text = [
    'import { a } from "./a.ts";',
    'import type { B } from "../b.ts";',
    'export * from "./c.ts";',
    'export { d } from "./d.ts";',
    'import "./side_effect.ts";',
    'const e = await import("./e.ts");',
    "// import { f } from './f.ts';",
    'import {\n  g,\n} from "node:assert";',
  ].join("\n");
  assert.deepEqual(importsOf(text), [
    { spec: "./a.ts", line: 1 },
    { spec: "../b.ts", line: 2 },
    { spec: "./c.ts", line: 3 },
    { spec: "./d.ts", line: 4 },
    { spec: "./side_effect.ts", line: 5 },
    { spec: "./e.ts", line: 6 },
    { spec: "node:assert", line: 8 },
  ]);
});

Deno.test("relative specifiers resolve against the importing file", () => {
  assert.equal(
    resolveImport("driver/jdbc/connection.ts", "../wire/transport.ts"),
    "driver/wire/transport.ts",
  );
  assert.equal(resolveImport("mod.ts", "./driver/mod.ts"), "driver/mod.ts");
});
