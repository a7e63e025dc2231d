import assert from "node:assert/strict";
import { splitOverrides, stripOverrides } from "./_overrides.ts";

Deno.test("stripOverrides: every override at both ends, repeatedly, any case", () => {
  const comma = splitOverrides(",");
  assert.equal(stripOverrides("  , , a, b ,  ,", comma, comma), "a, b");
  assert.equal(stripOverrides("AND or a = 1", splitOverrides("and |or "), []), "a = 1");
  assert.equal(stripOverrides("a,", [], []), "a,");
  assert.equal(stripOverrides(" , ", comma, comma), "");
  assert.deepEqual(splitOverrides("AND |OR |").map((o) => o.text), ["AND ", "OR "]);
  assert.deepEqual(splitOverrides(undefined), []);
});
