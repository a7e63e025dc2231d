// `_clone`, `_split`, `_shrink` and `_block` against answers recorded from real Elasticsearch
// 9.5.4 and OpenSearch 3.8.0.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as call } from "../../tests/support/engine_call.ts";

async function source(engine: Engine): Promise<void> {
  await call(engine, "PUT", "/rs", {
    settings: { number_of_shards: 2, number_of_replicas: 0 },
    mappings: { properties: { f: { type: "keyword" } } },
    aliases: { rsa: {} },
  });
  await call(engine, "PUT", "/rs/_doc/1", { f: "a" });
  await call(engine, "PUT", "/rs/_doc/2?refresh=true", { f: "b" });
}

Deno.test("resize: only from a source that blocks writes", async () => {
  const engine = new Engine();
  await source(engine);
  const refused = await call(engine, "POST", "/rs/_clone/rt");
  assert.equal(refused.status, 500);
  assert.equal(refused.body.error.type, "illegal_state_exception");
  assert.equal(
    refused.body.error.reason,
    'index rs must be read-only to resize index. use "index.blocks.write=true"',
  );
  const missing = await call(engine, "POST", "/nope/_clone/rt");
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body.error.root_cause[0], {
    type: "index_not_found_exception",
    reason: "no such index [nope]",
    index_uuid: "_na_",
    index: "nope",
  });
  const blocked = await call(engine, "PUT", "/rs/_block/write");
  assert.deepEqual(blocked.body, {
    acknowledged: true,
    shards_acknowledged: true,
    indices: [{ name: "rs", blocked: true }],
  });
  // The block refuses writes, and every bulk item alike.
  const write = await call(engine, "PUT", "/rs/_doc/3", { f: "c" });
  assert.equal(write.status, 403);
  assert.equal(
    write.body.error.reason,
    "index [rs] blocked by: [FORBIDDEN/8/index write (api)];",
  );
  engine.close();
});

Deno.test("resize: shard counts each operation allows", async () => {
  const engine = new Engine();
  await source(engine);
  await call(engine, "PUT", "/rs/_block/write");
  const reason = async (path: string, shards?: number) =>
    (await call(
      engine,
      "POST",
      path,
      shards === undefined ? undefined : { settings: { "index.number_of_shards": shards } },
    )).body.error.reason;
  assert.equal(
    await reason("/rs/_clone/rt", 3),
    "the number of target shards (3) must be the same as the number of source shards (2)",
  );
  assert.equal(
    await reason("/rs/_split/rt", 3),
    "the number of source shards [2] must be a factor of [3]",
  );
  assert.equal(
    await reason("/rs/_split/rt"),
    "Validation Failed: 1: index.number_of_shards is required for split operations;",
  );
  assert.match(await reason("/rs/_clone/rs"), /^index \[rs\/.*\] already exists$/);
  engine.close();
});

Deno.test("resize: the target has the source's documents, mappings and settings", async () => {
  const engine = new Engine();
  await source(engine);
  await call(engine, "PUT", "/rs/_block/write");
  const made = await call(engine, "POST", "/rs/_split/rt", {
    settings: { "index.number_of_shards": 4, "index.refresh_interval": "2s" },
    aliases: { al: {} },
  });
  assert.deepEqual(made.body, { acknowledged: true, shards_acknowledged: true, index: "rt" });
  const doc = await call(engine, "GET", "/rt/_doc/2");
  assert.deepEqual(doc.body, {
    _index: "rt",
    _id: "2",
    _version: 1,
    _seq_no: 1,
    _primary_term: 1,
    found: true,
    _source: { f: "b" },
  });
  const count = await call(engine, "GET", "/rt/_count");
  assert.equal(count.body.count, 2);
  assert.deepEqual((await call(engine, "GET", "/rt/_mapping")).body, {
    rt: { mappings: { properties: { f: { type: "keyword" } } } },
  });
  assert.deepEqual((await call(engine, "GET", "/rt/_alias")).body, { rt: { aliases: { al: {} } } });
  const settings = (await call(engine, "GET", "/rt/_settings?flat_settings=true")).body.rt.settings;
  assert.equal(settings["index.number_of_shards"], "4");
  assert.equal(settings["index.number_of_replicas"], "1");
  assert.equal(settings["index.blocks.write"], "true");
  assert.equal(settings["index.refresh_interval"], "2s");
  // Removing the block lets writes in again (Elasticsearch's DELETE form).
  const removed = await call(engine, "DELETE", "/rs/_block/write");
  assert.deepEqual(removed.body, {
    acknowledged: true,
    indices: [{ name: "rs", unblocked: true }],
  });
  assert.equal((await call(engine, "PUT", "/rs/_doc/3", { f: "c" })).status, 201);
  engine.close();
});

Deno.test("resize: OpenSearch's wording and its block API without DELETE", async () => {
  const engine = new Engine({ flavour: "opensearch" });
  await source(engine);
  const refused = await call(engine, "POST", "/rs/_shrink/rt");
  assert.equal(
    refused.body.error.reason,
    'index rs must block write operations to resize index. use "index.blocks.write=true"',
  );
  await call(engine, "PUT", "/rs/_block/write");
  assert.equal((await call(engine, "DELETE", "/rs/_block/write")).status, 405);
  assert.equal((await call(engine, "POST", "/rs/_shrink/rt")).status, 200);
  const settings = (await call(engine, "GET", "/rt/_settings?flat_settings=true")).body.rt.settings;
  assert.equal(settings["index.number_of_shards"], "1");
  assert.equal(settings["index.resize.source.name"], "rs");
  engine.close();
});

Deno.test("resize: the shard counts are checked before the write block", async () => {
  // Real Elasticsearch 9.5.4 and OpenSearch 3.8.0 on a three-shard index without a write block:
  // each answers 400 illegal_argument_exception with these reasons (a valid count: 500
  // illegal_state_exception, the block).
  const cases = [
    ["_split", 2, "the number of source shards [3] must be a multiple of [2]"],
    ["_split", 4, "the number of source shards [3] must be a factor of [4]"],
    [
      "_split",
      1,
      "the number of source shards [3] must be less that the number of target shards [1]",
    ],
    ["_shrink", 2, "the number of source shards [3] must be a multiple of [2]"],
  ] as const;
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/src", { settings: { number_of_shards: 3 } });
    for (const [api, shards, reason] of cases) {
      const r = await call(engine, "POST", `/src/${api}/dst`, {
        settings: { "index.number_of_shards": shards },
      });
      assert.deepEqual([r.status, r.body.error.type, r.body.error.reason], [
        400,
        "illegal_argument_exception",
        reason,
      ]);
    }
    const split = await call(engine, "POST", "/src/_split/dst", {});
    assert.deepEqual([split.status, split.body.error.type], [
      400,
      "action_request_validation_exception",
    ]);
    const same = await call(engine, "POST", "/src/_split/dst", {
      settings: { "index.number_of_shards": 3 },
    });
    assert.deepEqual([same.status, same.body.error.type], [500, "illegal_state_exception"]);
    engine.close();
  }
});
