import assert from "node:assert/strict";
import { InvalidArgumentError } from "../driver/mod.ts";
import { defineEntity } from "../template/mod.ts";
import { MapperError } from "./errors.ts";
import { keyArgument, keyArguments, keyOf, requireKey, targetOf } from "./_entity_target.ts";

class Note {
  id = "";
  text = "";
  seq = 0;
}
defineEntity(Note, { index: "notes", key: "id", fields: { text: "body" }, version: "seq" });

Deno.test("targetOf reads index, key, key column and version field once per class and mapper", () => {
  const target = targetOf(Note, "NoteMapper");
  assert.equal(target.index, "notes");
  assert.equal(target.key, "id");
  assert.equal(target.keyColumn, "id");
  assert.equal(target.version?.field, "seq");
  assert.equal(target.mapper, "NoteMapper");
  assert.ok(Object.isFrozen(target));
  assert.equal(targetOf(Note, "NoteMapper"), target, "cached per mapper");
  assert.notEqual(targetOf(Note, "OtherMapper"), target, "each mapper gets its own site");
});

Deno.test("targetOf says which declaration is missing", () => {
  assert.throws(() => targetOf(undefined, "M"), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(e.message, /@SimpleMapper\(\{ entity: User \}\)/);
    return true;
  });
  class NoIndex {
    id = "";
  }
  assert.throws(() => targetOf(NoIndex, "M"), /NoIndex has no index: add @Table/);
  class NoKey {
    name = "";
  }
  defineEntity(NoKey, { index: "k" });
  assert.throws(() => targetOf(NoKey, "M"), /NoKey has no key field/);
});

Deno.test("keys: empty values address no document, numbers and bigints become text", () => {
  const target = targetOf(Note, "NoteMapper");
  assert.equal(keyOf(target, { id: "a" }), "a");
  assert.equal(keyOf(target, { id: "" }), undefined);
  assert.equal(keyOf(target, { id: null }), undefined);
  assert.equal(keyArgument(7, "findById", "id"), "7");
  assert.equal(keyArgument(7n, "findById", "id"), "7");
  for (const bad of [null, undefined, "", Number.NaN, Infinity, {}, ["a"]]) {
    assert.throws(() => keyArgument(bad, "findById", "id"), (e: unknown) => {
      assert.ok(e instanceof InvalidArgumentError);
      assert.match(e.message, /^argument "id" is .*; findById needs the key/);
      return true;
    });
  }
  assert.deepEqual(keyArguments(["a", 2], "findByIds", "ids"), ["a", "2"]);
  assert.throws(() => keyArguments("a", "findByIds", "ids"), /"ids" is not an array/);
  assert.throws(() => keyArguments(["a", null], "findByIds", "ids"), /argument "ids\[1\]" is null/);
});

Deno.test("requireKey names the entity's key field when it is empty", () => {
  const target = targetOf(Note, "NoteMapper");
  assert.equal(requireKey(target, { id: "n1" }, "update"), "n1");
  assert.throws(
    () => requireKey(target, { id: "" }, "update"),
    /the Note's key field id is empty; update needs the key/,
  );
  assert.throws(
    () => requireKey(target, null as unknown as object, "update"),
    /argument "entity" is null; update needs an entity/,
  );
});
