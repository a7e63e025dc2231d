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

Deno.test("a tombstone lasts index.gc_deletes, then the id starts again at version 1", async () => {
  // Both real engines (Elasticsearch 9.5.4, OpenSearch 3.8.0), with index.gc_deletes 1s: a
  // delete answers version 4, a write at once 5; deleted again and written 2.5 s later (with or
  // without a refresh between), the write is version 1; a missing id deleted twice 2.5 s apart
  // answers version 1 both times.
  const index = new IndexState("v", { "index.gc_deletes": "1ms" }, {}, 0);
  for (let i = 0; i < 3; i++) indexDocument(index, { id: "1", source: { a: i } }, {}, E);
  assert.equal(deleteDocument(index, "1", {}).version, 4);
  assert.equal(indexDocument(index, { id: "1", source: { a: 9 } }, {}, E).version, 5);
  deleteDocument(index, "1", {});
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(indexDocument(index, { id: "1", source: { a: 9 } }, {}, E).version, 1);
  assert.equal(deleteDocument(index, "2", {}).version, 1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(deleteDocument(index, "2", {}).version, 1);
});

Deno.test("expired tombstones are dropped as new ones are left: their number stays bounded", () => {
  const index = fresh();
  // 60 s by default: a tombstone is kept for 60 s and read back until then.
  index.leaveTombstone("a", { version: 3, seqNo: 0 }, 0);
  assert.equal(index.tombstone("a", 60_000)?.version, 3);
  assert.equal(index.tombstone("a", 60_001), undefined);
  for (let i = 0; i < 1000; i++) index.leaveTombstone(`d${i}`, { version: 1, seqNo: i }, i * 100);
  // At 100 s the ones left before 40 s are gone without being read: the first kept is d400.
  assert.equal(index.tombstone("d399", 100_000), undefined);
  assert.equal(index.tombstone("d400", 100_000)?.version, 1);
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
