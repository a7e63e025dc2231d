import assert from "node:assert/strict";
import { hashId, IdFilter, IdIndex } from "./id_index.ts";

Deno.test("the id table finds every id, misses others, and agrees with a Map", () => {
  const docs = Array.from({ length: 5000 }, (_, i) => ({ id: i % 7 === 0 ? `k${i}` : String(i) }));
  docs.push({ id: "42" }, { id: "" }, { id: "é😀" }); // a repeat (last wins), empty, non-ASCII
  const map = new Map(docs.map((d, i) => [d.id, i]));
  const ids = new IdIndex(docs);
  assert.equal(ids.size, map.size);
  for (const [id, ord] of map) assert.equal(ids.get(id), ord, id);
  for (const id of ["5000", "k1", "x", "4 2"]) assert.equal(ids.get(id), undefined, id);
  assert.deepEqual([...ids], [...map].sort((a, b) => a[1] - b[1]));
  assert.equal(ids.get("k14", hashId("k14")), 14);
  assert.equal(ids.has("é😀"), true);
});

Deno.test("an empty segment's table answers nothing", () => {
  const ids = new IdIndex([]);
  assert.equal(ids.get("a"), undefined);
  assert.deepEqual([...ids], []);
});

Deno.test("an id table built in steps is the one built in one go", () => {
  const docs = Array.from({ length: 3000 }, (_, i) => ({ id: `id${i % 2500}` }));
  const steps = IdIndex.steps(docs, 128);
  let pauses = 0;
  let step = steps.next();
  while (!step.done) {
    pauses++;
    step = steps.next();
  }
  assert.equal(pauses, Math.ceil(3000 / 128) - 1);
  const whole = new IdIndex(docs);
  assert.equal(step.value.size, whole.size);
  assert.equal(step.value.size, 2500);
  assert.deepEqual([...step.value], [...whole]);
  for (let i = 0; i < 2600; i++) assert.equal(step.value.get(`id${i}`), whole.get(`id${i}`));
  assert.deepEqual(step.value.arrays, whole.arrays);
});

Deno.test("the id filter never misses an id it was given, and rules most others out", () => {
  const filter = new IdFilter(20_000);
  assert.ok(filter.capacity >= 20_000);
  for (let i = 0; i < 20_000; i++) filter.add(hashId(`doc-${i}`));
  assert.equal(filter.count, 20_000);
  for (let i = 0; i < 20_000; i++) assert.ok(filter.mayHold(hashId(`doc-${i}`)), `doc-${i}`);
  let maybe = 0;
  for (let i = 0; i < 100_000; i++) if (filter.mayHold(hashId(`other-${i}`))) maybe++;
  // About 16 bits an id at capacity: well under 2% of absent ids pass.
  assert.ok(maybe < 2_000, `${maybe} false positives`);
  const empty = new IdFilter(0);
  assert.equal(empty.mayHold(hashId("a")), false);
});
