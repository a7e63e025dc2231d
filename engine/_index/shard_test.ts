import assert from "node:assert/strict";
import { Shard } from "./shard.ts";
import type { StoredDoc } from "./types.ts";

const mappings = {
  properties: { t: { type: "text" }, k: { type: "keyword" }, n: { type: "long" } },
};
const doc = (id: string, source: Record<string, unknown>): StoredDoc => ({
  id,
  source,
  version: 1,
  seqNo: 0,
  primaryTerm: 1,
});

Deno.test("refresh adds, replaces and deletes; snapshots stay frozen", () => {
  const shard = new Shard();
  shard.refresh(
    [{ id: "a", doc: doc("a", { k: "x" }) }, { id: "b", doc: doc("b", { k: "y" }) }],
    mappings,
  );
  assert.equal(shard.docCount, 2);
  const before = shard.snapshot();
  assert.equal(shard.snapshot(), before, "snapshot is cached until the next refresh");
  shard.refresh([{ id: "a", doc: null }, { id: "b", doc: doc("b", { k: "z" }) }], mappings);
  assert.equal(shard.docCount, 1);
  assert.equal(before.docCount, 2);
  assert.equal(before.views[0]!.deleted, null, "old snapshot does not see the deletion");
  const after = shard.snapshot();
  assert.equal(after.views.length, 1, "a fully deleted segment is dropped");
  assert.equal(after.doc(0).source.k, "z");
  assert.equal(before.doc(1).source.k, "y");
});

Deno.test("many small refreshes are merged into few segments", () => {
  const shard = new Shard();
  for (let i = 0; i < 40; i++) {
    shard.refresh([{ id: String(i), doc: doc(String(i), { n: i, t: "w" + i }) }], mappings);
  }
  shard.refresh([{ id: "3", doc: null }], mappings);
  const snap = shard.snapshot();
  assert.ok(snap.views.length <= 12, `segments: ${snap.views.length}`);
  assert.equal(shard.docCount, 39);
  const ids = new Set<string>();
  for (const v of snap.views) v.segment.docs.forEach((d, i) => v.deleted?.[i] || ids.add(d.id));
  assert.equal(ids.size, 39);
  assert.ok(!ids.has("3"));
});

Deno.test("field data: postings with positions, norms, doc values and points", () => {
  const shard = new Shard();
  shard.refresh([
    { id: "1", doc: doc("1", { t: ["hello world", "hello"], k: ["b", "a"], n: [5, 3] }) },
    { id: "2", doc: doc("2", { t: "world" }) },
  ], mappings);
  const seg = shard.snapshot().views[0]!.segment;
  const t = seg.fields.get("t")!;
  const hello = t.terms.get("hello")!;
  assert.deepEqual([...hello.docs], [0]);
  assert.deepEqual([...hello.freqs!], [2]);
  assert.deepEqual([...hello.positions!], [0, 102]);
  assert.deepEqual([...t.norms!], [3, 1]);
  const k = seg.fields.get("k")!;
  assert.deepEqual(k.strValues, ["a", "b"]);
  const n = seg.fields.get("n")!;
  assert.deepEqual([...n.numValues!], [3, 5]);
  assert.deepEqual([...n.dvStart], [0, 2, 2]);
  assert.deepEqual([...n.pointValues!], [3, 5]);
  assert.deepEqual([...seg.fields.get("k")!.present], [0]);
});

Deno.test("a large, mostly deleted segment is rewritten", () => {
  const shard = new Shard();
  shard.refresh(
    Array.from({ length: 2000 }, (_, i) => ({ id: String(i), doc: doc(String(i), { n: i }) })),
    mappings,
  );
  shard.refresh(Array.from({ length: 1200 }, (_, i) => ({ id: String(i), doc: null })), mappings);
  const snap = shard.snapshot();
  assert.equal(snap.views.length, 1);
  assert.equal(snap.maxDoc, 800);
  assert.equal(snap.views[0]!.deleted, null);
});

Deno.test("ids are found in every segment while the id filter grows, and replaced ones go", () => {
  const shard = new Shard({ backgroundMinDocs: Infinity });
  // Refreshes of 300 new ids each, past several rebuilds of the filter (it starts at 128 ids).
  for (let r = 0; r < 30; r++) {
    shard.refresh(
      Array.from({ length: 300 }, (_, i) => {
        const id = `d${r * 300 + i}`;
        return { id, doc: doc(id, { n: r * 300 + i }), fresh: true };
      }),
      mappings,
      true,
    );
  }
  assert.equal(shard.docCount, 9000);
  for (let i = 0; i < 9000; i += 7) assert.equal(shard.get(`d${i}`)?.source.n, i, `d${i}`);
  for (const id of ["d9000", "x", "", "d-1"]) assert.equal(shard.get(id), undefined, id);
  // Replacing and deleting old ids (not fresh) finds them through the filter.
  shard.refresh([
    { id: "d5", doc: doc("d5", { n: -5 }) },
    { id: "d8999", doc: null },
    { id: "d6000", doc: doc("d6000", { n: -6000 }) },
  ], mappings);
  assert.equal(shard.docCount, 8999);
  assert.equal(shard.get("d5")?.source.n, -5);
  assert.equal(shard.get("d6000")?.source.n, -6000);
  assert.equal(shard.get("d8999"), undefined);
  const seen = new Map<string, number>();
  for (const v of shard.snapshot().views) {
    v.segment.docs.forEach((d, i) => {
      if (!v.deleted?.[i]) seen.set(d.id, (seen.get(d.id) ?? 0) + 1);
    });
  }
  assert.equal(seen.size, 8999);
  assert.ok([...seen.values()].every((n) => n === 1), "one live entry per id");
});
