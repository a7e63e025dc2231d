import assert from "node:assert/strict";
import { editDistance, maxEdits } from "./fuzzy.ts";

Deno.test("editDistance counts edits and transpositions with a cutoff", () => {
  assert.equal(editDistance("xylophoen", "xylophone", 2, "transpositions"), 1);
  assert.equal(editDistance("xylophoen", "xylophone", 2, "levenshtein"), 2);
  assert.equal(editDistance("kitten", "sitting", 3, "transpositions"), 3);
  assert.equal(editDistance("a", "abcd", 1, "transpositions"), 2);
});

Deno.test("maxEdits follows AUTO", () => {
  assert.equal(maxEdits("AUTO", "ab"), 0);
  assert.equal(maxEdits("AUTO", "abcd"), 1);
  assert.equal(maxEdits("auto", "abcdefg"), 2);
  assert.equal(maxEdits("1", "abcdefg"), 1);
});
