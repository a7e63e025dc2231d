import assert from "node:assert/strict";
import { strictFiles } from "./check_strict.ts";

Deno.test("the strict rooms that exist are checked; missing rooms and other folders are not", () => {
  const files = [
    "driver/mod.ts",
    "driver/wire/transport.ts",
    "template/mod.ts",
    "engine/mod.ts",
    "tests/support/fake_es.ts",
    "xml/README.md",
    "mod.ts",
  ];
  assert.deepEqual(strictFiles(files), [
    "driver/mod.ts",
    "driver/wire/transport.ts",
    "template/mod.ts",
  ]);
  assert.deepEqual(strictFiles([]), []);
});
