// The embedded engine's fetch is marked in-process: the driver reads its bodies whole (no
// stream per response) and still holds them to maxResponseBytes.
import assert from "node:assert/strict";
import { DataSource, ResponseTooLargeError } from "../driver/mod.ts";
import { JdbcTemplate } from "../template/mod.ts";
import { Engine } from "../engine/mod.ts";

Deno.test("engine.fetch carries the in-process mark", () => {
  const engine = new Engine();
  const fetchFn = engine.fetch as unknown as Record<symbol, unknown>;
  assert.equal(fetchFn[Symbol.for("searchvisitor.inProcessFetch")], true);
  assert.equal(fetchFn[Symbol.for("searchvisitor.networkFetch")], undefined);
  engine.close();
});

Deno.test("over engine.fetch, results arrive whole and the size cap still holds", async () => {
  const engine = new Engine();
  try {
    const jdbc = new JdbcTemplate(
      new DataSource({ nodes: ["http://engine"], fetch: engine.fetch }),
    );
    for (let i = 0; i < 20; i++) {
      await jdbc.executeUpdate("PUT /docs/_doc/#{id} #{doc}", {
        id: String(i),
        doc: { title: `ünïcödé title number ${i}`, n: i },
      });
    }
    await jdbc.execute("POST /docs/_refresh");
    const rows = await jdbc.queryForList('POST /docs/_search {"size": 20, "sort": ["n"]}');
    assert.equal(rows.length, 20);
    assert.equal(JSON.parse(rows[3]!._DOC as string).title, "ünïcödé title number 3");
    const capped = new JdbcTemplate(
      new DataSource({ nodes: ["http://engine"], fetch: engine.fetch, maxResponseBytes: 500 }),
    );
    await assert.rejects(
      capped.queryForList('POST /docs/_search {"size": 20}'),
      (e) => e instanceof ResponseTooLargeError && e.limit === 500,
    );
  } finally {
    engine.close();
  }
});

Deno.test("engine.fetch answers a request that carries a signal, as it always has", async () => {
  const engine = new Engine();
  try {
    const controller = new AbortController();
    const init = { method: "GET", signal: controller.signal };
    const res = await engine.fetch("http://engine/", init);
    assert.equal(res.status, 200);
    assert.equal(typeof (await res.json()).version.number, "string");
    assert.equal(init.signal, controller.signal, "the caller's init is left as it was");
    const put = await engine.fetch("http://engine/s/_doc/1?refresh=true", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
      signal: controller.signal,
    });
    assert.equal(put.status, 201);
  } finally {
    engine.close();
  }
});
