import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

function refused(r: Reply, type: string, reason: string): void {
  assert.equal(r.code, 400, JSON.stringify(r));
  assert.equal(r.error.type, type);
  assert.equal(r.error.reason, reason);
}

Deno.test("field name length: creation, put mapping, dynamic mapping, updatable", async () => {
  const engine = new Engine();
  const limit = { "index.mapping.field_name_length.limit": 5 };
  const tooLong = "Field name [abcdef] is longer than the limit of [5] characters";
  for (
    const props of [
      { abcdef: { type: "keyword" } },
      { a: { properties: { abcdef: { type: "long" } } } },
      { abcdef: { properties: { a: { type: "long" } } } },
      { a: { type: "text", fields: { abcdef: { type: "keyword" } } } },
    ]
  ) {
    const r = await call(engine, "PUT", "/n", { settings: limit, mappings: { properties: props } });
    refused(r, "illegal_argument_exception", tooLong);
  }
  assert.equal((await call(engine, "PUT", "/n", { settings: limit })).code, 200);
  assert.equal((await call(engine, "PUT", "/n/_mapping", { properties: { abcde: {} } })).code, 200);
  refused(
    await call(engine, "PUT", "/n/_mapping", { properties: { abcdef: { type: "keyword" } } }),
    "illegal_argument_exception",
    tooLong,
  );
  const doc = await call(engine, "PUT", "/n/_doc/1", { ok: 1, abcdef: "x" });
  refused(doc, "document_parsing_exception", `[1:2] failed to parse: ${tooLong}`);
  assert.deepEqual(doc.error.caused_by, { type: "illegal_argument_exception", reason: tooLong });
  const mapping = await call(engine, "GET", "/n/_mapping");
  assert.deepEqual(Object.keys(mapping.n.mappings.properties), ["abcde"]);
  refused(
    await call(engine, "PUT", "/n/_settings", { "index.mapping.field_name_length.limit": 0 }),
    "illegal_argument_exception",
    "Failed to parse value [0] for setting [index.mapping.field_name_length.limit] must be >= 1",
  );
  // A dynamic string brings its `keyword` multi-field, whose name counts too.
  const six = { "index.mapping.field_name_length.limit": 6 };
  assert.equal((await call(engine, "PUT", "/n/_settings", six)).code, 200);
  refused(
    await call(engine, "PUT", "/n/_doc/1", { ok: 1, abcdef: "x" }),
    "document_parsing_exception",
    "[1:2] failed to parse: Field name [keyword] is longer than the limit of [6] characters",
  );
  const raised = { "index.mapping.field_name_length.limit": 7 };
  assert.equal((await call(engine, "PUT", "/n/_settings", raised)).code, 200);
  const again = await call(engine, "PUT", "/n/_doc/1", { ok: 1, abcdef: "x" });
  assert.equal(again.code, 201, JSON.stringify(again));
  const defaults = await call(
    engine,
    "GET",
    "/n/_settings?include_defaults=true&flat_settings=true",
  );
  assert.equal(defaults.n.settings["index.mapping.field_name_length.limit"], "7");
  engine.close();
});

Deno.test("total fields: creation and put mapping count the whole mapping", async () => {
  const engine = new Engine();
  const settings = { "index.mapping.total_fields.limit": 2 };
  // An object, its field and a multi-field: three mappers.
  const three = {
    a: { properties: { b: { type: "text", fields: { raw: { type: "keyword" } } } } },
  };
  refused(
    await call(engine, "PUT", "/t", { settings, mappings: { properties: three } }),
    "illegal_argument_exception",
    "Limit of total fields [2] has been exceeded",
  );
  const two = { properties: { a: { type: "keyword" }, b: { type: "long" } } };
  assert.equal((await call(engine, "PUT", "/t", { settings, mappings: two })).code, 200);
  refused(
    await call(engine, "PUT", "/t/_mapping", { properties: { c: { type: "long" } } }),
    "illegal_argument_exception",
    "Limit of total fields [2] has been exceeded",
  );
  const doc = await call(engine, "PUT", "/t/_doc/1", { a: "x", c: 1, d: 2 });
  refused(
    doc,
    "document_parsing_exception",
    "[1:2] failed to parse: Limit of total fields [2] has been exceeded while adding new fields [2]",
  );
  assert.equal(doc.error.caused_by.type, "illegal_argument_exception");
  const raised = { "index.mapping.total_fields.limit": 4 };
  assert.equal((await call(engine, "PUT", "/t/_settings", raised)).code, 200);
  assert.equal((await call(engine, "PUT", "/t/_doc/1", { a: "x", c: 1, d: 2 })).code, 201);
  engine.close();
});

Deno.test("depth and nested fields: set per index, checked on put mapping, updatable", async () => {
  const engine = new Engine();
  const deep = { a: { properties: { b: { properties: { c: { type: "keyword" } } } } } };
  const settings = { "index.mapping.depth.limit": 2, "index.mapping.nested_fields.limit": 1 };
  refused(
    await call(engine, "PUT", "/d", { settings, mappings: { properties: deep } }),
    "illegal_argument_exception",
    "Limit of mapping depth [2] has been exceeded due to object field [a.b]",
  );
  assert.equal((await call(engine, "PUT", "/d", { settings })).code, 200);
  refused(
    await call(engine, "PUT", "/d/_doc/1", { a: { b: { c: "x" } } }),
    "document_parsing_exception",
    "[1:2] failed to parse: Limit of mapping depth [2] has been exceeded due to object field [a.b]",
  );
  const nested = { properties: { n1: { type: "nested" }, n2: { type: "nested" } } };
  refused(
    await call(engine, "PUT", "/d/_mapping", nested),
    "illegal_argument_exception",
    "Limit of nested fields [1] has been exceeded",
  );
  const raised = { "index.mapping.depth.limit": 3, "index.mapping.nested_fields.limit": 2 };
  assert.equal((await call(engine, "PUT", "/d/_settings", raised)).code, 200);
  assert.equal((await call(engine, "PUT", "/d/_mapping", nested)).code, 200);
  assert.equal((await call(engine, "PUT", "/d/_doc/1", { a: { b: { c: "x" } } })).code, 201);
  engine.close();
});

Deno.test("nested objects: the limit per document is updatable", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/o", {
    settings: { "index.mapping.nested_objects.limit": 2 },
    mappings: { properties: { items: { type: "nested" } } },
  });
  const three = { items: [{ x: 1 }, { x: 2 }, { x: 3 }] };
  const r = await call(engine, "PUT", "/o/_doc/1", three);
  assert.equal(r.code, 400);
  assert.match(
    JSON.stringify(r.error),
    /The number of nested documents has exceeded the allowed limit of \[2\]/,
  );
  const raised = { "index.mapping.nested_objects.limit": 3 };
  assert.equal((await call(engine, "PUT", "/o/_settings", raised)).code, 200);
  assert.equal((await call(engine, "PUT", "/o/_doc/1", three)).code, 201);
  engine.close();
});
