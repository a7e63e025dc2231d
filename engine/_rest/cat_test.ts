import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { formatBytes } from "./cat.ts";

Deno.test("formatBytes writes sizes like Elasticsearch", () => {
  assert.equal(formatBytes(512), "512b");
  assert.equal(formatBytes(4608), "4.5kb");
  assert.equal(formatBytes(3 * 1024 * 1024), "3mb");
  assert.equal(formatBytes(4608, "b"), "4608");
  assert.equal(formatBytes(4608, "kb"), "4");
  assert.equal(formatBytes(4608, "mb"), "0");
  assert.throws(() => formatBytes(1, "kib"), /failed to parse \[bytes\]/);
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

Deno.test("_cat/count, _cat/aliases and _cat/shards", async () => {
  const engine = new Engine();
  const put = await engine.fetch("http://e/c/_doc/1?refresh=true", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: '{"x":1}',
  });
  await put.body?.cancel();
  const alias = await engine.fetch("http://e/c/_alias/cc", { method: "PUT" });
  await alias.body?.cancel();
  const count = await (await engine.fetch("http://e/_cat/count/c?format=json&h=count")).json();
  assert.deepEqual(count, [{ count: "1" }]);
  const aliases = await (await engine.fetch("http://e/_cat/aliases?format=json&h=alias,index"))
    .json();
  assert.deepEqual(aliases, [{ alias: "cc", index: "c" }]);
  const shards = await (await engine.fetch("http://e/_cat/shards?format=json&h=prirep,state"))
    .json();
  assert.deepEqual(shards, [{ prirep: "p", state: "STARTED" }, {
    prirep: "r",
    state: "UNASSIGNED",
  }]);
  engine.close();
});

Deno.test("_cat: short column aliases in h and s, and ?help", async () => {
  const engine = new Engine();
  for (const [name, docs] of [["b", 1], ["a", 2]] as const) {
    for (let i = 0; i < docs; i++) {
      const res = await engine.fetch(`http://e/${name}/_doc/${i}?refresh=true`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: '{"x":1}',
      });
      await res.body?.cancel();
    }
  }
  const text = await (await engine.fetch("http://e/_cat/indices?v&h=i,dc&s=dc:desc")).text();
  assert.equal(text, "index docs.count\na              2\nb              1\n");
  const json = await (await engine.fetch("http://e/_cat/health?format=json&h=st,nt")).json();
  assert.deepEqual(Object.keys(json[0]), ["status", "node.total"]);
  const sized = await (await engine.fetch("http://e/_cat/indices?h=i,ss&bytes=b&s=i")).text();
  assert.match(sized, /^a +\d+\nb +\d+\n$/);
  const badUnit = await engine.fetch("http://e/_cat/indices?bytes=x");
  assert.equal(badUnit.status, 400);
  await badUnit.body?.cancel();
  const help = await (await engine.fetch("http://e/_cat/indices?help")).text();
  const lines = help.trimEnd().split("\n");
  assert.match(lines[0]!, /^health +\| h +\| current health status$/);
  assert.ok(lines.some((l) => /^docs\.count +\| dc,docsCount +\| available docs$/.test(l)));
  engine.close();
});
