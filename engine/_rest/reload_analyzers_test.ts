// Recorded from Elasticsearch 9.5.4 (one node): ra1 with one shard and no replica, ra3 with three
// shards and a replica, ra5 with five shards and two replicas.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

const NODE = "wRCTYewZQRGMrSMXsAhHpA";
const detail = (index: string) => ({ index, reloaded_analyzers: [], reloaded_node_ids: [NODE] });

Deno.test("_reload_search_analyzers: no analyzer to reload, shards counted per index", async () => {
  const engine = new Engine({ node: { id: NODE } });
  try {
    const put = (name: string, shards: number, replicas: number) =>
      json(engine, "PUT", `/${name}`, {
        settings: { number_of_shards: shards, number_of_replicas: replicas },
      });
    await put("ra1", 1, 0);
    await put("ra3", 3, 1);
    await put("ra5", 5, 2);
    const reload = async (path: string) =>
      (await json(engine, "POST", `${path}/_reload_search_analyzers`)).body;
    assert.deepEqual(await reload("/ra1"), {
      _shards: { total: 1, successful: 1, failed: 0 },
      reload_details: [detail("ra1")],
    });
    assert.deepEqual((await reload("/ra3"))._shards, { total: 2, successful: 1, failed: 0 });
    assert.deepEqual((await reload("/ra5"))._shards, { total: 2, successful: 1, failed: 0 });
    assert.deepEqual(await reload("/ra3,ra1"), {
      _shards: { total: 3, successful: 2, failed: 0 },
      reload_details: [detail("ra1"), detail("ra3")],
    });
    assert.deepEqual((await reload("/ra*"))._shards, { total: 5, successful: 3, failed: 0 });
    assert.deepEqual(await reload("/nope*"), {
      _shards: { total: 0, successful: 0, failed: 0 },
      reload_details: [],
    });
    const missing = await json(engine, "POST", "/nope/_reload_search_analyzers");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, "index_not_found_exception");
    const viaGet = await json(engine, "GET", "/ra1/_reload_search_analyzers?resource=x");
    assert.deepEqual(viaGet.body, {
      _shards: { total: 1, successful: 1, failed: 0 },
      reload_details: [],
    });
    const bad = await json(engine, "POST", "/ra1/_reload_search_analyzers?bogus=x");
    assert.equal(bad.status, 400);
    assert.equal(
      bad.body.error.reason,
      "request [/ra1/_reload_search_analyzers] contains unrecognized parameter: [bogus]",
    );
  } finally {
    engine.close();
  }
});
