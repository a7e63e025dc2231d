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
