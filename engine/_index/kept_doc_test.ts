import assert from "node:assert/strict";
import { KeptDoc, sourceSize } from "./kept_doc.ts";
import { sourceOut, sourceText, stringifyReply } from "./raw_source.ts";
import { Shard } from "./shard.ts";

const TEXT = '{ "b":1,  "a":[1, 2], "big": 12345678901234567890 }';

Deno.test("a kept document gives the parsed object until packed, then fresh parses", () => {
  const parsed = JSON.parse(TEXT);
  const doc = new KeptDoc("1", parsed, TEXT, 3, 7);
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
  const doc = new KeptDoc("1", JSON.parse(TEXT), TEXT, 1, 0);
  KeptDoc.pack([doc]);
  const source = doc.source;
  assert.equal(sourceText(source), TEXT);
  assert.equal(stringifyReply({ _source: sourceOut(source) }), `{"_source":${TEXT}}`);
  assert.equal(doc.parse().big, 12345678901234567000);
});

Deno.test("the shard packs indexed documents and finds the live one by id", () => {
  const shard = new Shard();
  const mappings = { properties: { n: { type: "long" } } };
  const one = new KeptDoc("a", { n: 1 }, '{"n":1}', 1, 0);
  shard.refresh([{ id: "a", doc: one }, {
    id: "b",
    doc: new KeptDoc("b", { n: 2 }, '{"n":2}', 1, 1),
  }], mappings);
  assert.equal(shard.get("a"), one);
  const two = new KeptDoc("a", { n: 3 }, '{"n":3}', 2, 2);
  shard.refresh([{ id: "a", doc: two }, { id: "b", doc: null }], mappings);
  assert.equal(shard.get("a"), two);
  assert.equal(shard.get("b"), undefined);
  assert.deepEqual([...shard.liveDocs()].map((d) => [d.id, d.source]), [["a", { n: 3 }]]);
  assert.equal(shard.docCount, 1);
});

Deno.test("packing keeps every text exactly, multi-byte and across repacking", () => {
  const texts = ['{"a":"é ü 中文 😀"}', '{"b":2}', '{"lone":"\ud800"}'];
  const docs = texts.map((t, i) => new KeptDoc(String(i), {}, t, 1, i));
  KeptDoc.pack(docs);
  assert.deepEqual(docs.map((d) => d.text), texts);
  KeptDoc.pack(docs.slice(1).reverse()); // a merge packs again, from the first store's bytes
  assert.deepEqual(docs.map((d) => d.text), texts);
  assert.deepEqual(docs[0]!.source, { a: "é ü 中文 😀" });
  assert.equal(docs[2]!.text.length, 12); // the lone surrogate stayed a string, unchanged
});

Deno.test("before packing, the parsed source read from a kept document carries its text", () => {
  const doc = new KeptDoc("1", JSON.parse(TEXT), TEXT, 1, 0);
  assert.equal(sourceText(doc.source), TEXT);
});

Deno.test("store statistics take a kept document's text length without parsing it", () => {
  const doc = new KeptDoc("1", { a: "é" }, '{"a": "é"}', 1, 0);
  assert.equal(sourceSize(doc), 10); // UTF-16 units before packing
  KeptDoc.pack([doc]);
  assert.equal(sourceSize(doc), 11); // UTF-8 bytes after
  assert.equal(sourceSize({ id: "2", source: { a: 1 }, version: 1, seqNo: 1, primaryTerm: 1 }), 7);
});
