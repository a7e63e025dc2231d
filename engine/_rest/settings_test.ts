import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, type Reply } from "../../tests/support/engine_call.ts";

type Json = Reply;

Deno.test("PUT _settings: unknown refused, null resets, preserve_existing keeps what is set", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/s", { settings: { max_result_window: 50 } });
  const unknown = await call(engine, "PUT", "/s/_settings", { index: { nope: 1 } });
  assert.equal(unknown.code, 400);
  assert.equal(unknown.error.type, "illegal_argument_exception");
  assert.match(unknown.error.reason, /^unknown setting \[index\.nope\] please check/);
  const kept = await call(engine, "PUT", "/s/_settings?preserve_existing=true", {
    index: { max_result_window: 70, max_terms_count: 9 },
  });
  assert.equal(kept.acknowledged, true);
  const flat = async () =>
    (await call(engine, "GET", "/s/_settings?flat_settings=true")).s.settings as Json;
  assert.equal((await flat())["index.max_result_window"], "50");
  assert.equal((await flat())["index.max_terms_count"], "9");
  const reset = await call(engine, "PUT", "/s/_settings", { index: { max_result_window: null } });
  assert.equal(reset.code, 200, JSON.stringify(reset));
  assert.equal((await flat())["index.max_result_window"], undefined);
  engine.close();
});

Deno.test("GET _settings?include_defaults: defaults beside the set values, filtered by name", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/s", { settings: { refresh_interval: "5s" } });
  const all = await call(engine, "GET", "/s/_settings?include_defaults=true&flat_settings=true");
  assert.equal(all.s.settings["index.refresh_interval"], "5s");
  assert.equal(all.s.defaults["index.refresh_interval"], undefined);
  assert.equal(all.s.defaults["index.max_result_window"], "10000");
  const nested = await call(engine, "GET", "/s/_settings/index.max_*?include_defaults=true");
  assert.equal(nested.s.defaults.index.max_result_window, "10000");
  assert.equal(nested.s.defaults.index.refresh_interval, undefined);
  const plain = await call(engine, "GET", "/s/_settings");
  assert.equal(plain.s.defaults, undefined);
  engine.close();
});

Deno.test("put settings: static settings refused while any target is open, each index as name/uuid", async () => {
  const engine = new Engine();
  const put = async (path: string, body: unknown) =>
    await (await engine.fetch(`http://e${path}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })).json();
  await put("/a", {});
  await put("/b", {});
  const uuids = await (await engine.fetch("http://e/a,b/_settings/index.uuid?flat_settings"))
    .json();
  const res = await put("/a,b/_settings", {
    "index.number_of_shards": 2,
    "index.codec": "best_compression",
  });
  assert.equal(
    res.error.reason,
    `Can't update non dynamic settings [[index.number_of_shards, index.codec]] for open indices [[a/${
      uuids.a.settings["index.uuid"]
    }], [b/${uuids.b.settings["index.uuid"]}]]`,
  );
  engine.close();
});

Deno.test("OpenSearch's concurrent segment search settings: unknown to Elasticsearch", async () => {
  // real ES 9.5.4: 400 illegal_argument_exception "unknown setting
  // [index.search.concurrent_segment_search.mode] please check that any required plugins are
  // installed…" on index creation and on PUT _settings; real OS 3.8.0 accepts both
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = new Engine({ flavour });
    const created = await call(engine, "PUT", "/c1", {
      settings: { "index.search.concurrent_segment_search.mode": "all" },
    });
    await call(engine, "PUT", "/c2");
    const put = await call(engine, "PUT", "/c2/_settings", {
      "index.search.concurrent_segment_search.enabled": true,
    });
    if (flavour === "elasticsearch") {
      assert.equal(created.code, 400);
      assert.equal(created.error.type, "illegal_argument_exception");
      assert.match(created.error.reason, /^unknown setting \[index\.search\.concurrent_segment/);
      assert.equal(put.code, 400);
      assert.equal(put.error.type, "illegal_argument_exception");
    } else {
      assert.equal(created.code, 200);
      assert.equal(put.code, 200);
    }
    engine.close();
  }
});
