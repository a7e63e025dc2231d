import assert from "node:assert/strict";
import { Engine } from "../engine.ts";

async function json(engine: Engine, path: string, init?: RequestInit) {
  return await (await engine.fetch(`http://e${path}`, init)).json();
}

Deno.test("_mapping/field and _field_caps describe fields, multi-fields included", async () => {
  const engine = new Engine();
  const put = await engine.fetch("http://e/f/_doc/1", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: "x", n: 1, o: { d: "2024-01-01" } }),
  });
  await put.body?.cancel();
  const mapping = await json(engine, "/f/_mapping/field/title.keyword,o.*");
  assert.deepEqual(mapping.f.mappings["title.keyword"], {
    full_name: "title.keyword",
    mapping: { keyword: { type: "keyword", ignore_above: 256 } },
  });
  assert.deepEqual(mapping.f.mappings["o.d"].mapping, { d: { type: "date" } });
  const caps = await json(engine, "/f/_field_caps?fields=title*,n");
  assert.deepEqual(caps.indices, ["f"]);
  assert.deepEqual(caps.fields.title, {
    text: {
      type: "text",
      metadata_field: false,
      searchable: true,
      aggregatable: false,
      inference: false,
    },
  });
  assert.equal(caps.fields["title.keyword"].keyword.aggregatable, true);
  assert.equal(caps.fields.n.long.aggregatable, true);
  engine.close();
});

Deno.test("_field_caps: include_unmapped, meta merged across indices, index_filter", async () => {
  const engine = new Engine();
  const put = (path: string, body: unknown) =>
    engine.fetch(`http://e${path}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  await put("/f1", {
    mappings: { properties: { a: { type: "keyword", meta: { unit: "ms" } }, b: { type: "long" } } },
  });
  await put("/f2", { mappings: { properties: { a: { type: "keyword", meta: { unit: "s" } } } } });
  await put("/f1/_doc/1?refresh=true", { a: "x", b: 1 });
  const get = (q: string, body?: unknown) =>
    engine.fetch(`http://e/f1,f2/_field_caps?${q}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json());
  const caps = await get("fields=a,b&include_unmapped=true");
  assert.deepEqual(caps.fields.a.keyword.meta, { unit: ["ms", "s"] });
  assert.equal(caps.fields.a.keyword.indices, undefined);
  assert.deepEqual(caps.fields.b.long.indices, ["f1"]);
  assert.deepEqual(caps.fields.b.unmapped, {
    type: "unmapped",
    metadata_field: false,
    searchable: false,
    aggregatable: false,
    inference: false,
    indices: ["f2"],
  });
  const plain = await get("fields=b");
  assert.deepEqual(Object.keys(plain.fields.b), ["long"]);
  assert.equal(plain.fields.b.long.indices, undefined); // unmapped indices are not a difference
  // The filter is rewritten per index, never run (Elasticsearch 9.5.4 and OpenSearch 3.8.0): a
  // term on a field f2 does not map drops f2; a term on its mapped but empty `a` would keep it.
  const filtered = await get("fields=a", { index_filter: { term: { b: 1 } } });
  assert.deepEqual(filtered.indices, ["f1"]);
  assert.deepEqual(filtered.fields.a.keyword.meta, { unit: ["ms"] });
  engine.close();
});

Deno.test("_mapping/field: leaves keep their multi-fields; objects are not listed", async () => {
  // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4 print the same for these five names.
  const engine = new Engine({ flavour: "opensearch" });
  const created = await engine.fetch("http://e/o", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      mappings: {
        properties: {
          o: { properties: { k: { type: "keyword", fields: { x: { type: "keyword" } } } } },
          ns: { type: "nested", properties: { q: { type: "integer" } } },
        },
      },
    }),
  });
  await created.body?.cancel();
  assert.deepEqual(await json(engine, "/o/_mapping/field/o,o.k,o.k.x,ns,ns.q"), {
    o: {
      mappings: {
        "o.k.x": { full_name: "o.k.x", mapping: { x: { type: "keyword" } } },
        "ns.q": { full_name: "ns.q", mapping: { q: { type: "integer" } } },
        "o.k": {
          full_name: "o.k",
          mapping: { k: { type: "keyword", fields: { x: { type: "keyword" } } } },
        },
      },
    },
  });
  // Real OpenSearch 3.8.0, `_mapping/field/_id,_source,o*`: metadata fields with an empty mapping.
  const meta = await json(engine, "/o/_mapping/field/_id,_source,o*");
  assert.deepEqual(Object.keys(meta.o.mappings).sort(), ["_id", "_source", "o.k", "o.k.x"]);
  assert.deepEqual(meta.o.mappings._id, { full_name: "_id", mapping: {} });
  engine.close();
});
