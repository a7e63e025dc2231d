import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

async function setup(): Promise<Engine> {
  const engine = new Engine({ now: () => Date.UTC(2024, 0, 2, 3, 4, 5, 60) });
  await call(engine, "PUT", "/test_index", {
    aliases: { test_alias: {}, test_blias: {} },
    mappings: { properties: { foo: { type: "keyword" } } },
    settings: { number_of_shards: 1, number_of_replicas: 1 },
  });
  return engine;
}

Deno.test("indices.get: aliases, mappings and settings in that order; features leave the others empty", async () => {
  const engine = await setup();
  const all = await call(engine, "GET", "/test_index");
  assert.deepEqual(Object.keys(all.test_index), ["aliases", "mappings", "settings"]);
  assert.deepEqual(Object.keys(all.test_index.aliases), ["test_alias", "test_blias"]);
  assert.equal(all.test_index.mappings.properties.foo.type, "keyword");
  assert.equal(all.test_index.settings.index.number_of_shards, "1");
  const some = await call(engine, "GET", "/test_index?features=aliases,settings");
  assert.deepEqual(some.test_index.mappings, {});
  assert.ok(Object.keys(some.test_index.aliases).length === 2);
  assert.ok(some.test_index.settings.index);
  const mappingsOnly = await call(engine, "GET", "/test_index?features=mappings");
  assert.deepEqual(mappingsOnly.test_index.aliases, {});
  assert.deepEqual(mappingsOnly.test_index.settings, {});
  const bad = await call(engine, "GET", "/test_index?features=aliases,nope");
  assert.equal(bad.code, 400);
  assert.equal(bad.error.type, "illegal_argument_exception");
  assert.equal(bad.error.reason, "No endpoint or operation is available at [nope]");
  engine.close();
});

Deno.test("indices.get: human adds the readable creation date and version; flat_settings and include_defaults", async () => {
  const engine = await setup();
  const plain = await call(engine, "GET", "/test_index");
  assert.equal(plain.test_index.settings.index.creation_date_string, undefined);
  const human = await call(engine, "GET", "/test_index?human=true");
  const index = human.test_index.settings.index;
  assert.equal(index.creation_date, String(Date.UTC(2024, 0, 2, 3, 4, 5, 60)));
  assert.equal(index.creation_date_string, "2024-01-02T03:04:05.060Z");
  assert.match(index.version.created_string, /^\d+\.\d+\.\d+$/);
  const flat = await call(engine, "GET", "/test_index?flat_settings=true&include_defaults=true");
  assert.equal(flat.test_index.settings["index.number_of_shards"], "1");
  assert.equal(flat.test_index.defaults["index.refresh_interval"], "1s");
  assert.equal(flat.test_index.defaults["index.number_of_shards"], undefined);
  const settings = await call(engine, "GET", "/test_index/_settings?human");
  assert.equal(settings.test_index.settings.index.creation_date_string, "2024-01-02T03:04:05.060Z");
  engine.close();
});

Deno.test("indices.get: missing and reserved names, ignore_unavailable, allow_no_indices", async () => {
  const engine = await setup();
  assert.equal((await call(engine, "GET", "/test_not_found")).code, 404);
  const ignored = await call(engine, "GET", "/test_not_found?ignore_unavailable=true");
  assert.deepEqual({ ...ignored, code: undefined }, { code: undefined });
  const none = await call(engine, "GET", "/test_not*");
  assert.equal(none.code, 200);
  assert.equal((await call(engine, "GET", "/test_not*?allow_no_indices=false")).code, 404);
  const reserved = await call(engine, "GET", "/_foo");
  assert.equal(reserved.code, 400);
  assert.equal(reserved.error.type, "invalid_index_name_exception");
  assert.equal(reserved.error.reason, "Invalid index name [_foo], must not start with '_'.");
  engine.close();
});
