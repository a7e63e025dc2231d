import assert from "node:assert/strict";
import { Engine, serve } from "../../engine/mod.ts";
import { mayWrite, noOracle, partsStates } from "./replay.ts";
import { classifyLines, type MirrorLine, wipingMirror } from "./yaml.ts";

// Real Elasticsearch 9.5.4 (the integration-test distribution, no x-pack mappers) answering
// `PUT /test {"mappings":{"properties":{"population":{"type":"unsigned_long"}}}}`.
const NO_UNSIGNED_LONG = {
  status: 400,
  text: JSON.stringify({
    error: {
      root_cause: [{
        type: "mapper_parsing_exception",
        reason:
          "The mapper type [unsigned_long] declared on field [population] does not exist. It might have been created within a future version or requires a plugin to be installed. Check the documentation.",
      }],
      type: "mapper_parsing_exception",
      reason:
        "Failed to parse mapping: The mapper type [unsigned_long] declared on field [population] does not exist. It might have been created within a future version or requires a plugin to be installed. Check the documentation.",
    },
    status: 400,
  }),
};
const CREATED = { status: 200, text: '{"acknowledged":true,"index":"test"}' };

function line(section: string, method: string, path: string, a: MirrorLine["a"], b = a) {
  return { section, method, path, a, b };
}

Deno.test("classifyLines: after an index the real engine could not create, its section has no oracle", () => {
  const s1 = "search/260_sort.yml :: unsigned_long sort";
  const s2 = "search/260_sort.yml :: half_float sort";
  const sorted = (v: number) => ({ status: 200, text: `{"hits":{"hits":[{"sort":[${v}]}]}}` });
  const lines = [
    line(s1, "PUT", "/test", NO_UNSIGNED_LONG, CREATED),
    line(s1, "POST", "/test/_search", sorted(194.375), sorted(194)),
    line(s2, "PUT", "/test", CREATED),
    line(s2, "POST", "/test/_search", sorted(194.375), sorted(194)),
  ];
  const out = classifyLines(lines, lines, { corpus: "yaml", partialOracle: true });
  assert.deepEqual(out.map((e) => e.outcome), ["no oracle", "no oracle", "identical", "different"]);
  // OpenSearch has the module: its refusal would be compared
  const os = classifyLines(lines, lines, { corpus: "yaml", partialOracle: false });
  assert.deepEqual(os.map((e) => e.outcome), ["different", "different", "identical", "different"]);
});

Deno.test("partsStates: a refused write the engine carried out, not a read or a shared refusal", () => {
  const step = (method: string, path: string) => ({ kind: "", method, path, repeatable: true });
  assert.equal(partsStates(step("PUT", "/test"), NO_UNSIGNED_LONG, CREATED), true);
  assert.equal(partsStates(step("PUT", "/test"), NO_UNSIGNED_LONG, NO_UNSIGNED_LONG), false);
  assert.equal(partsStates(step("POST", "/test/_search"), NO_UNSIGNED_LONG, CREATED), false);
  assert.equal(partsStates(step("GET", "/test/_doc/1"), NO_UNSIGNED_LONG, CREATED), false);
});

Deno.test("noOracle: the root path without the rest-root module, and a missing mapper type", () => {
  const opts = { corpus: "yaml", partialOracle: true };
  const step = (method: string, path: string) => ({ kind: "", method, path, repeatable: true });
  // real Elasticsearch 9.5.4's integration-test distribution, `GET /` and `HEAD /`
  const get = {
    status: 405,
    text:
      '{"error":"Incorrect HTTP method for uri [/] and method [GET], allowed: [DELETE]","status":405}',
  };
  assert.equal(noOracle(step("GET", "/"), get, opts), true);
  assert.equal(noOracle(step("GET", "/?pretty"), get, opts), true);
  assert.equal(noOracle(step("HEAD", "/"), { status: 405, text: "" }, opts), true);
  assert.equal(noOracle(step("GET", "/"), { status: 200, text: "{}" }, opts), false);
  assert.equal(noOracle(step("GET", "/"), get, { ...opts, partialOracle: false }), false);
  assert.equal(noOracle(step("GET", "/test"), { ...get, text: "" }, opts), false);
  assert.equal(noOracle(step("PUT", "/test"), NO_UNSIGNED_LONG, opts), true);
  const unknownType = {
    status: 400,
    text: NO_UNSIGNED_LONG.text.replaceAll("unsigned_long", "strnig"),
  };
  assert.equal(noOracle(step("PUT", "/test"), unknownType, opts), false);
});

Deno.test("wipingMirror: the runner's wildcard cleanup empties the engine, settings untouched", async () => {
  const engine = new Engine({ flavour: "elasticsearch", log: () => {} });
  const server = await serve(engine, { port: 0 });
  const mirror = wipingMirror(server.url);
  try {
    const ask = async (method: string, path: string, body?: string) => {
      const res = await fetch(mirror.url + path, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body,
      });
      return { status: res.status, text: await res.text() };
    };
    assert.equal((await ask("PUT", "/only_in_engine")).status, 200);
    // Elasticsearch refuses the wildcard itself (destructive_requires_name), as the real one does
    const wipe = await ask("DELETE", "/*?expand_wildcards=open%2Cclosed%2Chidden");
    assert.equal(wipe.status, 400);
    assert.equal((await ask("HEAD", "/only_in_engine")).status, 404);
    assert.deepEqual(JSON.parse((await ask("GET", "/_cluster/settings")).text), {
      persistent: {},
      transient: {},
    });
    // anything else passes through unchanged
    assert.equal((await ask("PUT", "/kept")).status, 200);
    assert.equal((await ask("DELETE", "/*")).status, 400);
    assert.equal((await ask("HEAD", "/kept")).status, 200);
  } finally {
    await mirror.close();
    await server.close();
    engine.close();
  }
});

Deno.test("mayWrite: writes by any method, reads by POST are not", () => {
  assert.equal(mayWrite("POST", "/_reindex?wait_for_completion=false"), true);
  assert.equal(mayWrite("POST", "/idx/_update_by_query"), true);
  assert.equal(mayWrite("PUT", "/_scripts/s1"), true);
  assert.equal(mayWrite("POST", "/idx/_update/1"), true);
  assert.equal(mayWrite("GET", "/_reindex"), false);
  assert.equal(mayWrite("HEAD", "/idx"), false);
  assert.equal(mayWrite("POST", "/idx/_search/template"), false);
  assert.equal(mayWrite("POST", "/_render/template"), false);
  assert.equal(mayWrite("POST", "/idx/_rank_eval"), false);
  assert.equal(mayWrite("POST", "/_scripts/painless/_execute"), false);
  assert.equal(mayWrite("POST", "/idx/_search?q=x"), false);
});
