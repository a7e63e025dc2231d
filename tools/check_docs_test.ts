import assert from "node:assert/strict";
import { exportedModules } from "./check_docs.ts";

Deno.test("every exported module of deno.json is linted once", () => {
  const json = JSON.stringify({
    exports: { ".": "./mod.ts", "./driver": "./driver/mod.ts", "./x": "./mod.ts" },
  });
  assert.deepEqual(exportedModules(json), ["./mod.ts", "./driver/mod.ts"]);
  assert.deepEqual(exportedModules(JSON.stringify({ exports: "./mod.ts" })), ["./mod.ts"]);
  assert.deepEqual(exportedModules("{}"), []);
});
