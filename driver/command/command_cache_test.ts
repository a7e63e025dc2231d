import assert from "node:assert/strict";
import { CommandCache } from "./command_cache.ts";

Deno.test("CommandCache keeps at most maxEntries, dropping the least recently used", () => {
  const cache = new CommandCache<number>(3);
  cache.set("a", 1);
  cache.set("b", 2);
  cache.set("c", 3);
  assert.equal(cache.get("a"), 1); // a is now newest: order b, c, a
  cache.set("d", 4); // drops b
  assert.equal(cache.get("b"), undefined);
  assert.equal(cache.size, 3);
  assert.equal(cache.get("c"), 3); // order a, d, c
  cache.set("e", 5); // drops a
  assert.equal(cache.get("a"), undefined);
  assert.deepEqual([cache.get("c"), cache.get("d"), cache.get("e")], [3, 4, 5]);
});

Deno.test("CommandCache: replacing a key keeps one entry; repeated reads of the newest key", () => {
  const cache = new CommandCache<string>(2);
  cache.set("a", "1");
  cache.set("a", "2");
  assert.equal(cache.size, 1);
  assert.equal(cache.get("a"), "2");
  assert.equal(cache.get("a"), "2");
  cache.set("b", "3");
  assert.equal(cache.get("a"), "2"); // a becomes newest even after it was the newest before
  cache.set("c", "4"); // drops b
  assert.equal(cache.get("b"), undefined);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.equal(cache.get("a"), undefined);
});

Deno.test("CommandCache rejects a bad size", () => {
  assert.throws(() => new CommandCache(0), RangeError);
  assert.throws(() => new CommandCache(1.5), /positive integer/);
});

Deno.test("CommandCache: the newest key read again gives its current value, never a dropped one", () => {
  const cache = new CommandCache<string>(1);
  cache.set("a", "1");
  assert.equal(cache.get("a"), "1");
  cache.set("a", "2"); // replaced while newest
  assert.equal(cache.get("a"), "2");
  assert.equal(cache.get("a"), "2");
  cache.set("b", "3"); // drops a
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.get("b"), "3");
  assert.equal(cache.size, 1);
  const two = new CommandCache<string>(2);
  two.set("x", "1");
  two.set("y", "2");
  assert.equal(two.get("x"), "1"); // x newest, y oldest
  two.set("z", "3"); // drops y
  assert.equal(two.get("y"), undefined);
  assert.equal(two.get("x"), "1");
  assert.equal(two.get("z"), "3");
  two.clear();
  assert.equal(two.get("z"), undefined);
});
