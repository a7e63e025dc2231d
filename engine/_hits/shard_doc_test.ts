import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";
import { nestedDocCount } from "./shard_doc.ts";
import { FieldMap } from "../_index/field_map.ts";

const mappings = {
  properties: {
    items: { type: "nested", properties: { k: { type: "keyword" }, sub: { type: "nested" } } },
  },
};

function source(i: number): Record<string, unknown> {
  if (i % 3 === 0) return { x: 1 };
  if (i % 3 === 1) return { items: [{ k: "a" }, { k: "b" }] };
  return { items: { k: "c", sub: [{ z: 1 }, { z: 2 }] } };
}

Deno.test("nestedDocCount: one Lucene document per nested object, at every level", () => {
  const fields = new FieldMap(mappings);
  assert.deepEqual([0, 1, 2].map((i) => nestedDocCount(source(i), fields)), [0, 2, 3]);
  assert.equal(nestedDocCount({ items: [null, { sub: {} }] }, fields), 2);
});

Deno.test("_shard_doc: murmur3-routed shards, doc ids counting nested documents", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/p", {
    settings: { number_of_shards: 3, number_of_replicas: 0 },
    mappings,
  });
  const lines = Array.from({ length: 10 }, (_, i) => [
    JSON.stringify({ index: { _id: String(i) } }),
    JSON.stringify(source(i)),
  ]).flat();
  await call(engine, "POST", "/p/_bulk?refresh=true", lines.join("\n") + "\n");
  const pit = await call(engine, "POST", "/p/_pit?keep_alive=1m");
  const r = await call(engine, "POST", "/_search", {
    size: 20,
    pit: { id: pit.id },
    sort: [{ _shard_doc: "asc" }],
  });
  // What Elasticsearch 9.5.4 answered for the same documents.
  assert.deepEqual(
    r.hits.hits.map((h: { _id: string; sort: number[] }) => [h._id, h.sort[0]]),
    [
      ["0", 0],
      ["2", 4],
      ["4", 7],
      ["5", 11],
      ["6", 12],
      ["7", 15],
      ["8", 4294967299],
      ["1", 8589934594],
      ["3", 8589934595],
      ["9", 8589934596],
    ],
  );
});
