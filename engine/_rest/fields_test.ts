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
    text: { type: "text", metadata_field: false, searchable: true, aggregatable: false },
  });
  assert.equal(caps.fields["title.keyword"].keyword.aggregatable, true);
  assert.equal(caps.fields.n.long.aggregatable, true);
  engine.close();
});
