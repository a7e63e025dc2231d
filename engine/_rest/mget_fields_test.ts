// Unknown fields of a multi-get `docs` element, refused as the real engines refuse them. Expected
// values are the answers of real Elasticsearch 9.5.4 and OpenSearch 3.8.0 (the same in both).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, failure } from "../../tests/support/engine_call.ts";

Deno.test("mget: an unknown docs field is a parse_exception naming it (both engines)", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    const mget = async (doc: Record<string, unknown>) =>
      await call(engine, "POST", "/_mget", { docs: [{ _index: "x", _id: 1, ...doc }] });
    const unknown = (name: string) => [
      400,
      "parse_exception",
      `failed to parse multi get request. unknown field [${name}]`,
    ];
    assert.deepEqual(failure(await mget({ _routing: "a" })), unknown("_routing"));
    assert.deepEqual(failure(await mget({ _version: 1 })), unknown("_version"));
    assert.deepEqual(failure(await mget({ foo: [1] })), unknown("foo"));
    assert.deepEqual(failure(await mget({ foo: { a: 1 } })), unknown("a"));
    assert.deepEqual(failure(await mget({ foo: { a: { b: 1 } } })), unknown("b"));
    assert.deepEqual(failure(await mget({ foo: {} })), [
      400,
      "illegal_argument_exception",
      "docs array element should include an object",
    ]);
    // a null is skipped: the document is looked up (index x is missing)
    const skipped = await mget({ foo: null });
    assert.equal(skipped.docs[0].error.type, "index_not_found_exception");
    // routing and version are known
    const known = await mget({ routing: "a", version: 1 });
    assert.equal(known.docs[0].error.type, "index_not_found_exception");
    engine.close();
  }
});
