import assert from "node:assert/strict";
import { DocumentIds } from "./_doc_ids.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

Deno.test("generated ids: 20 URL-safe characters, distinct across refills of the random pool", () => {
  const ids = new DocumentIds();
  const seen = new Set<string>();
  for (let i = 0; i < 5_000; i++) {
    const id = ids.next();
    assert.match(id, /^[A-Za-z0-9_-]{20}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 5_000);
});

Deno.test("generated ids: the first 8 characters are the time in milliseconds (48 bits)", () => {
  const before = Date.now();
  const id = new DocumentIds().next();
  const after = Date.now();
  let t = 0;
  for (const c of id.slice(0, 8)) t = t * 64 + ALPHABET.indexOf(c);
  assert.ok(t >= before && t <= after, `${t} within [${before}, ${after}]`);
});
