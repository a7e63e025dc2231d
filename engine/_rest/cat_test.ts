import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { formatBytes } from "./cat.ts";

Deno.test("formatBytes writes sizes like Elasticsearch", () => {
  assert.equal(formatBytes(512), "512b");
  assert.equal(formatBytes(4608), "4.5kb");
  assert.equal(formatBytes(3 * 1024 * 1024), "3mb");
});

Deno.test("_cat/indices: text with header, column choice, sorting and JSON", async () => {
  const engine = new Engine();
  for (const name of ["b", "a"]) {
    const res = await engine.fetch(`http://e/${name}/_doc/1?refresh=true`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: '{"x":1}',
    });
    await res.body?.cancel();
  }
  const text = await (await engine.fetch("http://e/_cat/indices?v&h=index,docs.count&s=index"))
    .text();
  assert.equal(text, "index docs.count\na              1\nb              1\n");
  const json =
    await (await engine.fetch("http://e/_cat/indices?format=json&h=index,pri&s=index:desc")).json();
  assert.deepEqual(json, [{ index: "b", pri: "1" }, { index: "a", pri: "1" }]);
  engine.close();
});
