// A background merge on a real engine: reported in `_stats` while it runs, stopped when its
// index is closed or deleted or the engine is closed.
import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { exchange } from "../../tests/support/engine_call.ts";

/** 13 refreshed batches of 3,000: the 13th segment starts a merge of 21,000 docs (background). */
async function loadUntilMerging(engine: Engine, index: string): Promise<void> {
  for (let b = 0; b < 13; b++) {
    let body = "";
    for (let i = b * 3000; i < (b + 1) * 3000; i++) {
      body += `{"index":{"_id":"${i}"}}\n{"t":"w${i % 97} x","n":${i}}\n`;
    }
    const res = await exchange(engine, "POST", `/${index}/_bulk?refresh=true`, body);
    assert.equal(res.body.errors, false);
  }
}

const merges = async (engine: Engine, index: string) =>
  (await exchange(engine, "GET", `/${index}/_stats/merge`)).body._all.primaries.merges;

Deno.test("a background merge shows in _stats, keeps answers, and stops on close and delete", async () => {
  const engine = new Engine();
  await loadUntilMerging(engine, "a");
  assert.deepEqual(
    [(await merges(engine, "a")).current, (await merges(engine, "a")).current_docs],
    [
      1,
      21000,
    ],
  );
  const count = await exchange(
    engine,
    "POST",
    "/a/_search",
    '{"size":0,"query":{"match":{"t":"w5"}}}',
  );
  let want = 0;
  for (let i = 0; i < 39000; i++) if (i % 97 === 5) want++;
  assert.equal(count.body.hits.total.value, want, "every document, read from the old segments");
  const got = await exchange(engine, "GET", "/a/_doc/5");
  assert.equal(got.body._source.n, 5, "real-time get during the merge");
  await exchange(engine, "POST", "/a/_close");
  await exchange(engine, "POST", "/a/_open");
  assert.equal((await merges(engine, "a")).current, 0, "closing stopped the merge");
  await loadUntilMerging(engine, "b");
  assert.equal((await merges(engine, "b")).current, 1);
  assert.equal((await exchange(engine, "DELETE", "/b")).status, 200);
  await loadUntilMerging(engine, "c");
  assert.equal((await merges(engine, "c")).current, 1);
  engine.close();
  assert.equal((await merges(engine, "c")).current, 0, "closing the engine stopped the merge");
});
