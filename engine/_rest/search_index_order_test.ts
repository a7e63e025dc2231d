// Equal hits of several indices come in index-name order, whatever order the expression named
// them in or the cluster created them. Expected values are the answers of real Elasticsearch
// 9.5.4 and OpenSearch 3.8.0 (both: yca, ycb, ycc for every request below).

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("search: ties across indices in index-name order (both flavours)", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/ycb/_doc/1?refresh=true", { f: 1 });
    await call(engine, "PUT", "/yca/_doc/2?refresh=true", { f: 1 });
    await call(engine, "PUT", "/ycc/_doc/0?refresh=true", { f: 1 });
    for (const path of ["/ycb,ycc,yca/_search", "/yc*/_search?sort=f", "/_search"]) {
      const r = await call(engine, "GET", path);
      const names = r.hits.hits.map((h: { _index: string }) => h._index);
      assert.deepEqual(names, ["yca", "ycb", "ycc"], `${flavour} ${path}`);
    }
    engine.close();
  }
});
