import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("sort: a document without a boolean sorts with the flavour's int or long limit", async () => {
  // Real OpenSearch 3.8.0 (one shard and three alike) and Elasticsearch 9.5.4, docs 1 (true),
  // 2 (no flag), 3 (false).
  const expected = {
    opensearch: [[-2147483648, 0, 1], [1, 0, -2147483648], [0, 1, 2147483647]],
    elasticsearch: [
      [-(2n ** 63n), 0, 1],
      [1, 0, -(2n ** 63n)],
      [0, 1, 2n ** 63n - 1n],
    ],
  };
  for (const flavour of ["opensearch", "elasticsearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/b", { mappings: { properties: { flag: { type: "boolean" } } } });
    await call(engine, "PUT", "/b/_doc/1", { flag: true });
    await call(engine, "PUT", "/b/_doc/2", {});
    await call(engine, "PUT", "/b/_doc/3?refresh=true", { flag: false });
    const sorts = [
      { flag: { order: "asc", missing: "_first" } },
      { flag: { order: "desc" } },
      { flag: "asc" },
    ];
    const got = [];
    for (const sort of sorts) {
      const res = await engine.fetch("http://e/b/_search", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sort: [sort] }),
      });
      // Long limits need their exact digits: read them from the text.
      const text = await res.text();
      const values = [...text.matchAll(/"sort":\[(-?\d+)\]/g)].map((m) => {
        const n = BigInt(m[1]!);
        return n > 2n ** 53n || n < -(2n ** 53n) ? n : Number(n);
      });
      got.push(values);
    }
    assert.deepEqual(got, expected[flavour], flavour);
    engine.close();
  }
});
