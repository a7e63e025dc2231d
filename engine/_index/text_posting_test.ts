import assert from "node:assert/strict";
import { type TextPosting, TextPostingsWriter } from "./text_posting.ts";

Deno.test("text postings keep frequencies only where a term repeats in a doc", () => {
  const w = new TextPostingsWriter(8, 8);
  const pos = Int32Array.of(0, 4, 1, 2, 9);
  w.add(0, pos, 0, 1); // "a" once in doc 0
  w.add(3, pos, 1, 2); // and once in doc 3
  w.endTerm("a");
  w.endTerm("gone"); // no docs: left out
  w.add(1, pos, 2, 4); // "b" twice in doc 1
  w.add(2, pos, 4, 5);
  w.endTerm("b");
  const out = w.finish();
  assert.deepEqual([...out.keys()], ["a", "b"]);
  const a = out.get("a")!;
  assert.deepEqual([[...a.docs], a.freqs, [...a.posStart], [...a.positions]], [
    [0, 3],
    null,
    [0, 1, 2],
    [0, 4],
  ]);
  const b = out.get("b")!;
  assert.deepEqual([[...b.docs], [...b.freqs!], [...b.posStart], [...b.positions]], [
    [1, 2],
    [2, 1],
    [0, 2, 3],
    [1, 2, 9],
  ]);
  assert.equal(b.posStart, b.posStart); // computed once
});

Deno.test("postings finished in steps are the ones finished in one go", () => {
  const fill = (w: TextPostingsWriter) => {
    for (let t = 0; t < 40; t++) {
      for (let d = t; d < 400; d += 1 + (t % 5)) {
        const f = 1 + ((d * t) % 3);
        w.add(d, Int32Array.from({ length: f }, (_, j) => (d + j * 300) % 70_000), 0, f);
      }
      w.endTerm(`t${t}`);
    }
  };
  const a = new TextPostingsWriter(20_000, 60_000);
  const b = new TextPostingsWriter(20_000, 60_000);
  fill(a);
  fill(b);
  const steps = a.finishSteps(97);
  let pauses = 0;
  let step = steps.next();
  while (!step.done) {
    pauses++;
    step = steps.next();
  }
  assert.ok(pauses > 10, `${pauses} pauses`);
  const stepped: Map<string, TextPosting> = step.value;
  const whole = b.finish();
  assert.deepEqual([...stepped.keys()], [...whole.keys()]);
  for (const [term, p] of whole) {
    const q = stepped.get(term)!;
    assert.deepEqual([q.docs, q.freqs, q.positions], [p.docs, p.freqs, p.positions], term);
  }
});

Deno.test("text postings read lazily give every term's docs, freqs and positions", () => {
  // Random terms over random docs, positions large enough to need 16 and 32 bits.
  let seed = 12345;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  for (const maxPos of [200, 60_000, 1_000_000]) {
    const expected = new Map<string, Array<[number, number[]]>>();
    const terms = 300;
    let docs = 0;
    let positions = 0;
    for (let t = 0; t < terms; t++) {
      const list: Array<[number, number[]]> = [];
      let doc = rand(3);
      for (let k = rand(6); k > 0; k--) {
        const freq = rand(10) === 0 ? 1 + rand(4) : 1;
        list.push([doc, Array.from({ length: freq }, () => rand(maxPos))]);
        doc += 1 + rand(5);
        docs++;
        positions += freq;
      }
      expected.set(`t${t}`, list);
    }
    const w = new TextPostingsWriter(docs, positions);
    for (const [term, list] of expected) {
      for (const [doc, pos] of list) w.add(doc, pos, 0, pos.length);
      w.endTerm(term);
    }
    const out = w.finish();
    const kept = [...expected].filter(([, list]) => list.length > 0);
    assert.deepEqual([...out.keys()], kept.map(([t]) => t));
    // Read in a shuffled order, some views before others: each sees its own span only.
    const order = kept.map(([t]) => t).sort(() => rand(3) - 1);
    for (const term of order) {
      const p = out.get(term)!;
      // Unread, it holds only the arrays its field shares (the spans among them).
      assert.ok(p.heldArrays.some(([part]) => part === "terms"));
      const list = expected.get(term)!;
      assert.deepEqual([...p.docs], list.map(([d]) => d));
      const freqs = list.map(([, pos]) => pos.length);
      assert.deepEqual(p.freqs === null ? freqs.map(() => 1) : [...p.freqs], freqs);
      assert.deepEqual([...p.positions], list.flatMap(([, pos]) => pos));
      assert.equal(p.posStart.at(-1), p.positions.length);
      assert.equal(p.docs, p.docs); // made once
      // Once read it holds only its own views.
      assert.equal(p.heldArrays[0]?.[1], p.docs);
      assert.ok(!p.heldArrays.some(([part]) => part === "terms"));
    }
  }
});
