// `_segments` against Elasticsearch 9.5.4 (one node): `seg3` with three shards and no replica
// holding documents 1, 2 and 3 (Elasticsearch places 1 on shard 0, 2 and 3 on shard 2), `seg1`
// with the default replica and no document.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as json } from "../../tests/support/engine_call.ts";

const NODE = "NfubpcEaTHupSkHtb5RKzw";

Deno.test("_segments: every primary, a segment where documents are", async () => {
  const engine = new Engine({ node: { id: NODE } });
  try {
    await json(engine, "PUT", "/seg3", {
      settings: { number_of_shards: 3, number_of_replicas: 0 },
    });
    for (const id of ["1", "2", "3"]) await json(engine, "PUT", `/seg3/_doc/${id}`, { a: 1 });
    await json(engine, "POST", "/seg3/_refresh");
    const body = (await json(engine, "GET", "/seg3/_segments")).body;
    assert.deepEqual(body._shards, { total: 3, successful: 3, failed: 0 });
    const shards = body.indices.seg3.shards;
    assert.deepEqual(Object.keys(shards), ["0", "1", "2"]);
    const routing = { state: "STARTED", primary: true, node: NODE };
    assert.deepEqual(shards["1"], [{
      routing,
      num_committed_segments: 0,
      num_search_segments: 0,
      segments: {},
    }]);
    const [s0] = shards["0"];
    assert.deepEqual(s0.routing, routing);
    assert.equal(s0.num_search_segments, 1);
    // The real size (3,847 bytes there) is Lucene's files'; the engine's own stands in for it.
    const { size_in_bytes: _, ...segment } = s0.segments._0;
    assert.deepEqual(segment, {
      generation: 0,
      num_docs: 1,
      deleted_docs: 0,
      committed: false,
      search: true,
      version: "10.5.1",
      compound: true,
      attributes: { "Lucene90StoredFieldsFormat.mode": "BEST_SPEED" },
    });
    assert.equal(shards["2"][0].segments._0.num_docs, 2);
    await json(engine, "PUT", "/seg1", {});
    assert.deepEqual((await json(engine, "GET", "/seg1/_segments")).body, {
      _shards: { total: 2, successful: 1, failed: 0 },
      indices: {
        seg1: {
          shards: {
            "0": [{ routing, num_committed_segments: 0, num_search_segments: 0, segments: {} }],
          },
        },
      },
    });
    const bad = await json(engine, "GET", "/seg3/_segments?verbose=true");
    assert.equal(bad.status, 400);
    assert.equal(
      bad.body.error.reason,
      "request [/seg3/_segments] contains unrecognized parameter: [verbose]",
    );
    assert.equal((await json(engine, "GET", "/nope/_segments")).status, 404);
  } finally {
    engine.close();
  }
});
