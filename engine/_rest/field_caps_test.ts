import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function setup(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/test1", {
    mappings: {
      properties: {
        text: { type: "text", fields: { keyword: { type: "keyword" } } },
        number: { type: "double" },
        object: {
          properties: {
            nested1: { type: "text", index: false },
            nested2: { type: "float", doc_values: false },
          },
        },
        level1: {
          type: "nested",
          properties: { level2: { properties: { leaf1: { type: "text" } } } },
        },
      },
    },
  });
  await call(engine, "PUT", "/test2", {
    mappings: {
      properties: {
        text: { type: "text", fielddata: true },
        number: { type: "long" },
        object: {
          properties: { nested1: { type: "text" }, nested2: { type: "float" } },
        },
        non_indexed_keyword: { type: "keyword", index: false },
        non_indexed_text: { type: "text", index: false },
        empty: { type: "keyword" },
        constant: { type: "constant_keyword", value: "c" },
      },
    },
  });
  await call(engine, "PUT", "/test2/_doc/1?refresh=true", { text: "x", number: 1 });
  return engine;
}

Deno.test("field_caps: indices that disagree are listed as non_searchable / non_aggregatable", async () => {
  const engine = await setup();
  const caps = await call(engine, "GET", "/test1,test2/_field_caps?fields=object.*,text,number");
  assert.deepEqual(caps.indices, ["test1", "test2"]);
  assert.deepEqual(caps.fields["object.nested1"].text, {
    type: "text",
    metadata_field: false,
    searchable: false,
    aggregatable: false,
    inference: false, // Elasticsearch 9.5.4 prints it for every field
    non_searchable_indices: ["test1"],
  });
  assert.deepEqual(caps.fields["object.nested2"].float, {
    type: "float",
    metadata_field: false,
    searchable: true,
    aggregatable: false,
    inference: false,
    non_aggregatable_indices: ["test1"],
  });
  assert.deepEqual(caps.fields.text.text.non_aggregatable_indices, ["test1"]);
  assert.deepEqual(caps.fields.number.double.indices, ["test1"]);
  assert.deepEqual(caps.fields.number.long.indices, ["test2"]);
  const one = await call(engine, "GET", "/test2/_field_caps?fields=non_*");
  assert.equal(one.fields.non_indexed_keyword.keyword.searchable, true); // through doc values
  assert.equal(one.fields.non_indexed_text.text.searchable, false);
  engine.close();
});

Deno.test("field_caps: filters and types choose fields as Elasticsearch does", async () => {
  const engine = await setup();
  const names = async (query: string): Promise<string[]> =>
    Object.keys((await call(engine, "GET", `/test1,test2/_field_caps?fields=*&${query}`)).fields)
      .sort();
  const all = await names("");
  for (const f of ["_seq_no", "object", "level1", "level1.level2.leaf1", "text.keyword"]) {
    assert.ok(all.includes(f), f);
  }
  assert.ok(!(await names("filters=-parent")).includes("object"));
  assert.ok((await names("filters=-parent")).includes("object.nested1"));
  assert.ok(!(await names("filters=-metadata")).includes("_seq_no"));
  const meta = await names("filters=%2Bmetadata");
  assert.ok(meta.includes("_seq_no") && !meta.includes("text"));
  const noNested = await names("filters=-nested");
  assert.ok(!noNested.includes("level1") && !noNested.includes("level1.level2.leaf1"));
  assert.ok(!(await names("filters=-multifield")).includes("text.keyword"));
  const typed = await names("types=keyword,long");
  assert.ok(typed.includes("text.keyword") && typed.includes("number"));
  assert.ok(!typed.includes("object.nested1"));
  const bad = await call(engine, "GET", "/test1/_field_caps?fields=*&filters=-bogus");
  assert.equal(bad.code, 400);
  assert.equal(bad.error.reason, "Unknown field caps filter [-bogus]");
  engine.close();
});

Deno.test("field_caps: include_empty_fields=false keeps fields with a value (and constants)", async () => {
  const engine = await setup();
  const caps = await call(engine, "GET", "/test2/_field_caps?fields=*&include_empty_fields=false");
  const names = Object.keys(caps.fields);
  for (const f of ["text", "number", "constant", "_id"]) assert.ok(names.includes(f), f);
  for (const f of ["empty", "non_indexed_keyword", "object.nested1"]) {
    assert.ok(!names.includes(f), f);
  }
  engine.close();
});
