import assert from "node:assert/strict";
import { KeptDoc, sourceSize } from "./kept_doc.ts";
import { sourceOut, sourceText, stringifyReply } from "./raw_source.ts";
import { Shard } from "./shard.ts";

const TEXT = '{ "b":1,  "a":[1, 2], "big": 12345678901234567890 }';

Deno.test("a kept document gives the parsed object until packed, then fresh parses", () => {
  const parsed = JSON.parse(TEXT);
  const doc = new KeptDoc({ id: "1", source: parsed, text: TEXT, version: 3, seqNo: 7 });
  assert.equal(doc.source, parsed);
  KeptDoc.pack([doc]);
  const again = doc.source;
  assert.notEqual(again, parsed);
  assert.deepEqual(again, parsed);
  // Each read is its own object: changing one leaves the stored document as it was.
  (again as { b: number }).b = 99;
  assert.equal(doc.source.b, 1);
  assert.deepEqual([doc.id, doc.version, doc.seqNo, doc.primaryTerm], ["1", 3, 7, 1]);
});

Deno.test("a packed document's source is still written back byte for byte", () => {
  const doc = new KeptDoc({ id: "1", source: JSON.parse(TEXT), text: TEXT, version: 1, seqNo: 0 });
  KeptDoc.pack([doc]);
  const source = doc.source;
  assert.equal(sourceText(source), TEXT);
  assert.equal(stringifyReply({ _source: sourceOut(source) }), `{"_source":${TEXT}}`);
  assert.equal(doc.parse().big, 12345678901234567000);
});

Deno.test("the shard packs indexed documents and finds the live one by id", () => {
  const shard = new Shard();
  const mappings = { properties: { n: { type: "long" } } };
  const one = new KeptDoc({ id: "a", source: { n: 1 }, text: '{"n":1}', version: 1, seqNo: 0 });
  shard.refresh([{ id: "a", doc: one }, {
    id: "b",
    doc: new KeptDoc({ id: "b", source: { n: 2 }, text: '{"n":2}', version: 1, seqNo: 1 }),
  }], mappings);
  assert.equal(shard.get("a"), one);
  const two = new KeptDoc({ id: "a", source: { n: 3 }, text: '{"n":3}', version: 2, seqNo: 2 });
  shard.refresh([{ id: "a", doc: two }, { id: "b", doc: null }], mappings);
  assert.equal(shard.get("a"), two);
  assert.equal(shard.get("b"), undefined);
  assert.deepEqual([...shard.liveDocs()].map((d) => [d.id, d.source]), [["a", { n: 3 }]]);
  assert.equal(shard.docCount, 1);
});

Deno.test("packing keeps every text exactly, multi-byte and across repacking", () => {
  const texts = ['{"a":"é ü 中文 😀"}', '{"b":2}', '{"lone":"\ud800"}'];
  const docs = texts.map((t, i) =>
    new KeptDoc({ id: String(i), source: {}, text: t, version: 1, seqNo: i })
  );
  KeptDoc.pack(docs);
  assert.deepEqual(docs.map((d) => d.text), texts);
  KeptDoc.pack(docs.slice(1).reverse()); // a merge packs again, from the first store's bytes
  assert.deepEqual(docs.map((d) => d.text), texts);
  assert.deepEqual(docs[0]!.source, { a: "é ü 中文 😀" });
  assert.equal(docs[2]!.text.length, 12); // the lone surrogate stayed a string, unchanged
});

Deno.test("before packing, the parsed source read from a kept document carries its text", () => {
  const doc = new KeptDoc({ id: "1", source: JSON.parse(TEXT), text: TEXT, version: 1, seqNo: 0 });
  assert.equal(sourceText(doc.source), TEXT);
});

Deno.test("store statistics take a kept document's text length without parsing it", () => {
  const doc = new KeptDoc({
    id: "1",
    source: { a: "é" },
    text: '{"a": "é"}',
    version: 1,
    seqNo: 0,
  });
  assert.equal(sourceSize(doc), 10); // UTF-16 units before packing
  KeptDoc.pack([doc]);
  assert.equal(sourceSize(doc), 11); // UTF-8 bytes after
  assert.equal(sourceSize({ id: "2", source: { a: 1 }, version: 1, seqNo: 1, primaryTerm: 1 }), 7);
});

Deno.test("packing in steps gives every text exactly, read the same at each pause", () => {
  const texts = Array.from({ length: 50 }, (_, i) => `{"i":${i},"s":"é${"x".repeat(i)}"}`);
  const docs = texts.map((t, i) =>
    new KeptDoc({ id: String(i), source: JSON.parse(t), text: t, version: 1, seqNo: i })
  );
  KeptDoc.pack(docs.slice(0, 20)); // some of them in a store already, as a merge finds them
  const steps = KeptDoc.packSteps(docs, 7);
  let pauses = 0;
  while (!steps.next().done) {
    pauses++;
    assert.deepEqual(docs.map((d) => d.text), texts);
  }
  assert.ok(pauses >= 3 * Math.ceil(50 / 7), `${pauses} pauses`);
  assert.deepEqual(docs.map((d) => d.text), texts);
  assert.deepEqual(docs.map((d) => d.source), texts.map((t) => JSON.parse(t)));
  // One store for all of them now, as one pack makes it.
  assert.equal(new Set(docs.map((d) => d.data)).size, 1);
});
