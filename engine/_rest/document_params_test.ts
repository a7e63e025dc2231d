// Write parameters of the document APIs as Elasticsearch checks them: ingest pipelines refused,
// create without versions, compare-and-write rules, timeouts, alias routing.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, failure, type Reply as Json } from "../../tests/support/engine_call.ts";

Deno.test("pipeline: refused as missing (index, bulk parameter, bulk item); _none writes", async () => {
  const engine = new Engine();
  assert.deepEqual(failure(await call(engine, "PUT", "/p/_doc/1?pipeline=enrich", { a: 1 })), [
    400,
    "illegal_argument_exception",
    "pipeline with id [enrich] does not exist",
  ]);
  assert.equal((await call(engine, "GET", "/p")).code, 404, "nothing created");
  assert.deepEqual(failure(await call(engine, "PUT", "/p/_doc/1?pipeline=", { a: 1 })), [
    400,
    "action_request_validation_exception",
    "Validation Failed: 1: pipeline cannot be an empty string;",
  ]);
  assert.equal((await call(engine, "PUT", "/p/_doc/1?pipeline=_none", { a: 1 })).code, 201);
  const bulk = await call(
    engine,
    "POST",
    "/_bulk?pipeline=enrich",
    '{"index":{"_index":"p","_id":"2"}}\n{"a":2}\n{"delete":{"_index":"p","_id":"1"}}\n' +
      '{"create":{"_index":"p","_id":"3","pipeline":"_none"}}\n{"a":3}\n',
  );
  assert.equal(bulk.errors, true);
  assert.equal(bulk.items[0].index.status, 400);
  assert.equal(bulk.items[0].index.error.reason, "pipeline with id [enrich] does not exist");
  assert.equal(bulk.items[1].delete.result, "deleted");
  assert.equal(bulk.items[2].create.result, "created", "the item's _none overrides the request");
  const item = await call(
    engine,
    "POST",
    "/_bulk",
    '{"index":{"_index":"p","_id":"4","pipeline":"x"}}\n{"a":4}\n',
  );
  assert.equal(item.items[0].index.error.reason, "pipeline with id [x] does not exist");
  assert.equal((await call(engine, "POST", "/p/_update/3?pipeline=x", { doc: {} })).code, 400);
  engine.close();
});

Deno.test("create: no external versions, explicit versions or compare-and-set", async () => {
  const engine = new Engine();
  const reason = (r: Json) => r.error?.reason;
  assert.equal(
    reason(await call(engine, "PUT", "/c/_create/1?version=3&version_type=external", {})),
    "Validation Failed: 1: create operations only support internal versioning. use index instead;",
  );
  assert.equal(
    reason(await call(engine, "PUT", "/c/_doc/1?op_type=create&version=3", {})),
    "Validation Failed: 1: create operations do not support explicit versions. use index instead;",
  );
  assert.equal(
    reason(await call(engine, "PUT", "/c/_doc/1?op_type=create&if_seq_no=0&if_primary_term=1", {})),
    "Validation Failed: 1: create operations do not support compare and set. use index instead;",
  );
  assert.equal(
    reason(await call(engine, "POST", "/c/_doc?version=2&version_type=external", {})),
    "Validation Failed: 1: create operations only support internal versioning. use index instead;",
  );
  const bulk = await call(
    engine,
    "POST",
    "/_bulk",
    '{"index":{"_index":"c","_id":"0"}}\n{}\n' +
      '{"create":{"_index":"c","_id":"1","version":2,"version_type":"external"}}\n{}\n',
  );
  assert.equal(
    bulk.error.reason,
    "Validation Failed: 1: create operations only support internal versioning. use index instead;",
    "the whole request is refused",
  );
  assert.equal((await call(engine, "GET", "/c/_doc/0")).found, false);
  assert.equal((await call(engine, "PUT", "/c/_create/1", {})).code, 201);
  engine.close();
});

Deno.test("versioning: force is no version type; a primary term needs a sequence number", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/v/_doc/1", { a: 1 });
  assert.deepEqual(
    failure(await call(engine, "PUT", "/v/_doc/1?version=5&version_type=force", {})),
    [
      400,
      "illegal_argument_exception",
      "No version type match [force]",
    ],
  );
  assert.equal(
    (await call(engine, "PUT", "/v/_doc/1?if_primary_term=1", {})).error.reason,
    "Validation Failed: 1: ifSeqNo is unassigned, but primary term is [1];",
  );
  assert.equal(
    (await call(engine, "PUT", "/v/_doc/1?if_seq_no=0&if_primary_term=1&version=2", {})).error
      .reason,
    "Validation Failed: 1: internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead;2: compare and write operations can not use versioning;",
  );
  engine.close();
});

Deno.test("update: compare-and-write is neither retried nor an upsert; retry_on_conflict is an int", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/u/_doc/1", { a: 1 });
  const reason = async (path: string, body: Json) => (await call(engine, "POST", path, body)).error;
  assert.equal(
    (await reason("/u/_update/1?if_seq_no=0&if_primary_term=1&retry_on_conflict=2", {
      doc: { a: 2 },
    })).reason,
    "Validation Failed: 1: compare and write operations can not be retried;",
  );
  assert.equal(
    (await reason("/u/_update/1?if_seq_no=0&if_primary_term=1", {
      doc: { a: 2 },
      doc_as_upsert: true,
    })).reason,
    "Validation Failed: 1: compare and write operations can not be used with upsert;",
  );
  assert.equal(
    (await reason("/u/_update/1?if_seq_no=0", { upsert: { a: 0 } })).reason,
    "Validation Failed: 1: ifSeqNo is set, but primary term is [0];2: upsert requests don't support `if_seq_no` and `if_primary_term`;3: script or doc is missing;",
  );
  assert.deepEqual(
    await reason("/u/_update/1?retry_on_conflict=abc", { doc: { a: 2 } }).then((e) => [
      e.type,
      e.reason,
    ]),
    [
      "illegal_argument_exception",
      "Failed to parse int parameter [retry_on_conflict] with value [abc]",
    ],
  );
  const bulk = await call(
    engine,
    "POST",
    "/_bulk",
    '{"update":{"_index":"u","_id":"1","if_seq_no":0,"if_primary_term":1,"retry_on_conflict":3}}\n' +
      '{"doc":{"a":2}}\n{"update":{"_index":"u","_id":"1","retry_on_conflict":3}}\n{"doc":{"a":3}}\n',
  );
  assert.equal(
    bulk.error.reason,
    "Validation Failed: 1: compare and write operations can not be retried;",
  );
  assert.equal((await call(engine, "GET", "/u/_source/1")).a, 1, "no item ran");
  const retried = await call(
    engine,
    "POST",
    "/_bulk",
    '{"update":{"_index":"u","_id":"1","retry_on_conflict":3}}\n{"doc":{"a":3}}\n',
  );
  assert.equal(retried.items[0].update.result, "updated");
  engine.close();
});

Deno.test("timeout and wait_for_active_shards: checked on index, delete, update and bulk", async () => {
  const engine = new Engine();
  const writes: Array<[string, string, unknown]> = [
    ["PUT", "/w/_doc/1", { a: 1 }],
    ["DELETE", "/w/_doc/1", undefined],
    ["POST", "/w/_update/1", { doc: { a: 1 } }],
    ["POST", "/_bulk", '{"index":{"_index":"w","_id":"1"}}\n{"a":1}\n'],
  ];
  for (const [method, path, body] of writes) {
    const bad = await call(engine, method, `${path}?timeout=soon`, body);
    assert.equal(bad.code, 400, `${method} ${path}`);
    assert.match(bad.error.reason, /failed to parse setting \[timeout\] with value \[soon\]/);
    const shards = await call(engine, method, `${path}?wait_for_active_shards=some`, body);
    assert.equal(shards.error.reason, "cannot parse ActiveShardCount[some]", `${method} ${path}`);
  }
  assert.equal((await call(engine, "GET", "/w")).code, 404, "no write ran");
  assert.equal(
    (await call(engine, "PUT", "/w/_doc/1?timeout=30s&wait_for_active_shards=1", { a: 1 })).code,
    201,
  );
  engine.close();
});

Deno.test("alias index routing: imposed on single-document writes and reads, a different one refused", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/r", {
    settings: { number_of_shards: 3 },
    mappings: { _routing: { required: true } },
    aliases: { ra: { routing: "k" }, rb: { index_routing: "w" }, rc: { index_routing: "a,b" } },
  });
  assert.equal((await call(engine, "PUT", "/ra/_doc/1", { a: 1 })).code, 201);
  const got = await call(engine, "GET", "/r/_doc/1?routing=k");
  assert.equal(got._routing, "k");
  assert.equal((await call(engine, "GET", "/ra/_doc/1")).found, true);
  assert.equal((await call(engine, "GET", "/ra/_source/1")).a, 1);
  assert.deepEqual(failure(await call(engine, "PUT", "/ra/_doc/2?routing=z", { a: 1 })), [
    400,
    "illegal_argument_exception",
    "Alias [ra] has index routing associated with it [k], and was provided with routing value [z], rejecting operation",
  ]);
  assert.equal((await call(engine, "PUT", "/ra/_doc/2?routing=k", { a: 2 })).code, 201);
  assert.match(
    (await call(engine, "PUT", "/rc/_doc/3", { a: 1 })).error.reason,
    /provided with routing value \[a,b\] that resolved to several routing values/,
  );
  const bulk = await call(
    engine,
    "POST",
    "/_bulk",
    '{"index":{"_index":"rb","_id":"3"}}\n{"a":3}\n{"update":{"_index":"ra","_id":"1"}}\n{"doc":{"b":1}}\n' +
      '{"index":{"_index":"rb","_id":"4","routing":"x"}}\n{"a":4}\n',
  );
  assert.equal(bulk.items[0].index.status, 201);
  assert.equal(bulk.items[1].update.result, "updated");
  assert.equal(bulk.items[2].index.status, 400);
  assert.equal((await call(engine, "GET", "/r/_doc/3?routing=w"))._routing, "w");
  const mget = await call(engine, "POST", "/_mget", {
    docs: [{ _index: "ra", _id: "1" }, { _index: "rb", _id: "3" }],
  });
  assert.deepEqual(mget.docs.map((d: Json) => [d._index, d._routing, d.found]), [
    ["r", "k", true],
    ["r", "w", true],
  ]);
  assert.equal((await call(engine, "DELETE", "/ra/_doc/1")).result, "deleted");
  engine.close();
});

Deno.test("bulk: an update item with a version fails the whole request, as Elasticsearch parses it", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/b/_doc/1", { a: 1 });
  for (const meta of ['"version":2', '"version_type":"external"']) {
    const r = await call(
      engine,
      "POST",
      "/_bulk",
      `{"index":{"_index":"b","_id":"2"}}\n{"a":2}\n{"update":{"_index":"b","_id":"1",${meta}}}\n{"doc":{"a":3}}\n`,
    );
    assert.deepEqual(failure(r), [
      400,
      "illegal_argument_exception",
      "Update requests do not support versioning. Please use `if_seq_no` and `if_primary_term` instead",
    ]);
  }
  assert.equal((await call(engine, "GET", "/b/_doc/2")).found, false, "no item ran");
  assert.equal((await call(engine, "GET", "/b/_source/1")).a, 1);
  engine.close();
});
