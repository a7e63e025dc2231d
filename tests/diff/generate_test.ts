import assert from "node:assert/strict";
import { documents, requests, setup } from "./generate.ts";
import { differences } from "./compare.ts";
import { classify } from "./replay.ts";

Deno.test("the generated corpus is the same for the same seed, another for another", () => {
  assert.deepEqual(requests(7, 50, "opensearch"), requests(7, 50, "opensearch"));
  assert.notDeepEqual(requests(7, 50, "opensearch"), requests(8, 50, "opensearch"));
  assert.deepEqual(documents(1, 20, "elasticsearch"), documents(1, 20, "elasticsearch"));
  assert.equal(setup(1, 20, "opensearch").length, 5);
  assert.ok(documents(1, 60, "elasticsearch").some((d) => Array.isArray(d.vec)));
  assert.ok(!documents(1, 60, "opensearch").some((d) => "vec" in d));
});

Deno.test("classify: unstable, no oracle, unsupported and identical answers", () => {
  const step = { kind: "q", method: "POST", path: "/i/_search", repeatable: true };
  const ok = { status: 200, text: '{"took":1,"hits":{"total":3}}' };
  const opts = { corpus: "generated", partialOracle: true };
  assert.equal(
    classify(step, ok, { status: 200, text: '{"hits":{"total":4}}' }, ok, opts).outcome,
    "unstable",
  );
  assert.equal(
    classify(step, ok, ok, { status: 200, text: '{"took":9,"hits":{"total":3}}' }, opts).outcome,
    "identical",
  );
  const refused = {
    status: 400,
    text: '{"error":{"type":"parsing_exception","reason":"unknown query [geo_distance]"}}',
  };
  assert.equal(classify(step, ok, ok, refused, opts).outcome, "unsupported");
  const painless = {
    status: 400,
    text: '{"error":{"reason":"script_lang not supported [painless]"}}',
  };
  assert.equal(classify(step, painless, painless, ok, opts).outcome, "no oracle");
  assert.deepEqual(differences(ok, refused), [{ kind: "status", where: "200 vs 400" }]);
});
