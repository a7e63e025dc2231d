import assert from "node:assert/strict";
import { TokenStream } from "./token_stream.ts";

Deno.test("TokenStream groups occurrences into postings with freqs and positions", () => {
  const s = new TokenStream();
  s.add("a", 0, 0);
  s.add("b", 0, 1);
  s.add("a", 0, 2);
  s.add("b", 3, 0);
  const p = s.build(true);
  const a = p.get("a")!;
  assert.deepEqual([...a.docs], [0]);
  assert.deepEqual([...a.freqs!], [2]);
  assert.deepEqual([...a.posStart!], [0, 2]);
  assert.deepEqual([...a.positions!], [0, 2]);
  const b = p.get("b")!;
  assert.deepEqual([...b.docs], [0, 3]);
  assert.deepEqual([...b.posStart!], [0, 1, 2]);
  assert.deepEqual([...b.positions!], [1, 0]);
});

Deno.test("TokenStream without positions keeps doc lists only", () => {
  const s = new TokenStream();
  for (let d = 0; d < 3000; d++) s.add(d % 2 ? "odd" : "even", d, 0);
  const p = s.build(false);
  assert.equal(p.get("odd")!.docs.length, 1500);
  assert.equal(p.get("even")!.freqs, null);
});

Deno.test("TokenStream: chars read from the text and whole strings share one term table", () => {
  const s = new TokenStream();
  const text = "The QUICK fox, the quick FOX";
  assert.equal(s.add("quick", 0, 0), "quick");
  s.doc = 1;
  s.addLowerAscii(text, 4, 9, 0); // QUICK
  s.addLowerAscii(text, 0, 3, 1); // The
  s.addLowerAscii(text, 15, 18, 2); // the
  // Many distinct terms: the table grows and every term keeps its postings.
  for (let t = 0; t < 5000; t++) s.add("t" + t, 2, t);
  const shared = s.add("the", 3, 0);
  assert.equal(shared, "the");
  const p = s.build(true);
  assert.deepEqual([...p.get("quick")!.docs], [0, 1]);
  assert.deepEqual([...p.get("the")!.docs], [1, 3]);
  assert.deepEqual([...p.get("the")!.freqs!], [2, 1]);
  assert.equal(p.get("QUICK"), undefined);
  assert.equal(p.get("The"), undefined);
  assert.deepEqual([...p.get("t4999")!.docs], [2]);
  assert.equal(p.size, 5002);
});
