import assert from "node:assert/strict";
import { SEARCH_QUIET_MS, searchBegins, searchesActive } from "./search_pressure.ts";
import { Shard } from "./shard.ts";
import type { StoredDoc } from "./types.ts";

Deno.test("search pressure: active while a search runs and shortly after, each end counted once", () => {
  const now = performance.now();
  const a = searchBegins();
  const b = searchBegins();
  assert.equal(searchesActive(now + 1e9), true); // running, whatever the time
  a();
  a();
  assert.equal(searchesActive(now + 1e9), true); // b still runs: a's second end was not counted
  b();
  const ended = performance.now();
  assert.equal(searchesActive(ended), true);
  assert.equal(searchesActive(ended + SEARCH_QUIET_MS + 1), false);
});

Deno.test("a background merge pauses between short slices while searches run", async () => {
  const { shard, tasks, delays, doc, mappings } = pacedShard();
  for (let i = 0; i < 13; i++) shard.refresh([{ id: String(i), doc: doc(String(i)) }], mappings);
  assert.equal(shard.merging, true);
  const end = searchBegins();
  tasks.shift()!();
  assert.equal(shard.merging, true);
  assert.equal(delays.at(-1), 3); // a search runs: the next slice waits
  end();
  await new Promise((resolve) => setTimeout(resolve, SEARCH_QUIET_MS + 5));
  while (shard.merging) {
    tasks.shift()!();
    if (shard.merging) assert.equal(delays.at(-1), 0); // none: slices follow at once
  }
  assert.equal(shard.snapshot().docCount, 13);
});

Deno.test("a background merge stops yielding to searches once segments pile up behind it", () => {
  const { shard, tasks, delays, doc, mappings } = pacedShard();
  for (let i = 0; i < 13; i++) shard.refresh([{ id: String(i), doc: doc(String(i)) }], mappings);
  // 13 → a merge of 7 runs; 30 more refreshes meanwhile: 36 segments, past twice the usual 12.
  for (let i = 13; i < 43; i++) shard.refresh([{ id: String(i), doc: doc(String(i)) }], mappings);
  assert.equal(shard.merging, true);
  const end = searchBegins();
  try {
    const before = delays.length;
    tasks.shift()!();
    assert.equal(shard.merging, true);
    assert.equal(delays.length, before + 1);
    assert.equal(delays.at(-1), 0); // searches run, but the merge keeps its pace
  } finally {
    end();
  }
});

/** A shard whose background merge runs one slice per queued task, recording each task's delay. */
function pacedShard() {
  const delays: number[] = [];
  const tasks: Array<() => void> = [];
  const shard = new Shard({
    defer: (task, delayMs = 0) => {
      tasks.push(task);
      delays.push(delayMs);
      return () => {};
    },
    sliceMs: 0,
    busyPauseMs: 3,
    backgroundMinDocs: 0,
  });
  const mappings = { properties: { t: { type: "text" } } };
  const doc = (id: string): StoredDoc => ({
    id,
    source: { t: "w" + id },
    version: 1,
    seqNo: 0,
    primaryTerm: 1,
  });
  return { shard, tasks, delays, doc, mappings };
}
