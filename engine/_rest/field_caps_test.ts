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

// The metadata fields and parents below are the real engines' answers on the same indices
// (Elasticsearch 9.5.4 and OpenSearch 3.8.0, 2026-12-02).
async function metaSetup(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  await call(engine, "PUT", "/fc1", {
    mappings: {
      properties: {
        title: { type: "text", fields: { raw: { type: "keyword" } } },
        count: { type: "integer" },
        owner: {
          properties: { name: { type: "keyword" }, deep: { properties: { x: { type: "long" } } } },
        },
        items: { type: "nested", properties: { sku: { type: "keyword" } } },
        al: { type: "alias", path: "count" },
      },
    },
  });
  await call(engine, "PUT", "/fc2", { mappings: { properties: { title: { type: "keyword" } } } });
  await call(engine, "PUT", "/fc1/_doc/1?refresh=true", { title: "a b", count: 1 });
  await call(engine, "PUT", "/fc2/_doc/1?refresh=true&routing=r", { title: "a" });
  return engine;
}

/** `{field: "type/searchable/aggregatable"}` of a field caps answer, for compact comparisons. */
function summary(caps: Record<string, Record<string, Record<string, unknown>>>) {
  const out: Record<string, string> = {};
  for (const [name, byType] of Object.entries(caps)) {
    for (const [type, c] of Object.entries(byType)) {
      out[name] = `${type}/${c.searchable ? "s" : "-"}${c.aggregatable ? "a" : "-"}`;
    }
  }
  return out;
}

Deno.test("field_caps: Elasticsearch 9.5.4's metadata fields", async () => {
  const engine = await metaSetup("elasticsearch");
  const caps = await call(engine, "GET", "/fc1/_field_caps?fields=_*");
  assert.deepEqual(summary(caps.fields), {
    _data_stream_timestamp: "_data_stream_timestamp/--",
    _doc_count: "integer/--",
    _field_names: "_field_names/s-",
    _id: "_id/s-",
    _ignored: "_ignored/sa",
    _ignored_source: "_ignored_source/--",
    _index: "_index/sa",
    _index_mode: "_index_mode/sa",
    _nested_path: "_nested_path/s-",
    _routing: "_routing/s-",
    _seq_no: "_seq_no/sa",
    _source: "_source/--",
    _tier: "keyword/sa",
    _version: "_version/-a",
  });
  assert.deepEqual(caps.fields._tier.keyword, {
    type: "keyword",
    metadata_field: true,
    searchable: true,
    aggregatable: true,
    inference: false,
  });
  // include_empty_fields=false: the constant ones, the per-document ones once a document is in;
  // `_routing` (and `_field_names`, which names it) once a document was routed.
  const names = async (index: string) =>
    Object.keys(
      (await call(engine, "GET", `/${index}/_field_caps?fields=_*&include_empty_fields=false`))
        .fields,
    ).sort();
  assert.deepEqual(await names("fc1"), [
    "_id",
    "_index",
    "_index_mode",
    "_seq_no",
    "_source",
    "_tier",
    "_version",
  ]);
  assert.deepEqual(await names("fc2"), [
    "_field_names",
    "_id",
    "_index",
    "_index_mode",
    "_routing",
    "_seq_no",
    "_source",
    "_tier",
    "_version",
  ]);
  await call(engine, "PUT", "/empty");
  assert.deepEqual(await names("empty"), ["_index", "_index_mode", "_tier"]);
  engine.close();
});

Deno.test("field_caps: OpenSearch 3.8.0's metadata fields, without metadata_field", async () => {
  const engine = await metaSetup("opensearch");
  const caps = await call(engine, "GET", "/fc1/_field_caps?fields=_*");
  assert.deepEqual(summary(caps.fields), {
    _data_stream_timestamp: "_data_stream_timestamp/--",
    _doc_count: "long/--",
    _feature: "_feature/--",
    _field_names: "_field_names/s-",
    _id: "_id/sa",
    _ignored: "_ignored/s-",
    _index: "_index/sa",
    _nested_path: "_nested_path/s-",
    _routing: "_routing/s-",
    _seq_no: "_seq_no/sa",
    _source: "_source/--",
    _version: "_version/--",
  });
  assert.deepEqual(caps.fields._id._id, { type: "_id", searchable: true, aggregatable: true });
  const bad = await call(
    engine,
    "GET",
    "/fc1/_field_caps?fields=*&types=keyword&include_empty_fields=false",
  );
  assert.equal(bad.code, 400);
  assert.equal(bad.error.type, "illegal_argument_exception");
  assert.equal(
    bad.error.reason,
    "request [/fc1/_field_caps] contains unrecognized parameters: [include_empty_fields], [types]",
  );
  const filters = await call(engine, "GET", "/fc1/_field_caps?fields=*&filters=-parent");
  assert.equal(
    filters.error.reason,
    "request [/fc1/_field_caps] contains unrecognized parameter: [filters] -> did you mean [filter_path]?",
  );
  engine.close();
});

Deno.test("field_caps: objects come as the parents of the fields kept; aliases as their target", async () => {
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await metaSetup(flavour);
    const fields = async (f: string) =>
      summary((await call(engine, "GET", `/fc1/_field_caps?fields=${f}`)).fields);
    assert.deepEqual(await fields("owner"), {});
    assert.deepEqual(await fields("owner.deep.x,al,items"), {
      owner: "object/--",
      "owner.deep": "object/--",
      "owner.deep.x": "long/sa",
      al: "integer/sa",
    });
    assert.deepEqual(await fields("items.*"), { items: "nested/--", "items.sku": "keyword/sa" });
    engine.close();
  }
});

Deno.test("field_caps: types keep the parents of the fields they keep (Elasticsearch)", async () => {
  const engine = await metaSetup("elasticsearch");
  const caps = await call(engine, "GET", "/fc1/_field_caps?fields=*&types=keyword,_id");
  assert.deepEqual(Object.keys(caps.fields).sort(), [
    "_id",
    "_tier",
    "items",
    "items.sku",
    "owner",
    "owner.name",
    "title.raw",
  ]);
  engine.close();
});

Deno.test("field_caps: the fields asked for, checked as each engine checks them", async () => {
  // Elasticsearch 9.5.4's and OpenSearch 3.8.0's answers on the same index.
  const es = await metaSetup("elasticsearch");
  const err = async (engine: Engine, method: string, path: string, body?: unknown) => {
    const r = await call(engine, method, path, body);
    assert.equal(r.code, 400, JSON.stringify(r));
    return [r.error.type, r.error.reason];
  };
  assert.deepEqual(await err(es, "GET", "/fc1/_field_caps"), [
    "action_request_validation_exception",
    "Validation Failed: 1: no fields specified;",
  ]);
  assert.deepEqual(await err(es, "GET", "/fc1/_field_caps?fields="), [
    "illegal_argument_exception",
    "specified fields can't be null or empty",
  ]);
  assert.deepEqual(await err(es, "POST", "/fc1/_field_caps?fields=title", { fields: ["count"] }), [
    "illegal_argument_exception",
    "can't specify a request body and [fields] request parameter, either specify a request body or the [fields] request parameter",
  ]);
  assert.deepEqual(await err(es, "POST", "/fc1/_field_caps?fields=title", { bogus: 1 }), [
    "x_content_parse_exception",
    "[1:2] [field_caps_request] unknown field [bogus]",
  ]);
  const fromBody = await call(es, "POST", "/fc1/_field_caps", { fields: ["title"] });
  assert.deepEqual(Object.keys(fromBody.fields), ["title"]);
  // A string is one name, not a list.
  const oneName = await call(es, "POST", "/fc1/_field_caps", { fields: "title,count" });
  assert.deepEqual(oneName.fields, {});
  es.close();
  const os = await metaSetup("opensearch");
  assert.deepEqual(await err(os, "GET", "/fc1/_field_caps"), [
    "illegal_argument_exception",
    "specified fields can't be null or empty",
  ]);
  assert.deepEqual(await err(os, "POST", "/fc1/_field_caps", { fields: ["title"] }), [
    "illegal_argument_exception",
    "specified fields can't be null or empty",
  ]);
  const bad = await call(os, "POST", "/fc1/_field_caps?fields=title", { bogus: 1 });
  assert.deepEqual([bad.error.type, bad.error.reason, bad.error.line, bad.error.col], [
    "parsing_exception",
    "request does not support [bogus]",
    1,
    2,
  ]);
  os.close();
});

Deno.test("field_caps: runtime fields, the index's and the request's (Elasticsearch)", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/fc9", {
    mappings: {
      properties: { a: { type: "keyword", meta: { unit: "ms" } }, r: { type: "integer" } },
      runtime: { rt: { type: "keyword" } },
    },
  });
  const caps = await call(engine, "POST", "/fc9/_field_caps?fields=*&filters=-metadata", {
    runtime_mappings: { day: { type: "keyword" } },
  });
  // Elasticsearch 9.5.4's answer.
  assert.deepEqual(Object.keys(caps.fields).sort(), ["a", "day", "r", "rt"]);
  assert.deepEqual(caps.fields.rt.keyword, {
    type: "keyword",
    metadata_field: false,
    searchable: true,
    aggregatable: true,
    inference: false,
  });
  engine.close();
});
