import assert from "node:assert/strict";
import { TextPostingsWriter } from "./text_posting.ts";

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
