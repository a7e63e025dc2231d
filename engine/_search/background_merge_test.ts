// Background merges, driven slice by slice: searches read the old segments until the merged one is
// swapped in, writes made meanwhile are kept, and a cancelled merge leaves everything as it was.
import assert from "node:assert/strict";
import { findMatches } from "./matches_api.ts";
import { searchApi, SearchContexts } from "./search_api.ts";
import { TestIndex } from "../../tests/support/test_index.ts";
import { ManualDefer } from "../../tests/support/manual_defer.ts";

const WORDS = ["alpha", "beta", "gamma", "delta", "eps"];
const mappings = {
  properties: { t: { type: "text" }, k: { type: "keyword" }, n: { type: "long" } },
};

function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

function source(i: number, r: () => number): Record<string, unknown> {
  const words = Array.from({ length: 1 + Math.floor(r() * 5) }, () => WORDS[Math.floor(r() * 5)]);
  return { t: words.join(" "), k: WORDS[i % 5], n: i };
}

/** A background-merging index: every merge is a job of one step per slice. */
function merging(defer: ManualDefer): TestIndex {
  return new TestIndex("m", mappings, 10000, {
    defer: defer.defer,
    sliceMs: 0,
    backgroundMinDocs: 0,
  });
}

/** Ids and scores of a match, and the ids of a term query, as the index answers now. */
function answers(idx: TestIndex): { scored: string[]; term: string[] } {
  const res = searchApi(new SearchContexts(), [idx.target()], {
    query: { match: { t: "alpha eps" } },
    size: 1000,
  }, new URLSearchParams());
  const hits = (res.hits as { hits: { _id: string; _score: number }[] }).hits;
  return {
    scored: hits.map((h) => `${h._id}:${h._score}`).sort(),
    term: findMatches([idx.target()], { term: { k: "beta" } }).map((m) => m.doc.id).sort(),
  };
}

/** What a scan of the model answers for the term query. */
function termModel(model: Map<string, Record<string, unknown>>): string[] {
  return [...model].filter(([, s]) => s.k === "beta").map(([id]) => id).sort();
}

Deno.test("results are the same before, during and after a background merge", () => {
  const defer = new ManualDefer();
  const idx = merging(defer);
  const r = rng(3);
  for (let seg = 0; seg < 13; seg++) {
    const batch: Record<string, Record<string, unknown>> = {};
    for (let i = seg * 10; i < seg * 10 + 10; i++) batch[String(i)] = source(i, r);
    idx.put(batch);
  }
  assert.ok(idx.shard.merging, "13 segments start a merge");
  assert.equal(idx.shard.merges.current, 1);
  const before = answers(idx);
  const segments = idx.shard.snapshot().views.length;
  let slices = 0;
  while (idx.shard.merging) {
    assert.ok(defer.runOne(), "a running merge always has its next slice queued");
    slices++;
    if (idx.shard.merging) {
      assert.deepEqual(answers(idx), before, `during, after slice ${slices}`);
      assert.equal(idx.shard.snapshot().views.length, segments);
    }
  }
  assert.ok(slices > 3, `the merge ran in slices (${slices})`);
  assert.deepEqual(answers(idx), before, "after the swap");
  assert.ok(idx.shard.snapshot().views.length < segments);
  assert.equal(idx.shard.merges.total, 1);
  assert.equal(idx.shard.merges.current, 0);
  assert.equal(defer.tasks.length, 0, "nothing left queued");
});

Deno.test("deletes, updates and refreshes made during a merge are kept after the swap", () => {
  const defer = new ManualDefer();
  const idx = merging(defer);
  const r = rng(5);
  const model = new Map<string, Record<string, unknown>>();
  for (let seg = 0; seg < 13; seg++) {
    const batch: Record<string, Record<string, unknown>> = {};
    for (let i = seg * 10; i < seg * 10 + 10; i++) batch[String(i)] = source(i, r);
    for (const [id, s] of Object.entries(batch)) model.set(id, s);
    idx.put(batch);
  }
  assert.ok(idx.shard.merging);
  defer.runOne();
  idx.put({ "1": null, "6": null }); // deletes in merged segments
  model.delete("1");
  model.delete("6");
  defer.runOne();
  const updated = { t: "zeta", k: "beta", n: -5 };
  idx.put({ "5": updated, "500": { t: "new", k: "beta", n: 500 } });
  model.set("5", updated);
  model.set("500", { t: "new", k: "beta", n: 500 });
  assert.deepEqual(idx.shard.get("5")?.source, updated, "the update is visible during the merge");
  assert.deepEqual(answers(idx).term, termModel(model));
  defer.runAll();
  assert.ok(!idx.shard.merging);
  assert.equal(idx.shard.get("1"), undefined);
  assert.equal(idx.shard.get("6"), undefined);
  assert.deepEqual(idx.shard.get("5")?.source, updated);
  assert.equal(idx.shard.docCount, model.size);
  assert.deepEqual([...idx.shard.liveDocs()].map((d) => d.id).sort(), [...model.keys()].sort());
  assert.deepEqual(answers(idx).term, termModel(model));
  // The deletions carried over are deletions of the merged segment.
  const views = idx.shard.snapshot().views;
  assert.ok(views.some((v) => v.deleted !== null && v.segment.maxDoc === 70));
});

Deno.test("a cancelled merge leaves the segments and queues nothing; the next refresh merges", () => {
  const defer = new ManualDefer();
  const idx = merging(defer);
  const r = rng(9);
  for (let i = 0; i < 13; i++) idx.put({ [String(i)]: source(i, r) });
  assert.ok(idx.shard.merging);
  defer.runOne();
  const before = answers(idx);
  idx.shard.cancelMerge();
  assert.ok(!idx.shard.merging);
  assert.equal(defer.tasks.length, 0, "the queued slice was withdrawn");
  assert.equal(idx.shard.merges.current, 0);
  assert.equal(idx.shard.merges.total, 0);
  assert.equal(idx.shard.snapshot().views.length, 13);
  assert.deepEqual(answers(idx), before);
  idx.put({ "13": source(13, r) });
  assert.ok(idx.shard.merging, "a later refresh starts a new merge");
  defer.runAll();
  assert.equal(idx.shard.merges.total, 1);
  assert.deepEqual(answers(idx).term, before.term); // doc 13 has k "delta"
});

Deno.test("forceMerge finishes a running merge and merges down to the asked count", () => {
  const defer = new ManualDefer();
  const idx = merging(defer);
  const r = rng(13);
  for (let i = 0; i < 13; i++) idx.put({ [String(i)]: source(i, r) });
  assert.ok(idx.shard.merging);
  const before = answers(idx);
  idx.shard.forceMerge(1);
  assert.ok(!idx.shard.merging);
  assert.equal(defer.tasks.length, 0);
  assert.equal(idx.shard.snapshot().views.length, 1);
  assert.deepEqual(answers(idx), before);
  idx.put({ "3": null });
  idx.shard.forceMerge(Infinity, true);
  assert.equal(idx.shard.snapshot().views.length, 1);
  assert.equal(idx.shard.snapshot().views[0]!.deleted, null, "deletions expunged");
  assert.equal(idx.shard.docCount, 12);
});

Deno.test("random writes, deletes and refreshes between merge slices agree with a model", () => {
  for (const seed of [1, 2, 3, 4]) {
    const defer = new ManualDefer();
    const idx = merging(defer);
    const r = rng(seed);
    const model = new Map<string, Record<string, unknown>>();
    for (let round = 0; round < 120; round++) {
      const batch: Record<string, Record<string, unknown> | null> = {};
      for (let k = 0; k < 1 + Math.floor(r() * 6); k++) {
        const id = String(Math.floor(r() * 60));
        if (r() < 0.3) {
          batch[id] = null;
          model.delete(id);
        } else {
          const s = source(Math.floor(r() * 1000), r);
          batch[id] = s;
          model.set(id, s);
        }
      }
      idx.put(batch);
      for (let s = Math.floor(r() * 4); s > 0; s--) defer.runOne();
      const ctx = `seed ${seed} round ${round}`;
      assert.equal(idx.shard.docCount, model.size, ctx);
      assert.deepEqual(answers(idx).term, termModel(model), ctx);
      for (const [id, s] of model) assert.deepEqual(idx.shard.get(id)?.source, s, `${ctx} ${id}`);
      assert.ok(defer.tasks.length <= 1, "at most one merge job per shard");
      assert.ok(idx.shard.snapshot().views.length <= 48, "segments stay bounded");
    }
    defer.runAll();
    assert.deepEqual([...idx.shard.liveDocs()].map((d) => d.id).sort(), [...model.keys()].sort());
    assert.ok(idx.shard.merges.total > 0, `seed ${seed}: merges ran`);
  }
});
