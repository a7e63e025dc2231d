import assert from "node:assert/strict";
import { DataAccessError } from "../driver/mod.ts";
import { exactField, readFieldTypes } from "./field_types.ts";

Deno.test("readFieldTypes: nested objects, keyword sub-fields, patterns merged, ES 6 typed", () => {
  const types = readFieldTypes({
    a: {
      mappings: {
        properties: {
          name: {
            type: "text",
            fields: { raw: { type: "keyword" }, keyword: { type: "keyword" } },
          },
          title: { type: "text", fields: { en: { type: "text" }, exact: { type: "keyword" } } },
          address: { properties: { city: { type: "text" }, zip: { type: "keyword" } } },
          tags: { type: "nested", properties: { k: { type: "keyword" } } },
        },
      },
    },
    b: { mappings: { properties: { code: { type: "keyword" }, name: { type: "keyword" } } } },
    c: { mappings: { _doc: { properties: { old: { type: "long" } } } } },
  });
  assert.deepEqual(Object.fromEntries(types), {
    name: { type: "text", keyword: "name.keyword" },
    "name.raw": { type: "keyword" },
    "name.keyword": { type: "keyword" },
    title: { type: "text", keyword: "title.exact" },
    "title.en": { type: "text" },
    "title.exact": { type: "keyword" },
    "address.city": { type: "text" },
    "address.zip": { type: "keyword" },
    tags: { type: "nested" },
    "tags.k": { type: "keyword" },
    code: { type: "keyword" },
    old: { type: "long" },
  });
  assert.equal(readFieldTypes(null).size, 0);
});

Deno.test("exactField: keyword sub-field for text, the field otherwise, a MAPPING error without one", () => {
  const types = readFieldTypes({
    i: {
      mappings: {
        properties: {
          t: { type: "text", fields: { keyword: { type: "keyword" } } },
          bio: { type: "text" },
        },
      },
    },
  });
  assert.equal(exactField(types, "t", "eq"), "t.keyword");
  assert.equal(
    exactField(types, "t.keyword", "eq"),
    "t.keyword",
    "a keyword sub-field named directly",
  );
  assert.equal(exactField(types, "unknown", "eq"), "unknown");
  assert.throws(
    () => exactField(types, "bio", "in"),
    (e: unknown) =>
      e instanceof DataAccessError && e.code === "MAPPING" && /in\("bio"\)/.test(e.message),
  );
});
