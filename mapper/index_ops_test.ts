import assert from "node:assert/strict";
import { DataSource, ResponseError } from "../driver/mod.ts";
import { Engine } from "../engine/mod.ts";
import { Column, Table } from "../template/mod.ts";
import { Configuration, MapperError } from "./mod.ts";

@Table({ index: "ops_events", settings: { number_of_shards: 2 } })
class Event {
  @Column({ mapping: "keyword" })
  kind = "";
  @Column({ mapping: "integer" })
  level = 0;
}

function session() {
  const engine = new Engine();
  const sent: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    sent.push(`${init?.method ?? "GET"} ${url.pathname}`);
    return engine.fetch(input, init);
  };
  const s = new Configuration().newSession(new DataSource({ nodes: ["http://engine"], fetch }));
  return { engine, sent, session: s };
}

Deno.test("an index's life: create, exists, createIfMissing, no drift, delete once", async () => {
  const { engine, sent, session: s } = session();
  const ops = s.indexOps(Event);
  assert.equal(ops.index, "ops_events");
  assert.deepEqual(ops.definition().mappings, {
    properties: { kind: { type: "keyword" }, level: { type: "integer" } },
  });
  assert.equal(await ops.exists(), false);
  await ops.create();
  assert.equal(await ops.exists(), true);
  assert.equal(await ops.createIfMissing(), false, "there already");
  await assert.rejects(ops.create(), (e: unknown) => {
    assert.ok(e instanceof ResponseError);
    assert.equal(e.type, "resource_already_exists_exception");
    return true;
  });
  assert.deepEqual(await ops.drift(), []);
  assert.deepEqual(await ops.settingsDrift(), []);
  const settings = await (await engine.fetch("http://engine/ops_events/_settings")).json();
  assert.equal(settings.ops_events.settings.index.number_of_shards, "2");
  sent.length = 0;
  assert.equal(await ops.delete(), true);
  assert.equal(await ops.delete(), false, "gone already: false, not an error");
  assert.deepEqual(sent, ["DELETE /ops_events", "DELETE /ops_events"]);
  assert.equal(await ops.createIfMissing(), true);
  engine.close();
});

Deno.test("drift and putMapping: a missing field is added; a changed type is reported, and refused", async () => {
  const { engine, session: s } = session();
  await s.jdbc().execute(
    'PUT /ops_events {"mappings": {"properties": {"kind": {"type": "keyword"}}}}',
  );
  const ops = s.indexOps(Event);
  assert.deepEqual((await ops.drift()).map((d) => [d.kind, d.path]), [["missing", "level"]]);
  assert.deepEqual(await ops.putMapping(), []);
  assert.deepEqual((await ops.liveMapping()).properties?.level, { type: "integer" });
  assert.deepEqual(await ops.drift(), []);

  await s.jdbc().execute('PUT /ops_texts {"mappings": {"properties": {"kind": {"type": "text"}}}}');
  const texts = s.indexOps(Event, "ops_texts");
  assert.deepEqual((await texts.drift()).map((d) => [d.kind, d.path]).sort(), [
    ["missing", "level"],
    ["type", "kind"],
  ]);
  await assert.rejects(texts.putMapping(), (e: unknown) => {
    assert.ok(e instanceof ResponseError);
    assert.match(e.message, /mapper \[kind\] cannot be changed from type \[text\] to \[keyword\]/);
    return true;
  });
  engine.close();
});

Deno.test("another index name for the same entity; no index at all is refused at once", () => {
  const { engine, session: s } = session();
  assert.equal(s.indexOps(Event, "ops_events_v2").index, "ops_events_v2");
  class Nameless {}
  assert.throws(() => s.indexOps(Nameless), (e: unknown) => {
    assert.ok(e instanceof MapperError);
    assert.match(e.message, /^Nameless\.indexOps: has no index: declare one with @Table/);
    return true;
  });
  engine.close();
});
