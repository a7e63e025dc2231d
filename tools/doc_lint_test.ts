import assert from "node:assert/strict";
import { problems } from "./doc_lint.ts";

Deno.test("doc_lint: reads each problem of deno doc --lint, with or without colours", () => {
  const output = [
    "\x1b[1m\x1b[31merror[missing-jsdoc]\x1b[0m: \x1b[1mexported symbol is missing JSDoc documentation\x1b[0m",
    "   \x1b[38;5;12m-->\x1b[0m \x1b[36m/w/x/template/jdbc_template.ts\x1b[0m:\x1b[33m60\x1b[0m:\x1b[33m3\x1b[0m",
    "error[private-type-ref]: public type 'f' references private type 'T'",
    "   --> /w/x/cli/output.ts:102:1",
    "error: Found 2 documentation lint errors.",
  ].join("\n");
  assert.deepEqual(problems(output), [
    "missing-jsdoc template/jdbc_template.ts:60:3: exported symbol is missing JSDoc documentation",
    "private-type-ref cli/output.ts:102:1: public type 'f' references private type 'T'",
  ]);
  assert.deepEqual(problems("Checked 7 files\n"), []);
});
