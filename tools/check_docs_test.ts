import assert from "node:assert/strict";
import { docArgs, exportedModules } from "./check_docs.ts";

Deno.test("every exported module of deno.json is linted once", () => {
  const json = JSON.stringify({
    exports: { ".": "./mod.ts", "./driver": "./driver/mod.ts", "./x": "./mod.ts" },
  });
  assert.deepEqual(exportedModules(json), ["./mod.ts", "./driver/mod.ts"]);
  assert.deepEqual(exportedModules(JSON.stringify({ exports: "./mod.ts" })), ["./mod.ts"]);
  assert.deepEqual(exportedModules("{}"), []);
});

Deno.test("docArgs: the lint, or the HTML reference of the same modules into a folder", () => {
  assert.deepEqual(docArgs(["./mod.ts"]), ["doc", "--lint", "./mod.ts"]);
  assert.deepEqual(docArgs(["./mod.ts", "./driver/mod.ts"], "dist/api"), [
    "doc",
    "--html",
    "--name=searchvisitor",
    "--output=dist/api",
    "./mod.ts",
    "./driver/mod.ts",
  ]);
});
