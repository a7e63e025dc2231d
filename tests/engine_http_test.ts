// The engine over real HTTP (serve() on a free loopback port), driven with plain fetch.
import assert from "node:assert/strict";
import { Engine, serve } from "../engine/mod.ts";

// deno-lint-ignore no-explicit-any
async function json(res: Response): Promise<Record<string, any>> {
  return await res.json();
}

Deno.test("engine over HTTP: index, bulk, search, update, delete, conflicts", async () => {
  const engine = new Engine();
  const server = await serve(engine, { port: 0 });
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const head = await fetch(server.url, { method: "HEAD" });
    assert.equal(head.status, 200);
    await head.body?.cancel();

    const created = await fetch(`${server.url}/books`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        mappings: { properties: { title: { type: "text" }, year: { type: "long" } } },
      }),
    });
    assert.deepEqual(await json(created), {
      acknowledged: true,
      shards_acknowledged: true,
      index: "books",
    });

    const lines = [];
    for (let i = 1; i <= 50; i++) {
      lines.push(JSON.stringify({ index: { _index: "books", _id: String(i) } }));
      lines.push(
        JSON.stringify({ title: i % 2 ? `odd book ${i}` : `even book ${i}`, year: 1950 + i }),
      );
    }
    const bulk = await fetch(`${server.url}/_bulk?refresh=true`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: lines.join("\n") + "\n",
    });
    const bulkBody = await json(bulk);
    assert.equal(bulkBody.errors, false);
    assert.equal(bulkBody.items.length, 50);

    const search = await fetch(`${server.url}/books/_search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: { match: { title: "odd" } },
        size: 5,
        sort: [{ year: "asc" }],
      }),
    });
    const hits = (await json(search)).hits;
    assert.equal(hits.total.value, 25);
    assert.deepEqual(hits.hits.map((h: { _id: string }) => h._id), ["1", "3", "5", "7", "9"]);

    const update = await fetch(`${server.url}/books/_update/1?refresh=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ doc: { title: "renamed" } }),
    });
    assert.equal((await json(update)).result, "updated");

    const conflict = await fetch(`${server.url}/books/_doc/1?if_seq_no=0&if_primary_term=1`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "stale" }),
    });
    assert.equal(conflict.status, 409);
    assert.equal((await json(conflict)).error.type, "version_conflict_engine_exception");

    const del = await fetch(`${server.url}/books/_doc/2?refresh=true`, { method: "DELETE" });
    assert.equal((await json(del)).result, "deleted");
    const count = await fetch(`${server.url}/books/_count`);
    assert.equal((await json(count)).count, 49);

    const cat = await fetch(`${server.url}/_cat/indices?v`);
    const text = await cat.text();
    assert.match(text, /^health status index/);
    assert.match(text, /books/);
  } finally {
    await server.close();
    engine.close();
  }
});
