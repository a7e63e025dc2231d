// Index, component and legacy templates against answers recorded from real Elasticsearch 9.5.4
// and OpenSearch 3.8.0.

import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { jsonReply as call } from "../../tests/support/engine_call.ts";

const CT1 = {
  template: {
    settings: { number_of_shards: 2 },
    mappings: {
      properties: { a: { type: "keyword" }, o: { properties: { x: { type: "long" } } } },
    },
    aliases: { al1: {} },
  },
  version: 3,
  _meta: { m: 1 },
};
const CT2 = {
  template: {
    settings: { "index.number_of_replicas": 0 },
    mappings: { properties: { b: { type: "text" }, o: { properties: { y: { type: "long" } } } } },
  },
};
const IT1 = {
  index_patterns: ["te*"],
  priority: 5,
  composed_of: ["ct1", "ct2"],
  template: {
    settings: { index: { refresh_interval: "5s" } },
    mappings: { properties: { c: { type: "integer" }, a: { type: "text" } } },
    aliases: { "{index}-al": { filter: { term: { a: "x" } } } },
  },
  version: 7,
  _meta: { d: "x" },
};
const MERGED = {
  properties: {
    a: { type: "text" },
    b: { type: "text" },
    c: { type: "integer" },
    o: { properties: { x: { type: "long" }, y: { type: "long" } } },
  },
};

async function seeded(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  assert.deepEqual((await call(engine, "PUT", "/_component_template/ct1", CT1)).body, {
    acknowledged: true,
  });
  await call(engine, "PUT", "/_component_template/ct2", CT2);
  assert.equal((await call(engine, "PUT", "/_index_template/it1", IT1)).status, 200);
  return engine;
}

for (const flavour of ["elasticsearch", "opensearch"] as const) {
  Deno.test(`templates (${flavour}): components, then the template, then the request`, async () => {
    const engine = await seeded(flavour);
    await call(engine, "PUT", "/test1", {
      settings: { number_of_shards: 1 },
      mappings: { properties: { d: { type: "keyword" } } },
    });
    const got = (await call(engine, "GET", "/test1")).body.test1;
    assert.deepEqual(got.aliases, { al1: {}, "test1-al": { filter: { term: { a: "x" } } } });
    assert.deepEqual(got.mappings.properties, { ...MERGED.properties, d: { type: "keyword" } });
    assert.equal(got.settings.index.number_of_shards, "1");
    assert.equal(got.settings.index.number_of_replicas, "0");
    assert.equal(got.settings.index.refresh_interval, "5s");
    // A document write that creates its index takes the template too.
    assert.equal((await call(engine, "POST", "/test2/_doc/1", { e: 1 })).status, 201);
    const auto = (await call(engine, "GET", "/test2")).body.test2;
    assert.equal(auto.settings.index.number_of_shards, "2");
    assert.deepEqual(auto.mappings.properties, { ...MERGED.properties, e: { type: "long" } });
    assert.deepEqual(Object.keys(auto.aliases), ["al1", "test2-al"]);
    // An index no template matches is untouched.
    await call(engine, "PUT", "/other");
    assert.deepEqual((await call(engine, "GET", "/other")).body.other.aliases, {});
    engine.close();
  });

  Deno.test(`templates (${flavour}): GET, HEAD and the simulations`, async () => {
    const engine = await seeded(flavour);
    const got = await call(engine, "GET", "/_index_template/it1");
    const view = got.body.index_templates[0];
    assert.equal(view.name, "it1");
    assert.deepEqual(view.index_template.template.settings, { index: { refresh_interval: "5s" } });
    assert.deepEqual(view.index_template.composed_of, ["ct1", "ct2"]);
    assert.equal(view.index_template.priority, 5);
    assert.deepEqual(view.index_template._meta, { d: "x" });
    assert.equal("created_date_millis" in view.index_template, flavour === "elasticsearch");
    const none = await call(engine, "GET", "/_index_template/no*");
    assert.deepEqual([none.status, none.body], [404, { index_templates: [] }]);
    const missing = await call(engine, "GET", "/_index_template/nope");
    assert.deepEqual([missing.status, missing.body.error.type], [
      404,
      "resource_not_found_exception",
    ]);
    assert.equal((await call(engine, "HEAD", "/_index_template/it1")).status, 200);
    assert.equal((await call(engine, "HEAD", "/_component_template/nope")).status, 404);
    const ct = (await call(engine, "GET", "/_component_template/ct1")).body;
    assert.deepEqual(ct.component_templates[0].component_template.template.settings, {
      index: { number_of_shards: "2" },
    });
    const sim = (await call(engine, "POST", "/_index_template/_simulate_index/test1")).body;
    assert.deepEqual(sim.template.mappings, MERGED);
    assert.equal(sim.template.settings.index.number_of_shards, "2");
    assert.deepEqual(sim.overlapping, []);
    assert.deepEqual((await call(engine, "POST", "/_index_template/_simulate_index/zzz")).body, {});
    const body = await call(engine, "POST", "/_index_template/_simulate", {
      index_patterns: ["te*"],
      priority: 15,
      template: { settings: { "index.blocks.write": true }, aliases: { test_alias: {} } },
      composed_of: ["ct2"],
    });
    assert.equal(body.body.template.settings.index.blocks.write, "true");
    assert.deepEqual(body.body.overlapping, [{ name: "it1", index_patterns: ["te*"] }]);
    const empty = await call(engine, "POST", "/_index_template/_simulate");
    assert.equal(empty.body.error.type, "action_request_validation_exception");
    engine.close();
  });

  Deno.test(`templates (${flavour}): refusals`, async () => {
    const engine = await seeded(flavour);
    const type = async (method: string, path: string, body?: unknown) =>
      (await call(engine, method, path, body)).body.error?.type;
    assert.equal(
      await type("PUT", "/_index_template/it2", { index_patterns: "tes*", priority: 5 }),
      "illegal_argument_exception",
    );
    assert.equal(
      await type("PUT", "/_index_template/it3", { index_patterns: ["x*"], composed_of: ["nope"] }),
      "invalid_index_template_exception",
    );
    assert.equal(
      await type("PUT", "/_index_template/it4", { priority: 1 }),
      "illegal_argument_exception",
    );
    assert.equal(
      await type("PUT", "/_index_template/it5", {
        index_patterns: ["y*"],
        template: { settings: { "index.foo": 1 } },
      }),
      flavour === "opensearch" ? "settings_exception" : "invalid_index_template_exception",
    );
    assert.equal(
      await type("PUT", "/_index_template/it6", { index_patterns: ["y*"], bogus: 1 }),
      "x_content_parse_exception",
    );
    assert.equal(
      await type("PUT", "/_index_template/it1?create=true", { index_patterns: ["zz*"] }),
      "illegal_argument_exception",
    );
    const bad = await call(engine, "PUT", "/_index_template/it7", {
      index_patterns: ["y*"],
      template: { mappings: { properties: { a: { type: "nonsense" } } } },
    });
    assert.equal(bad.body.error.caused_by.caused_by.type, "mapper_parsing_exception");
    const inUse = await call(engine, "DELETE", "/_component_template/ct1");
    assert.equal(
      inUse.body.error.reason,
      "component templates [ct1] cannot be removed as they are still in use by index templates [it1]",
    );
    assert.equal(await type("DELETE", "/_index_template/nope"), "index_template_missing_exception");
    // A wildcard that matches nothing deletes nothing and is no error; a missing name in a list is.
    assert.equal((await call(engine, "DELETE", "/_template/*")).status, 200);
    assert.equal((await call(engine, "DELETE", "/_index_template/a*,b")).status, 404);
    assert.equal(
      await type("DELETE", "/_component_template/nope"),
      flavour === "opensearch"
        ? "index_template_missing_exception"
        : "resource_not_found_exception",
    );
    assert.equal(
      await type("PUT", "/_index_template/it9", {
        index_patterns: ["*"],
        template: { settings: { "index.hidden": true } },
      }),
      "action_request_validation_exception",
    );
    assert.equal(
      await type("PUT", "/_component_template/c9", { version: 1 }),
      "illegal_argument_exception",
    );
    assert.equal(
      await type("PUT", "/_component_template/c9", {
        template: { mappings: { properties: { a: { type: "nonsense" } } } },
      }),
      "mapper_parsing_exception",
    );
    assert.equal(
      await type("PUT", "/_template/l9", { index_patterns: ["q*"], settings: { "index.foo": 1 } }),
      flavour === "opensearch" ? "settings_exception" : "illegal_argument_exception",
    );
    assert.equal(
      await type("PUT", "/_template/l9", { index_patterns: ["q*"], bogus: 1 }),
      "parse_exception",
    );
    assert.equal(
      await type("PUT", "/_template/l9", { settings: {} }),
      "action_request_validation_exception",
    );
    assert.equal(
      await type("POST", "/_index_template/_simulate/nope"),
      "illegal_argument_exception",
    );
    // A template that creates data streams is kept; an index it would create is refused.
    await call(engine, "PUT", "/_index_template/ds", { index_patterns: ["dd*"], data_stream: {} });
    const ds = (await call(engine, "GET", "/_index_template/ds")).body.index_templates[0];
    assert.deepEqual(
      ds.index_template.data_stream,
      flavour === "opensearch"
        ? { timestamp_field: { name: "@timestamp" } }
        : { hidden: false, allow_custom_routing: false },
    );
    assert.equal("priority" in ds.index_template, false);
    assert.equal("composed_of" in ds.index_template, flavour === "elasticsearch");
    assert.equal(await type("PUT", "/dd1"), "illegal_argument_exception");
    assert.equal((await call(engine, "DELETE", "/_index_template/it1")).status, 200);
    assert.equal((await call(engine, "DELETE", "/_component_template/ct1")).status, 200);
    engine.close();
  });

  Deno.test(`templates (${flavour}): legacy ones by order, and the _cat tables`, async () => {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/_template/lt1", {
      index_patterns: ["le*", "lf*"],
      order: 2,
      settings: { number_of_shards: 1 },
      mappings: { properties: { q: { type: "keyword" } } },
      aliases: { la: {} },
      version: 4,
    });
    await call(engine, "PUT", "/_template/lt2", {
      index_patterns: ["le*"],
      order: 1,
      settings: { number_of_shards: 3, number_of_replicas: 0 },
      mappings: { properties: { r: { type: "keyword" } } },
    });
    assert.deepEqual((await call(engine, "GET", "/_template/lt*?flat_settings=true")).body, {
      lt1: {
        order: 2,
        version: 4,
        index_patterns: ["le*", "lf*"],
        settings: { "index.number_of_shards": "1" },
        mappings: { properties: { q: { type: "keyword" } } },
        aliases: { la: {} },
      },
      lt2: {
        order: 1,
        index_patterns: ["le*"],
        settings: { "index.number_of_replicas": "0", "index.number_of_shards": "3" },
        mappings: { properties: { r: { type: "keyword" } } },
        aliases: {},
      },
    });
    const missing = await call(engine, "GET", "/_template/nope");
    assert.deepEqual([missing.status, missing.body], [404, {}]);
    await call(engine, "PUT", "/le1");
    const le1 = (await call(engine, "GET", "/le1")).body.le1;
    assert.deepEqual(le1.aliases, { la: {} });
    assert.deepEqual(Object.keys(le1.mappings.properties), ["q", "r"]);
    assert.equal(le1.settings.index.number_of_shards, "1");
    assert.equal(le1.settings.index.number_of_replicas, "0");
    // A composable template, when one matches, keeps the legacy ones out.
    await call(engine, "PUT", "/_index_template/it", { index_patterns: ["le2*"], version: 7 });
    await call(engine, "PUT", "/le2");
    assert.deepEqual((await call(engine, "GET", "/le2")).body.le2.aliases, {});
    assert.deepEqual((await call(engine, "GET", "/_cat/templates?format=json")).body, [
      { name: "lt1", index_patterns: "[le*, lf*]", order: "2", version: "4", composed_of: "" },
      { name: "lt2", index_patterns: "[le*]", order: "1", version: null, composed_of: "" },
      { name: "it", index_patterns: "[le2*]", order: "0", version: "7", composed_of: "[]" },
    ]);
    assert.equal((await call(engine, "DELETE", "/_template/nope")).status, 404);
    assert.equal((await call(engine, "HEAD", "/_template/lt1")).status, 200);
    engine.close();
  });
}

Deno.test("templates: _cat/component_templates counts (Elasticsearch)", async () => {
  const engine = await seeded("elasticsearch");
  assert.deepEqual(
    (await call(engine, "GET", "/_cat/component_templates?format=json&s=name")).body,
    [
      {
        name: "ct1",
        version: "3",
        alias_count: "1",
        mapping_count: "2",
        settings_count: "1",
        metadata_count: "1",
        included_in: "[it1]",
      },
      {
        name: "ct2",
        version: null,
        alias_count: "0",
        mapping_count: "2",
        settings_count: "1",
        metadata_count: "0",
        included_in: "[it1]",
      },
    ],
  );
  engine.close();
});
