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

/** A shard holding `n` kept documents, indexed, and its snapshot's bytes by part. */
function counted(n: number): { shard: Shard; docs: KeptDoc[]; counter: HeapCounter } {
  const shard = new Shard();
  const docs = kept(n);
  shard.refresh(docs.map((doc) => ({ id: doc.id, doc })), MAPPINGS);
  const counter = new HeapCounter();
  countSnapshot(counter, shard.snapshot());
  return { shard, docs, counter };
}

Deno.test("heap bytes: the shard's id filter is counted under ids, once", () => {
  const { shard, counter } = counted(500);
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

Deno.test("heap bytes: a kept document counts its own six slots, its text once packed", () => {
  const small = counted(100);
  const large = counted(200);
  const documents = (c: HeapCounter) => new Map(c.parts).get("documents")!;
  // Each document more: its slot in the segment's list and an object of six fields (id, version,
  // seqNo, primaryTerm, its text's store and its place), 8 + 24 + 6 × 8 bytes.
  assert.equal(documents(large.counter) - documents(small.counter), 100 * (8 + 24 + 6 * 8));
  const source = new Map(small.counter.parts).get("source")!;
  assert.ok(source >= small.docs.reduce((n, d) => n + d.text.length, 0));
  for (const d of small.docs) assert.deepEqual(d.source, JSON.parse(d.text));
});
