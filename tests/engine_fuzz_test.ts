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

Deno.test({
  name: "engine fuzz: a short hostile pass answers every request within the budget",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const report = await runFuzz({
      requests: 35,
      seed: 20261202,
      budgetMs: 10_000,
      hostile: 1,
      // A short form: the long field and the sizes shrunk (tests/engine_safety_test.ts sends
      // each shape at full size; `deno task fuzz:engine` runs the full corpus).
      hostileWords: 20_000,
      hostileScale: 0.05,
      // a small heap, so that the larger of the shrunk bulks still meet indexing pressure
      engineHeapBytes: 64 * 2 ** 20,
      maxHeapBytes: 2 ** 31,
    });
    assert.deepEqual(report.samples, []);
    assert.equal(
      report.serverErrors + report.hangs + report.crashes + report.escapes + report.heapOverruns,
      0,
    );
    assert.ok(Object.keys(report.shapes).length >= 6, "most hostile shapes were sent");
    assert.ok((report.statuses["429"] ?? 0) > 0, "a bulk met indexing pressure");
  },
});
