import assert from "node:assert/strict";
import { Engine } from "../mod.ts";

// Measured on Elasticsearch 9.5.4: a three-shard index, one document bulk-indexed with
// refresh=true, two seconds later one more document; `_count` right after the write counts 1
// (the write waits for the next tick of the 1 s schedule, though the last refresh was 2 s ago),
// and 1.5 s later 2.
Deno.test("writes become searchable at the next tick of the refresh schedule", async () => {
  let now = 1_000_000;
  const engine = new Engine({ now: () => now });
  const call = async (method: string, path: string, body?: string, ndjson = false) => {
    const res = await engine.fetch(`http://engine${path}`, {
      method,
      ...(body === undefined ? {} : {
        body,
        headers: { "content-type": ndjson ? "application/x-ndjson" : "application/json" },
      }),
    });
    return await res.json();
  };
  try {
    await call("PUT", "/rt", '{"settings":{"number_of_shards":3}}');
    now += 10;
    await call("POST", "/rt/_bulk?refresh=true", '{"index":{"_id":"0"}}\n{"a":1}\n', true);
    now += 2_000;
    await call("POST", "/rt/_doc", '{"a":2}');
    now += 30;
    assert.equal((await call("GET", "/rt/_count")).count, 1);
    now += 1_500;
    assert.equal((await call("GET", "/rt/_count")).count, 2);
  } finally {
    engine.close();
  }
});
