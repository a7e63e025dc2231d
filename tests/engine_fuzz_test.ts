// A short fuzz pass on every test run: requests from the engine's route table and mutated from
// the conformance suite's bodies (when the suite is there); no 5xx, hang or crash is allowed.
// `deno task fuzz:engine -- --requests N` runs a long one.

import assert from "node:assert/strict";
import { runFuzz } from "./support/engine_fuzz.ts";

Deno.test({
  name: "engine fuzz: a short pass yields no 5xx, hang or crash",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const shared = Deno.env.get("CONFORMANCE_DIR") ??
      new URL("../../shared/conformance", import.meta.url).pathname;
    const report = await runFuzz({
      requests: 400,
      seed: 20261125,
      budgetMs: 10_000,
      corpusDir: `${shared}/opensearch`,
    });
    assert.equal(report.requests, 400);
    assert.deepEqual(report.samples, []);
    assert.equal(report.serverErrors + report.hangs + report.crashes, 0);
    assert.ok(Object.keys(report.statuses).length > 3, "the requests reach many outcomes");
  },
});
