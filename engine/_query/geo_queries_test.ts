import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("geo_shape on points: within and disjoint ask every point of a document", async () => {
  // Real Elasticsearch 9.5.4, the southern hemisphere as an envelope: "both" holds a point in it
  // and one outside, "in" one inside, "out" one outside, "none" no point.
  const engine = new Engine();
  await call(engine, "PUT", "/g", {
    settings: { number_of_shards: 1 },
    mappings: { properties: { loc: { type: "geo_point" } } },
  });
  const docs: Record<string, unknown> = {
    both: { loc: [{ lat: 35.68, lon: 139.69 }, "-22.9,-43.2"] },
    in: { loc: "-22.9,-43.2" },
    out: { loc: "35.68,139.69" },
    none: { x: 1 },
  };
  for (const [id, doc] of Object.entries(docs)) await call(engine, "PUT", `/g/_doc/${id}`, doc);
  await call(engine, "POST", "/g/_refresh");
  const ids = async (relation: string) => {
    const r = await call(engine, "POST", "/g/_search", {
      query: {
        geo_shape: {
          loc: { shape: { type: "envelope", coordinates: [[-180, 0], [180, -90]] }, relation },
        },
      },
      sort: ["_doc"],
    });
    return (r.hits as { hits: { _id: string }[] }).hits.map((h) => h._id);
  };
  assert.deepEqual(await ids("intersects"), ["both", "in"]);
  assert.deepEqual(await ids("within"), ["in"]);
  assert.deepEqual(await ids("disjoint"), ["out"]);
  engine.close();
});
