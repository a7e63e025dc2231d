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
