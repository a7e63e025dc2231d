// Reads of the document APIs checked as Elasticsearch checks them: expected versions, _source
// that cannot be turned off on `_source`, and `_mget` items with their own versions.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, failure } from "../../tests/support/engine_call.ts";

Deno.test("get: version parsed, checked and compared (also on _source)", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/g/_doc/1", { a: 1 });
  assert.deepEqual(failure(await call(engine, "GET", "/g/_doc/1?version=abc")), [
    400,
    "illegal_argument_exception",
    "Failed to parse long parameter [version] with value [abc]",
  ]);
  assert.deepEqual(failure(await call(engine, "GET", "/nope/_doc/1?version=-5")), [
    400,
    "action_request_validation_exception",
    "Validation Failed: 1: illegal version value [-5] for version type [INTERNAL];",
  ], "checked before the index is looked up");
  assert.equal(
    (await call(engine, "GET", "/g/_source/1?version=1&version_type=lower")).error.reason,
    "No version type match [lower]",
  );
  assert.equal((await call(engine, "GET", "/g/_doc/1?version=1")).found, true);
  assert.equal((await call(engine, "GET", "/g/_source/1?version=2")).code, 409);
  engine.close();
});

Deno.test("_source API: _source=false refused, disabled source is not found", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/s/_doc/1", { a: 1 });
  assert.deepEqual(failure(await call(engine, "GET", "/s/_source/1?_source=false")), [
    400,
    "action_request_validation_exception",
    "Validation Failed: 1: fetching source can not be disabled;",
  ]);
  await call(engine, "PUT", "/off", { mappings: { _source: { enabled: false } } });
  await call(engine, "PUT", "/off/_doc/1", { a: 1 });
  assert.deepEqual(failure(await call(engine, "GET", "/off/_source/1")), [
    404,
    "resource_not_found_exception",
    "Source not found [off]/[1]",
  ]);
  assert.deepEqual(failure(await call(engine, "GET", "/off/_source/2")), [
    404,
    "resource_not_found_exception",
    "Document not found [off]/[2]",
  ]);
  engine.close();
});

Deno.test("_mget: per-item versions; ids and docs elements checked", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/m/_doc/1", { a: 1 });
  const got = await call(engine, "POST", "/m/_mget", {
    docs: [{ _id: "1", version: 1 }, { _id: "1", version: 4, version_type: "external" }],
  });
  assert.equal(got.docs[0].found, true);
  assert.equal(got.docs[1].error.type, "version_conflict_engine_exception");
  assert.equal(
    got.docs[1].error.reason,
    "[1]: version conflict, current version [1] is different than the one provided [4]",
  );
  assert.deepEqual(failure(await call(engine, "POST", "/m/_mget", { ids: ["1", null] })), [
    400,
    "illegal_argument_exception",
    "ids array element should only contain ids",
  ]);
  assert.deepEqual(failure(await call(engine, "POST", "/m/_mget", { docs: ["1"] })), [
    400,
    "illegal_argument_exception",
    "docs array element should include an object",
  ]);
  engine.close();
});

Deno.test("writes: negative versions, sequence numbers and primary terms refused", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/w/_doc/1", { a: 1 });
  assert.equal(
    (await call(engine, "PUT", "/w/_doc/1?version=-5&version_type=external", {})).error.reason,
    "Validation Failed: 1: illegal version value [-5] for version type [EXTERNAL];",
  );
  assert.equal(
    (await call(engine, "DELETE", "/w/_doc/1?version=-1&version_type=external_gte")).error.reason,
    "Validation Failed: 1: illegal version value [-1] for version type [EXTERNAL_GTE];",
  );
  assert.deepEqual(
    failure(await call(engine, "PUT", "/w/_doc/1?if_seq_no=-5&if_primary_term=1", {})),
    [400, "illegal_argument_exception", "sequence numbers must be non negative. got [-5]."],
  );
  assert.deepEqual(
    failure(await call(engine, "PUT", "/w/_doc/1?if_seq_no=0&if_primary_term=-1", {})),
    [400, "illegal_argument_exception", "primary term must be non negative. got [-1]"],
  );
  assert.equal((await call(engine, "GET", "/w/_source/1")).a, 1, "nothing was written");
  engine.close();
});

Deno.test("_explain: the document under get when _source or stored_fields ask", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/x", {
    mappings: { properties: { k: { type: "keyword", store: true } } },
  });
  await call(engine, "PUT", "/x/_doc/1?refresh=true", { k: "a", n: { m: 1, o: 2 } });
  const query = { query: { term: { k: "a" } } };
  const plain = await call(engine, "POST", "/x/_explain/1", query);
  assert.equal(plain.matched, true);
  assert.equal(plain.get, undefined);
  const all = await call(engine, "POST", "/x/_explain/1?_source=true", query);
  assert.deepEqual(all.get, {
    _seq_no: 0,
    _primary_term: 1,
    found: true,
    _source: { k: "a", n: { m: 1, o: 2 } },
  });
  const some = await call(engine, "POST", "/x/_explain/1?_source_includes=n&_source_excludes=n.o", {
    query: { term: { k: "b" } },
  });
  assert.equal(some.matched, false);
  assert.deepEqual(some.get._source, { n: { m: 1 } }, "present even when not matched");
  const stored = await call(engine, "POST", "/x/_explain/1?stored_fields=k", query);
  assert.deepEqual(stored.get.fields, { k: ["a"] });
  assert.equal(stored.get._source, undefined);
  assert.equal((await call(engine, "POST", "/x/_explain/1?_source=false", query)).get, undefined);
  engine.close();
});
