// 100 000 random values bound in every placeholder position, through the driver, the template's
// #{} and the tagged template's ${}: each is refused with a BindError or leaves the command's
// structure as written, a path value always exactly one segment (see tests/support/binding_property.ts).
// `deno task fuzz` runs a million.
import assert from "node:assert/strict";
import { POSITIONS, runBindingProperty } from "./support/binding_property.ts";

Deno.test("binding property: 100 000 hostile values in every position never change a command's structure", () => {
  const seed = Number(Deno.env.get("BIND_SEED") ?? 20261125);
  const { cases, refused } = runBindingProperty(100_000, seed);
  assert.equal(cases, 100_000);
  assert.ok(Object.keys(POSITIONS).length >= 14);
  // Most values bind (the check then ran on the result); a share is refused as it should be.
  assert.ok(refused > 0 && refused < cases * 0.6, `refused ${refused}`);
});
