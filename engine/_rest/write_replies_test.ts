// Write replies as the real engines give them: `require_alias` refusals, the shard a missing
// document's update names, and a no-op update inside a bulk. Expected values are the answers of
// real Elasticsearch 9.5.4 and OpenSearch 3.8.0 to the same requests.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const FLAVOURS = ["elasticsearch", "opensearch"] as const;

Deno.test("require_alias: index_not_found_exception names no resource (both engines)", async () => {
  for (const flavour of FLAVOURS) {
    const engine = new Engine({ flavour });
    const r = await call(engine, "POST", "/ra/_doc?require_alias=true", { foo: "bar" });
    assert.equal(r.code, 404);
    // real ES 9.5.4 and OS 3.8.0: {type, reason, index, index_uuid}, no resource.type/resource.id
    assert.deepEqual(r.error.root_cause[0], {
      type: "index_not_found_exception",
      reason:
        "no such index [ra] and [require_alias] request flag is [true] and [ra] is not an alias",
      index_uuid: "_na_",
      index: "ra",
    });
    const bulk = await call(
      engine,
      "POST",
      "/_bulk",
      '{"index":{"_index":"ra","require_alias":true}}\n{"f":1}\n',
    );
    assert.equal(bulk.items[0].index.error["resource.type"], undefined, flavour);
    assert.equal(bulk.items[0].index.error.index, "ra");
    engine.close();
  }
});

Deno.test("update of a missing document names the shard its id routes to", async () => {
  // real answers on a 5-shard index: ES 9.5.4 ids 3,4,5,a,b,nope -> shards 4,2,1,4,2,4;
  // OS 3.8.0 -> 0,1,0,1,0,3
  const expected = {
    elasticsearch: ["4", "2", "1", "4", "2", "4"],
    opensearch: ["0", "1", "0", "1", "0", "3"],
  };
  for (const flavour of FLAVOURS) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/m", { settings: { number_of_shards: 5 } });
    const shards: string[] = [];
    for (const id of ["3", "4", "5", "a", "b", "nope"]) {
      const r = await call(engine, "POST", `/m/_update/${id}`, { doc: { foo: "bar" } });
      assert.equal(r.error.type, "document_missing_exception");
      shards.push(r.error.shard);
    }
    assert.deepEqual(shards, expected[flavour], flavour);
    engine.close();
  }
});

Deno.test("bulk: a no-op update reports a write's shards; forced_refresh only in Elasticsearch", async () => {
  for (const flavour of FLAVOURS) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/n/_doc/1?refresh=true", { foo: "bar" });
    const single = await call(engine, "POST", "/n/_update/1?refresh=true", { doc: { foo: "bar" } });
    // both real engines: {"result":"noop","_shards":{"total":0,"successful":0,"failed":0}}, no
    // forced_refresh
    assert.deepEqual(single._shards, { total: 0, successful: 0, failed: 0 });
    assert.equal(single.forced_refresh, undefined);
    const bulk = await call(
      engine,
      "POST",
      "/_bulk?refresh=true",
      '{"update":{"_index":"n","_id":"1"}}\n{"doc":{"foo":"bar"}}\n',
    );
    const item = bulk.items[0].update;
    assert.equal(item.result, "noop");
    // ES 9.5.4: "forced_refresh":true,"_shards":{"total":2,"successful":1,"failed":0}
    // OS 3.8.0: "_shards":{"total":2,"successful":1,"failed":0} and no forced_refresh
    assert.deepEqual(item._shards, { total: 2, successful: 1, failed: 0 });
    assert.equal(item.forced_refresh, flavour === "elasticsearch" ? true : undefined, flavour);
    engine.close();
  }
});

Deno.test("ignore_unavailable with allow_no_indices=false: OpenSearch names an index_expression", async () => {
  // real OS 3.8.0: GET /nope/_mapping|_settings, POST /nope/_search with both options ->
  // "resource.type":"index_expression"; /nope*/... -> "index_or_alias"; ES 9.5.4: index_or_alias
  for (const flavour of FLAVOURS) {
    const engine = new Engine({ flavour });
    const expected = flavour === "opensearch" ? "index_expression" : "index_or_alias";
    for (const path of ["/nope/_mapping", "/nope/_settings", "/nope/_search"]) {
      const r = await call(engine, "GET", `${path}?ignore_unavailable=true&allow_no_indices=false`);
      assert.equal(r.code, 404, path);
      assert.equal(r.error["resource.type"], expected, `${flavour} ${path}`);
    }
    const wildcard = await call(engine, "GET", "/nope*/_mapping?allow_no_indices=false");
    assert.equal(wildcard.error["resource.type"], "index_or_alias");
    engine.close();
  }
});

Deno.test("update without the routing a document was written with names the id's shard", async () => {
  // OpenSearch's update/40_routing.yml: real ES 9.5.4 and OS 3.8.0 both answer shard "3"
  for (const flavour of FLAVOURS) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/test_1", {
      settings: { number_of_shards: 5, number_of_routing_shards: 5, number_of_replicas: 0 },
    });
    await call(engine, "PUT", "/test_1/_doc/1?routing=5", { foo: "bar" });
    const r = await call(engine, "POST", "/test_1/_update/1", { doc: { foo: "baz" } });
    assert.equal(r.error.type, "document_missing_exception");
    assert.equal(r.error.shard, "3", flavour);
    engine.close();
  }
});
