import assert from "node:assert/strict";
import { IndexState } from "./index_state.ts";
import { deleteDocument, indexDocument, validateWriteOptions } from "./writes.ts";
import { INDEX_TIME_EXACT, INDEX_TIME_SAMPLE, IndexStats } from "./index_stats.ts";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

const E = "document_parsing_exception" as const;

function fresh(): IndexState {
  return new IndexState("v", {}, {}, 0);
}

Deno.test("versions continue after a delete (tombstones) and seq_no counts per index", () => {
  const index = fresh();
  assert.equal(indexDocument(index, { id: "1", source: { a: 1 } }, {}, E).version, 1);
  assert.equal(indexDocument(index, { id: "2", source: { a: 1 } }, {}, E).seqNo, 1);
  assert.equal(deleteDocument(index, "1", {}).version, 2);
  const again = indexDocument(index, { id: "1", source: { a: 2 } }, {}, E);
  assert.deepEqual([again.version, again.seqNo, again.result], [3, 3, "created"]);
  const missing = deleteDocument(index, "9", {});
  assert.deepEqual([missing.result, missing.version], ["not_found", 1]);
});

Deno.test("external versions must grow (external) or not shrink (external_gte)", () => {
  const index = fresh();
  assert.equal(
    indexDocument(index, { id: "1", source: {} }, { version: 5, versionType: "external" }, E)
      .version,
    5,
  );
  assert.throws(
    () => indexDocument(index, { id: "1", source: {} }, { version: 5, versionType: "external" }, E),
    /current version \[5\] is higher or equal to the one provided \[5\]/,
  );
  assert.equal(
    indexDocument(index, { id: "1", source: {} }, { version: 5, versionType: "external_gte" }, E)
      .version,
    5,
  );
  assert.throws(
    () =>
      indexDocument(index, { id: "1", source: {} }, { version: 4, versionType: "external_gte" }, E),
    /current version \[5\] is higher than the one provided \[4\]/,
  );
});

Deno.test("if_seq_no / if_primary_term and option validation", () => {
  const index = fresh();
  indexDocument(index, { id: "1", source: {} }, {}, E);
  assert.equal(
    indexDocument(index, { id: "1", source: {} }, { ifSeqNo: 0, ifPrimaryTerm: 1 }, E).seqNo,
    1,
  );
  assert.throws(
    () => indexDocument(index, { id: "1", source: {} }, { ifSeqNo: 0, ifPrimaryTerm: 1 }, E),
    (e: Error & { status?: number }) => e.status === 409,
  );
  assert.throws(
    () => indexDocument(index, { id: "2", source: {} }, { ifSeqNo: 0, ifPrimaryTerm: 1 }, E),
    /but no document was found/,
  );
  assert.throws(() => validateWriteOptions({ version: 1 }), /internal versioning can not be used/);
  assert.throws(
    () => validateWriteOptions({ versionType: "bogus" }),
    /No version type match \[bogus\]/,
  );
});

Deno.test("writes are visible to GET at once and to search after refresh", () => {
  const index = fresh();
  indexDocument(index, { id: "1", source: {} }, {}, E);
  assert.equal(index.docs.size, 1);
  assert.equal(index.visible.size, 0);
  assert.ok(index.hasPending);
  index.refresh(1);
  assert.equal(index.visible.size, 1);
  assert.equal(index.searchableCount, 1);
});

Deno.test("refresh=wait_for: past max_refresh_listeners a refresh happens at once", async () => {
  const { waitForRefresh, MAX_REFRESH_LISTENERS } = await import("./refresh.ts");
  let refreshed = 0;
  const index = {
    refreshIntervalMs: -1,
    lastRefresh: 0,
    onNextRefresh: () => {},
    refresh: () => void refreshed++,
  } as unknown as Parameters<typeof waitForRefresh>[0];
  const waiters = new Set<() => void>();
  for (let i = 0; i < MAX_REFRESH_LISTENERS; i++) waiters.add(() => {});
  await waitForRefresh(index, { now: () => 0, timers: new Set(), waiters });
  assert.equal(refreshed, 1);
});

Deno.test("index stats: the first writes are timed one by one, later ones by a weighted sample", () => {
  const stats = new IndexStats();
  const weights: number[] = [];
  for (let i = 0; i < INDEX_TIME_EXACT + 2 * INDEX_TIME_SAMPLE; i++) {
    weights.push(stats.indexTimeWeight());
    stats.indexed(1);
  }
  assert.ok(weights.slice(0, INDEX_TIME_EXACT).every((w) => w === 1));
  const later = weights.slice(INDEX_TIME_EXACT);
  assert.deepEqual(later.filter((w) => w > 0), [INDEX_TIME_SAMPLE, INDEX_TIME_SAMPLE]);
  // Over whole samples the weights add up to one per write.
  assert.equal(later.reduce((a, b) => a + b, 0), later.length);
  assert.equal(stats.indexTotal, weights.length);
});

Deno.test("a version conflict names the document's shard, as each product routes it", async () => {
  // Real answers to PUT /e3x/_create/{id} on a three-shard index where 1, 2 and 3 exist:
  // Elasticsearch 9.5.4 {"error":{…,"type":"version_conflict_engine_exception",…,"shard":"2",
  // "index":"e3x"},"status":409}, shards 2, 0, 2; OpenSearch 3.8.0 shards 2, 1, 1.
  const cases = [["elasticsearch", ["2", "0", "2"]], ["opensearch", ["2", "1", "1"]]] as const;
  for (const [flavour, shards] of cases) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/e3x", { settings: { number_of_shards: 3 } });
    const got: string[] = [];
    for (const id of ["1", "2", "3"]) {
      await call(engine, "PUT", `/e3x/_doc/${id}`, { a: 1 });
      const r = await call(engine, "PUT", `/e3x/_create/${id}`, { a: 1 });
      assert.equal(r.code, 409);
      assert.equal(r.error.root_cause[0].shard, r.error.shard);
      got.push(r.error.shard);
    }
    assert.deepEqual(got, shards);
    engine.close();
  }
});
