import assert from "node:assert/strict";
import { exactBody, exactStored, restoreExact, settleExact } from "./exact_source.ts";
import { keepSourceText, sourceText } from "../_index/raw_source.ts";

const BIG = 2n ** 53n + 1n;

Deno.test("exactStored and exactBody read bigints only where a text may hold one", () => {
  const source = { id: Number(BIG) };
  assert.equal(exactStored(source), undefined); // no text kept
  keepSourceText(source, `{"id": ${BIG}}`);
  assert.deepEqual(exactStored(source), { id: BIG });
  const small = { n: 1 };
  keepSourceText(small, '{"n": 1}');
  assert.equal(exactStored(small), undefined);
  assert.equal(exactBody('{"doc": {"n": 1}}'), undefined);
  assert.deepEqual(exactBody(`{"doc": {"id": ${BIG}}}`), { doc: { id: BIG } });
  assert.equal(exactBody(`{"doc": ${BIG}`), undefined); // invalid: the plain parse reports it
});

Deno.test("settleExact stores doubles and keeps the exact text only when a bigint is there", () => {
  const plain = { n: 1 };
  assert.equal(settleExact(plain), plain);
  const settled = settleExact({ id: BIG, a: [1, { b: BIG }] });
  assert.deepEqual(settled, { id: Number(BIG), a: [1, { b: Number(BIG) }] });
  assert.equal(sourceText(settled), `{"id":${BIG},"a":[1,{"b":${BIG}}]}`);
});

Deno.test("restoreExact takes the exact value at the same place, else a params bigint of that double", () => {
  const before = { id: BIG, a: [BIG], n: 1 };
  const after = { id: Number(BIG), a: [Number(BIG)], n: 2, p: Number(BIG + 2n), q: 2 ** 60 };
  const restored = restoreExact(after, before, { v: BIG + 2n });
  assert.equal(
    sourceText(restored),
    `{"id":${BIG},"a":[${BIG}],"n":2,"p":${BIG + 2n},"q":${2 ** 60}}`,
  );
  // A value the script changed keeps the double it computed.
  const changed = restoreExact({ id: Number(BIG) + 2 }, before, undefined);
  assert.equal(sourceText(changed), undefined);
  assert.deepEqual(changed, { id: Number(BIG) + 2 });
  const same = { n: 1 };
  assert.equal(restoreExact(same, undefined, undefined), same);
  assert.equal(restoreExact(same, { n: 1 }, undefined), same);
});
