import assert from "node:assert/strict";
import { countSnapshot, HeapCounter } from "./heap_bytes.ts";
import { KeptDoc } from "./kept_doc.ts";
import { Shard } from "./shard.ts";

const MAPPINGS = { properties: { t: { type: "text" } } };

function kept(n: number): KeptDoc[] {
  return Array.from({ length: n }, (_, i) => {
    const text = JSON.stringify({ t: `a b${i}` });
    return new KeptDoc({ id: String(i), source: JSON.parse(text), text, version: 1, seqNo: i });
  });
}

Deno.test("heap bytes: the shard's id filter is counted under ids, once", () => {
  const shard = new Shard();
  const docs = kept(500);
  shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), MAPPINGS);
  const counter = new HeapCounter();
  countSnapshot(counter, shard.snapshot());
  const ids = new Map(counter.parts).get("ids")!;
  // The same ids without the filter: the id strings and the segment's id table.
  const without = new HeapCounter();
  for (const { segment } of shard.snapshot().views) {
    for (const d of segment.docs) without.string("ids", d.id);
    for (const a of segment.ids.arrays) without.array("ids", a);
  }
  const filter = new HeapCounter();
  for (const a of shard.idFilterArrays) filter.array("ids", a);
  assert.ok(shard.idFilterArrays[0]!.byteLength > 0);
  assert.equal(ids, without.total + filter.total);
  const again = new HeapCounter();
  countSnapshot(again, shard.snapshot());
  assert.equal(again.total, counter.total);
});

Deno.test("heap bytes: a kept document counts its own slots, its text once packed", () => {
  const shard = new Shard();
  const docs = kept(100);
  shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), MAPPINGS);
  const counter = new HeapCounter();
  countSnapshot(counter, shard.snapshot());
  const parts = new Map(counter.parts);
  assert.ok(parts.get("documents")! >= 100 * (3 + 6) * 8);
  assert.ok(parts.get("source")! >= docs.reduce((n, d) => n + d.text.length, 0));
  for (const d of docs) assert.deepEqual(d.source, JSON.parse(d.text));
});
