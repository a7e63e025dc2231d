import assert from "node:assert/strict";
import { fuzz } from "./fuzz_xml.ts";

Deno.test("fuzz:xml short pass: 20,000 generated and mutated files and expressions give only typed errors", () => {
  const report = fuzz(20_000, 7);
  assert.deepEqual(report.findings, []);
  assert.equal(report.untyped, 0);
  assert.equal(report.inputs, 20_000);
  // The generator reaches every stage: accepted inputs and each kind of typed error.
  assert.ok(report.accepted > 1000, `accepted ${report.accepted}`);
  for (const code of ["XML_SYNTAX", "XML_ENTITY", "MAPPER_DEFINITION", "CONDITION", "BIND"]) {
    assert.ok((report.rejected[code] ?? 0) > 10, `${code}: ${report.rejected[code]}`);
  }
});
