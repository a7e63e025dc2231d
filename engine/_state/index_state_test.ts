import assert from "node:assert/strict";
import { Cluster } from "./cluster.ts";
import type { StoredDoc } from "../_index/types.ts";

const doc = (i: number): StoredDoc => ({
  id: String(i),
  source: { n: i },
  version: 1,
  seqNo: i,
  primaryTerm: 1,
});

function load(settings: Record<string, string>, clockMs: { now: number }, docs: number) {
  const c = new Cluster(() => clockMs.now);
  const index = c.create("big", settings, {});
  for (let i = 0; i < docs; i++) index.put(String(i), doc(i));
  return index;
}

Deno.test("a long load runs the scheduled refresh itself once it is due", () => {
  const clock = { now: 0 };
  const index = load({}, clock, 5_000);
  // Not due yet (no time passed): everything waits for a refresh.
  assert.equal(index.hasPending, true);
  assert.equal(index.visible.size, 0);
  clock.now = 1_500;
  for (let i = 5_000; i < 8_192; i++) index.put(String(i), doc(i));
  // The 8,192nd pending write found the refresh due and ran it: all of them are searchable.
  assert.equal(index.hasPending, false);
  assert.equal(index.visible.size, 8_192);
  assert.equal(index.lastRefresh, 1_500);
});

Deno.test("no refresh from writes when the interval is -1 or not yet passed", () => {
  const clock = { now: 0 };
  const off = load({ "index.refresh_interval": "-1" }, clock, 10);
  clock.now = 60_000;
  for (let i = 10; i < 8_192; i++) off.put(String(i), doc(i));
  assert.equal(off.visible.size, 0);
  const young = load({ "index.refresh_interval": "30s" }, { now: 0 }, 8_192);
  assert.equal(young.visible.size, 0);
  assert.equal(young.hasPending, true);
});

Deno.test("real-time reads see pending writes over the refreshed segments, and count them", () => {
  const index = new Cluster(() => 0).create("rt", {}, {});
  for (let i = 0; i < 3; i++) index.put(String(i), doc(i));
  assert.equal(index.docCount, 3);
  index.refresh(1);
  const replaced = { ...doc(1), source: { n: 10 }, version: 2 };
  index.put("1", replaced);
  index.remove("2", { version: 2, seqNo: 9 });
  index.remove("2", { version: 3, seqNo: 10 }); // deleting twice counts once
  assert.equal(index.docs.get("1"), replaced);
  assert.equal(index.docs.get("2"), undefined);
  assert.deepEqual(index.docs.get("0")?.source, { n: 0 });
  assert.equal(index.docCount, 2);
  // Search still sees the refreshed state until the next refresh.
  assert.deepEqual(index.visible.get("1")?.source, { n: 1 });
  assert.equal(index.visible.size, 3);
  index.refresh(2);
  assert.equal(index.visible.get("1"), replaced);
  assert.equal(index.visible.get("2"), undefined);
  assert.deepEqual([...index.visible.values()].map((d) => d.id).sort(), ["0", "1"]);
  assert.equal(index.docCount, 2);
  index.put("2", doc(2));
  assert.equal(index.docCount, 3);
});

Deno.test("ids written new, rewritten or deleted before a refresh leave one searchable copy", () => {
  const index = load({ "index.refresh_interval": "-1" }, { now: 0 }, 0);
  const v = (i: number, n: number): StoredDoc => ({ ...doc(i), source: { n } });
  index.put("1", v(1, 1)); // new: no segment holds it
  index.put("1", v(1, 2), undefined, true); // rewritten while pending
  index.put("2", v(2, 1));
  index.remove("2", undefined, undefined, true); // deleted while pending
  index.put("2", v(2, 3), undefined, false); // and written again
  index.refresh(0);
  assert.deepEqual([...index.visible.values()].map((d) => [d.id, d.source]).sort(), [
    ["1", { n: 2 }],
    ["2", { n: 3 }],
  ]);
  index.put("1", v(1, 4), undefined, true); // a searchable id replaced
  index.put("3", v(3, 1));
  index.refresh(0);
  assert.equal(index.visible.size, 3);
  assert.deepEqual(index.visible.get("1")?.source, { n: 4 });
  assert.deepEqual([...index.visible.values()].map((d) => d.id).sort(), ["1", "2", "3"]);
});
