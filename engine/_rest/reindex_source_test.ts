import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function refused(engine: Engine, body: unknown, query = ""): Promise<[string, string]> {
  const res = await call(engine, "POST", `/_reindex${query}`, body);
  assert.equal(res.code >= 400, true, JSON.stringify(body));
  return [res.error.type, res.error.reason];
}

Deno.test("_reindex source: parsed by the search-source rules, then validated in Elasticsearch's order", async () => {
  const engine = new Engine();
  assert.deepEqual(await refused(engine, { source: { junk: {} } }), [
    "parsing_exception",
    "Unknown key for a START_OBJECT in [junk].",
  ]);
  assert.deepEqual(await refused(engine, { source: { junk: 1 }, dest: { index: "d" } }), [
    "parsing_exception",
    "Unknown key for a VALUE_NUMBER in [junk].",
  ]);
  assert.deepEqual(await refused(engine, { source: { size: "cat" }, dest: { index: "d" } }), [
    "number_format_exception",
    'For input string: "cat"',
  ]);
  // A bad `conflicts` is a parse error: it comes before the missing indices.
  assert.deepEqual(await refused(engine, { conflicts: "cat" }), [
    "illegal_argument_exception",
    'conflicts may only be "proceed" or "abort" but was [cat]',
  ]);
  assert.deepEqual(await refused(engine, { source: { from: 1 }, dest: { index: "d" } }), [
    "action_request_validation_exception",
    "Validation Failed: 1: from is not supported in this context;2: use _all if you really want to copy from all existing indexes;",
  ]);
  assert.deepEqual(
    await refused(engine, { source: { index: "s", stored_fields: ["_id"] }, dest: { index: "d" } }),
    [
      "action_request_validation_exception",
      "Validation Failed: 1: stored_fields is not supported in this context;",
    ],
  );
  assert.deepEqual(
    await refused(engine, { source: { index: "s", _source: false }, dest: { index: "d" } }),
    [
      "action_request_validation_exception",
      "Validation Failed: 1: _source:false is not supported in this context;",
    ],
  );
  engine.close();
});

Deno.test("_reindex source: remote is parsed, then refused as not whitelisted", async () => {
  const engine = new Engine();
  const remote = (spec: unknown) => ({
    source: { remote: spec, index: "t" },
    dest: { index: "d" },
  });
  assert.deepEqual(await refused(engine, remote({ host: "http://badremote:9200" })), [
    "illegal_argument_exception",
    "[badremote:9200] not whitelisted in reindex.remote.whitelist",
  ]);
  assert.deepEqual(await refused(engine, remote({ host: "badremote", weird: "stuff" })), [
    "illegal_argument_exception",
    "[host] must be of the form [scheme]://[host]:[port](/[pathPrefix])? but was [badremote]",
  ]);
  assert.deepEqual(
    await refused(
      engine,
      remote({ host: "http://okremote:9200", weird: "stuff", badkey: "is bad" }),
    ),
    ["illegal_argument_exception", "Unsupported fields in [remote]: [weird,badkey]"],
  );
  const [type] = await refused(
    engine,
    remote({ host: "http://ok:9200", socket_timeout: "borked" }),
  );
  assert.equal(type, "number_format_exception");
  engine.close();
});

Deno.test("_reindex: a source index without _source cannot be copied", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/test", { mappings: { _source: { enabled: false } } });
  await call(engine, "PUT", "/test/_doc/1?refresh=true", { age: 23 });
  assert.deepEqual(await refused(engine, { source: { index: "test" }, dest: { index: "dest" } }), [
    "illegal_argument_exception",
    "[test][_doc][1] didn't store _source",
  ]);
  engine.close();
});
