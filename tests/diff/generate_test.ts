import assert from "node:assert/strict";
import { documents, requests, setup } from "./generate.ts";
import { differences } from "./compare.ts";
import { classify, type Exchange, generatedIds, noOracle, settleRuns, withheld } from "./replay.ts";

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

Deno.test("noOracle: a missing module's route, or another route taking its path", () => {
  const opts = { corpus: "spec", partialOracle: true };
  const step = (method: string, path: string) => ({ kind: "k", method, path, repeatable: false });
  // Real Elasticsearch 9.5.4's integration-test distribution (no reindex, no painless module):
  // GET /_reindex → 400 invalid_index_name_exception "Invalid index name [_reindex], must not
  // start with '_'."; POST /_scripts/painless/_execute → 400 illegal_argument_exception "must
  // specify lang for stored script" (the path read as a stored script named `painless`).
  const invalid = {
    status: 400,
    text:
      '{"error":{"type":"invalid_index_name_exception","reason":"Invalid index name [_reindex]"}}',
  };
  const lang = {
    status: 400,
    text:
      '{"error":{"type":"illegal_argument_exception","reason":"must specify lang for stored script"}}',
  };
  assert.equal(noOracle(step("GET", "/_reindex"), invalid, opts), true);
  assert.equal(noOracle(step("GET", "/_reindex?detailed=true"), invalid, opts), true);
  assert.equal(noOracle(step("POST", "/_scripts/painless/_execute"), lang, opts), true);
  assert.equal(noOracle(step("POST", "/i/_update_by_query"), invalid, opts), true);
  // PUT /_scripts/my-stored-script {"script":{"lang":"painless",…}} → 400 "unable to put stored
  // script with unsupported lang [painless]".
  const unsupported = {
    status: 400,
    text: '{"error":{"reason":"unable to put stored script with unsupported lang [painless]"}}',
  };
  assert.equal(noOracle(step("PUT", "/_scripts/my-stored-script"), unsupported, opts), true);
  // A pipeline aggregation of the aggregations module: 400 parsing_exception "Unknown aggregation
  // type [derivative]" (line 1, col 205 in the generated request).
  const derivative = {
    status: 400,
    text: '{"error":{"type":"parsing_exception","reason":"Unknown aggregation type [derivative]"}}',
  };
  assert.equal(noOracle(step("POST", "/diff-multi/_search"), derivative, opts), true);
  // Elsewhere, or answered, or meant to fail, or against a complete distribution: compared.
  assert.equal(noOracle(step("PUT", "/_scripts/my-script"), lang, opts), false);
  assert.equal(noOracle(step("GET", "/_reindex"), { status: 200, text: "{}" }, opts), false);
  assert.equal(noOracle({ ...step("GET", "/_reindex"), onPurpose: true }, invalid, opts), false);
  assert.equal(
    noOracle(step("GET", "/_reindex"), invalid, { ...opts, partialOracle: false }),
    false,
  );
});

Deno.test("withheld: a write the real engine was too busy for is not sent to the engine", () => {
  const opts = { corpus: "generated", partialOracle: false };
  const write = { kind: "write:index", method: "PUT", path: "/i/_doc/1", repeatable: false };
  const read = { ...write, kind: "q", method: "POST", path: "/i/_search", repeatable: true };
  // Real OpenSearch 3.8.0 under load: 429 circuit_breaking_exception (its parent breaker).
  const busy = {
    status: 429,
    text: '{"error":{"type":"circuit_breaking_exception"},"status":429}',
  };
  assert.equal(withheld(write, busy, opts), true);
  assert.equal(withheld(write, { status: 0, text: "TimeoutError" }, opts), true);
  assert.equal(withheld(read, busy, opts), false);
  assert.equal(withheld(write, { status: 201, text: "{}" }, opts), false);
});

Deno.test("settleRuns: two runs' real answers decide what is unstable", () => {
  const rec = (path: string, real: string, engine: string): Exchange => ({
    corpus: "spec",
    kind: "spec:x",
    method: "GET",
    path,
    real: { status: 200, text: real },
    engine: { status: 200, text: engine },
    outcome: real === engine ? "identical" : "different",
    differences: real === engine ? [] : [{ kind: "value", where: "n" }],
  });
  const first = [rec("/a", '{"n":1}', '{"n":2}'), rec("/b", '{"n":1}', '{"n":1}')];
  // the real answers agree (took is dropped): the engine's difference stays a difference
  assert.deepEqual(
    settleRuns(first, [rec("/a", '{"n":1,"took":5}', "{}"), rec("/b", '{"n":1}', "{}")])
      .map((r) => r.outcome),
    ["different", "identical"],
  );
  // they differ, or the second run asked something else there: unstable, with no differences
  const settled = settleRuns(first, [rec("/a", '{"n":3}', "{}"), rec("/c", '{"n":1}', "{}")]);
  assert.deepEqual(settled.map((r) => r.outcome), ["unstable", "unstable"]);
  assert.deepEqual(settled[0]!.differences, []);
  assert.equal(settleRuns(first, []).every((r) => r.outcome === "unstable"), true);
});

Deno.test("generatedIds: the ids the real engine made for documents given without one", () => {
  const bulk = {
    kind: "spec:_global/bulk",
    method: "POST",
    path: "/_bulk?refresh=true",
    body: '{"index":{"_index":"t"}}\n{"a":1}\n{"delete":{"_index":"t","_id":"9"}}\n' +
      '{"create":{"_index":"t","_id":"c"}}\n{"a":2}\n{"update":{"_index":"t","_id":"u"}}\n' +
      '{"doc":{"a":3}}\n{"create":{"_index":"t"}}\n{"a":4}\n',
    repeatable: false,
  };
  const items = [
    { index: { _id: "GEN1aaaaaaaaaaaaaaaa" } },
    { delete: { _id: "9" } },
    { create: { _id: "c" } },
    { update: { _id: "u" } },
    { create: { _id: "GEN2bbbbbbbbbbbbbbbb" } },
  ];
  const real = { status: 200, text: JSON.stringify({ errors: false, items }) };
  assert.deepEqual(generatedIds(bulk, real), ["GEN1aaaaaaaaaaaaaaaa", "GEN2bbbbbbbbbbbbbbbb"]);
  // a write naming its id, or a read, generated none
  const named = { ...bulk, path: "/t/_doc/1", body: "{}" };
  assert.deepEqual(generatedIds(named, { status: 201, text: '{"_id":"1"}' }), []);
  const read = { ...bulk, method: "GET", path: "/t/_doc/", body: undefined };
  assert.deepEqual(generatedIds(read, { status: 200, text: '{"_id":"x"}' }), []);
  // a refused write generated none
  const refused = { ...bulk, path: "/t/_doc" };
  assert.deepEqual(generatedIds(refused, { status: 400, text: '{"error":{}}' }), []);
});
