import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

async function hiddenSetup(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/vis/_doc/1", { a: 1 });
  await call(engine, "PUT", "/hid", { settings: { "index.hidden": true } });
  await call(engine, "PUT", "/hid/_doc/1", { a: 2 });
  await call(engine, "PUT", "/.dot", { settings: { index: { hidden: true } } });
  await call(engine, "POST", "/_refresh?expand_wildcards=all");
  return engine;
}

async function catNames(engine: Engine, query: string): Promise<string[]> {
  const res = await engine.fetch(`http://engine/_cat/indices?h=index&s=index${query}`);
  return (await res.text()).split("\n").filter((l) => l !== "").map((l) => l.trim());
}

const indexOf = (r: Reply): string[] => r.hits.hits.map((h: { _index: string }) => h._index);

Deno.test("hidden indices: left out of wildcards unless expand_wildcards asks for them", async () => {
  const engine = await hiddenSetup();
  assert.deepEqual(await catNames(engine, ""), ["vis"]);
  assert.deepEqual(await catNames(engine, "&expand_wildcards=all"), [".dot", "hid", "vis"]);
  assert.deepEqual(await catNames(engine, "&expand_wildcards=open,hidden"), [
    ".dot",
    "hid",
    "vis",
  ]);
  assert.deepEqual(indexOf(await call(engine, "GET", "/_search")), ["vis"]);
  assert.deepEqual(indexOf(await call(engine, "GET", "/*/_search")), ["vis"]);
  assert.deepEqual(
    indexOf(await call(engine, "GET", "/*/_search?expand_wildcards=open,hidden")).sort(),
    ["hid", "vis"],
  );
  assert.equal((await call(engine, "GET", "/_count")).count, 1);
  const got = await call(engine, "GET", "/h*");
  assert.deepEqual(Object.keys(got).filter((k) => k !== "code"), []);
  const all = await call(engine, "GET", "/h*?expand_wildcards=all");
  assert.equal(all.hid.settings.index.hidden, "true");
});

Deno.test("hidden indices: named, or dot patterns for dot names, still reach them", async () => {
  const engine = await hiddenSetup();
  assert.deepEqual(indexOf(await call(engine, "GET", "/hid/_search")), ["hid"]);
  const res = await engine.fetch("http://engine/_cat/indices/hid?h=index");
  assert.equal((await res.text()).trim(), "hid");
  const dot = await call(engine, "GET", "/.d*");
  assert.ok(dot[".dot"], "a pattern starting with a dot matches hidden dot-named indices");
  assert.equal((await call(engine, "GET", "/hid/_doc/1"))._source.a, 2);
});
