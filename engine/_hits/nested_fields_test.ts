import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

Deno.test("fields option: fields of nested objects come grouped per object, relative names", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/p", {
    mappings: {
      properties: {
        group: { type: "keyword" },
        user: {
          type: "nested",
          properties: {
            first: { type: "keyword" },
            age: { type: "integer" },
            pets: { type: "nested", properties: { name: { type: "keyword" } } },
          },
        },
      },
    },
  });
  await call(engine, "PUT", "/p/_doc/1?refresh=true", {
    group: "fans",
    user: [
      { first: "John", age: 30, pets: [{ name: "Rex" }, { name: "Tom" }] },
      { first: "Alice" },
      { age: 5 },
    ],
  });
  const res = await call(engine, "POST", "/p/_search", {
    fields: ["group", "user.first", "user.pets.name"],
    _source: false,
  });
  assert.deepEqual(res.hits.hits[0].fields, {
    group: ["fans"],
    user: [
      { first: ["John"], pets: [{ name: ["Rex"] }, { name: ["Tom"] }] },
      { first: ["Alice"] },
    ],
  });
  // In an inner hit (the object's own hit) its own fields stay flat, with full names.
  const inner = await call(engine, "POST", "/p/_search", {
    query: {
      nested: {
        path: "user",
        query: { term: { "user.first": "John" } },
        inner_hits: { fields: ["user.first", "user.age"], _source: false },
      },
    },
  });
  assert.deepEqual(inner.hits.hits[0].inner_hits.user.hits.hits[0].fields, {
    "user.first": ["John"],
    "user.age": [30],
  });
  engine.close();
});
