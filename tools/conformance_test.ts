import assert from "node:assert/strict";
import { CATCH_REGEX_FIX, CATCH_REGEX_LINE, parseSummary, perApi } from "./conformance.ts";

Deno.test("the runner's summary line is read", () => {
  assert.deepEqual(parseSummary("x\n250 passed, 40 failed, 19 skipped\n"), {
    passed: 250,
    failed: 40,
    skipped: 19,
  });
  assert.equal(parseSummary("no summary"), undefined);
});

Deno.test("sections are counted per API folder", () => {
  const counts = perApi([
    { path: "get/10_basic.yml", sections: [{ name: "a", status: "pass" }] },
    { path: "get/80_missing.yml", sections: [{ name: "b", status: "fail" }] },
    { path: "bulk/10_basic.yml", sections: [{ name: "c", status: "skip" }] },
  ]);
  assert.deepEqual(counts.get("get"), { pass: 1, fail: 1, skip: 0 });
  assert.deepEqual(counts.get("bulk"), { pass: 0, fail: 0, skip: 1 });
});

Deno.test("the correction targets one line of the shared runner, when it is present", async () => {
  let source: string;
  try {
    source = await Deno.readTextFile(new URL("../../shared/conformance/run.mjs", import.meta.url));
  } catch {
    return; // no shared folder beside this clone: nothing to check
  }
  const count = source.split(CATCH_REGEX_LINE).length - 1;
  assert.ok(count <= 1, `the line to correct occurs ${count} times`);
  assert.ok(!source.includes(CATCH_REGEX_FIX));
});
