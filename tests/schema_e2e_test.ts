// Index schema as code, end to end: an entity's mapping created with `session.indexOps`, its drift
// against the live mapping, and `searchvisitor gen` on the live mapping round-tripping through
// `mappingOf` of the generated (and imported) class — on the embedded engine and, through
// `deno task test:backend`, on real clusters.
import assert from "node:assert/strict";
import { Configuration } from "../mapper/mod.ts";
import {
  canonicalMapping,
  Column,
  type EntityClass,
  getEntityMeta,
  mappingOf,
  Table,
} from "../template/mod.ts";
import { runGen } from "../cli/mod.ts";
import type { EngineOptions } from "../engine/mod.ts";
import { type BackendScope, backendTest, type Capability, suiteIndex } from "./support/backend.ts";

const TEMPLATE = new URL("../template/mod.ts", import.meta.url).href;

class Address {
  @Column({ mapping: "keyword" })
  city = "";
  @Column({ mapping: { type: "geo_point" } })
  location: string | null = null;
}

class Line {
  @Column({ mapping: "keyword" })
  sku = "";
  @Column({ mapping: { type: "integer", null_value: 0 } })
  qty = 0;
}

@Table({
  index: suiteIndex("orders"),
  dynamic: "strict",
  settings: { number_of_shards: 1, number_of_replicas: 0 },
})
class Order {
  @Column({ primary: true, name: "_id" })
  id = "";
  @Column({ mapping: { type: "keyword", ignore_above: 64 } })
  customer = "";
  @Column({
    mapping: { type: "text", analyzer: "standard", fields: { raw: { type: "keyword" } } },
  })
  note = "";
  @Column({ name: "placed_at", mapping: { type: "date", format: "yyyy-MM-dd" } })
  placedAt = "";
  @Column({ mapping: { type: "object", entity: Address, dynamic: "strict" } })
  address: Address | null = null;
  @Column({ mapping: { type: "nested", entity: Line } })
  lines: Line[] = [];
  @Column({ mapping: { type: "double", index: false } })
  total = 0;
}

function session(t: BackendScope) {
  return new Configuration().newSession(t.dataSource());
}

backendTest("indexOps: create from the entity, exists, no drift, delete", async (t) => {
  const ops = session(t).indexOps(Order);
  assert.equal(await ops.exists(), false);
  await ops.create();
  assert.equal(await ops.exists(), true);
  assert.deepEqual(await ops.drift(), []);
  // The live mapping is the declared one, as the server writes it.
  const live = (await t.call("GET", `/${ops.index}/_mapping`)).body[ops.index].mappings;
  assert.deepEqual(canonicalMapping(live), mappingOf(Order).mappings);
  const settings = (await t.call("GET", `/${ops.index}/_settings`)).body[ops.index].settings.index;
  assert.equal(settings.number_of_shards, "1");
  assert.equal(settings.number_of_replicas, "0");
  assert.deepEqual(await ops.settingsDrift(), []);
  await t.call("PUT", `/${ops.index}/_settings`, { index: { number_of_replicas: 1 } });
  assert.deepEqual(await ops.settingsDrift(), [
    { kind: "option", path: "settings", option: "number_of_replicas", expected: 0, actual: "1" },
  ]);
  // A write the strict mapping refuses: dynamic reached the server.
  const bad = await t.call("PUT", `/${ops.index}/_doc/1`, { customer: "a", colour: "red" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, "strict_dynamic_mapping_exception");
  assert.equal(await ops.createIfMissing(), false);
  assert.equal(await ops.delete(), true);
  assert.equal(await ops.exists(), false);
  assert.equal(await ops.delete(), false);
});

backendTest("indexOps: drift reports missing, type, option and extra fields", async (t) => {
  const index = t.index("orders-old");
  const created = await t.call("PUT", `/${index}`, {
    mappings: {
      properties: {
        customer: { type: "keyword" }, // ignore_above missing
        note: { type: "keyword" }, // type conflict
        address: { properties: { city: { type: "keyword" }, zip: { type: "keyword" } } },
        total: { type: "double" },
        legacy: { type: "long" },
      },
    },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const ops = session(t).indexOps(Order, index);
  assert.deepEqual(await ops.drift(), [
    { kind: "option", path: "", option: "dynamic", expected: "strict" },
    { kind: "option", path: "customer", option: "ignore_above", expected: 64 },
    { kind: "type", path: "note", expected: "text", actual: "keyword" },
    { kind: "missing", path: "placed_at", expected: "date" },
    { kind: "option", path: "address", option: "dynamic", expected: "strict" },
    { kind: "missing", path: "address.location", expected: "geo_point" },
    { kind: "extra", path: "address.zip", actual: "keyword" },
    { kind: "missing", path: "lines", expected: "nested" },
    { kind: "option", path: "total", option: "index", expected: false },
    { kind: "extra", path: "legacy", actual: "long" },
  ]);
});

backendTest("indexOps: putMapping adds what is missing; a type change is refused", async (t) => {
  const index = t.index("orders-grow");
  await t.call("PUT", `/${index}`, {
    mappings: {
      properties: { customer: { type: "keyword" }, total: { type: "double", index: false } },
    },
  });
  @Table(index)
  class Grown {
    @Column({ mapping: "keyword" })
    customer = "";
    @Column({ mapping: { type: "double", index: false } })
    total = 0;
    @Column({ mapping: { type: "text", fields: { raw: { type: "keyword" } } } })
    note = "";
  }
  const ops = session(t).indexOps(Grown);
  assert.deepEqual(await ops.drift(), [{ kind: "missing", path: "note", expected: "text" }]);
  assert.deepEqual(await ops.putMapping(), []);
  @Table(index)
  class Changed {
    @Column({ mapping: "long" })
    customer = 0;
  }
  await assert.rejects(session(t).indexOps(Changed).putMapping(), /illegal_argument_exception/);
});

/** One round-trip case: a mapping the backend must hold, and what it needs. */
interface Case {
  name: string;
  requires?: Capability[];
  mappings: Record<string, unknown>;
  settings?: Record<string, unknown>;
  /** The embedded engine's options for this case. */
  embedded?: EngineOptions;
}

/** The mapping types and options `gen` types, grouped so that a missing module skips one group. */
export const CASES: Case[] = [
  {
    name: "keyword and text options, multi-fields, copy_to, meta",
    mappings: {
      dynamic: "strict",
      properties: {
        tag: {
          type: "keyword",
          ignore_above: 256,
          doc_values: false,
          null_value: "none",
          copy_to: ["all"],
          meta: { owner: "team" },
        },
        folded: { type: "keyword", normalizer: "lowercase", eager_global_ordinals: true },
        off: { type: "keyword", index: false },
        all: {
          type: "text",
          analyzer: "standard",
          search_analyzer: "simple",
          index_options: "freqs",
          norms: false,
        },
        "first-name": { type: "text", fields: { raw: { type: "keyword", ignore_above: 100 } } },
        "@timestamp": { type: "date" },
        stored: {
          type: "text",
          store: true,
          term_vector: "with_positions_offsets",
          position_increment_gap: 10,
        },
      },
    },
  },
  {
    name: "numbers, dates, boolean, ip, geo_point",
    mappings: {
      properties: {
        l: { type: "long", null_value: 0 },
        i: { type: "integer", coerce: false },
        s: { type: "short", ignore_malformed: true },
        b: { type: "byte" },
        d: { type: "double", index: false },
        f: { type: "float", store: true },
        h: { type: "half_float", doc_values: false },
        d1: { type: "date", format: "yyyy-MM-dd||epoch_millis" },
        d2: { type: "date_nanos", format: "strict_date_optional_time_nanos" },
        ok: { type: "boolean", null_value: false },
        ip: { type: "ip", null_value: "0.0.0.0" },
        geo: { type: "geo_point", ignore_malformed: true },
      },
    },
  },
  {
    name: "scaled_float",
    requires: ["scaled_float"],
    mappings: { properties: { price: { type: "scaled_float", scaling_factor: 100 } } },
  },
  {
    name: "unsigned_long",
    requires: ["unsigned_long"],
    mappings: { properties: { big: { type: "unsigned_long" } } },
  },
  {
    name: "object and nested, recursively, with dynamic",
    mappings: {
      properties: {
        address: {
          dynamic: "false",
          properties: {
            city: { type: "keyword" },
            geo: { properties: { lat: { type: "double" }, lon: { type: "double" } } },
          },
        },
        lines: {
          type: "nested",
          dynamic: "strict",
          include_in_parent: true,
          properties: {
            sku: { type: "keyword" },
            parts: { type: "nested", properties: { n: { type: "integer" } } },
          },
        },
        blob: { type: "object", enabled: false },
      },
    },
  },
  {
    name: "types whose options go through raw: binary, completion, ranges, alias",
    mappings: {
      properties: {
        k: { type: "keyword" },
        bin: { type: "binary" },
        suggest: { type: "completion" },
        ints: { type: "integer_range" },
        days: { type: "date_range", format: "yyyy-MM-dd" },
        ips: { type: "ip_range" },
        key: { type: "alias", path: "k" },
      },
    },
  },
  {
    name: "dense_vector",
    requires: ["knn-section"],
    mappings: {
      properties: { v: { type: "dense_vector", dims: 3, similarity: "l2_norm" } },
    },
  },
  {
    name: "knn_vector (OpenSearch's k-NN plugin)",
    requires: ["knn-query"],
    embedded: { flavour: "opensearch" },
    settings: { "index.knn": true },
    mappings: {
      properties: { v: { type: "knn_vector", dimension: 3, space_type: "l2" } },
    },
  },
  {
    name: "index settings: shards, replicas, refresh interval, analysis",
    settings: {
      number_of_shards: 2,
      number_of_replicas: 0,
      refresh_interval: "5s",
      analysis: { analyzer: { plain: { type: "custom", tokenizer: "standard" } } },
    },
    mappings: { properties: { body: { type: "text", analyzer: "plain" } } },
  },
];

async function generated(t: BackendScope, index: string): Promise<{
  source: string;
  entity: EntityClass;
}> {
  let source = "";
  let err = "";
  const headers = t.headers;
  const code = await runGen(["--url", t.url, "--index", index, "--import", TEMPLATE], {
    env: () => undefined,
    readText: () => Promise.reject(new Error("no files")),
    out: (text) => (source += text),
    err: (text) => (err += text),
    ...(Object.keys(headers).length > 0
      ? {
        fetch: (input: RequestInfo | URL, init?: RequestInit) =>
          fetch(input, { ...init, headers: { ...headers, ...(init?.headers as object) } }),
      }
      : {}),
  });
  assert.equal(code, 0, err);
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, source);
    const mod = await import(`file://${file}`) as Record<string, EntityClass>;
    const entity = Object.values(mod).find((c) => getEntityMeta(c).index === index);
    assert.ok(entity, source);
    return { source, entity };
  } finally {
    await Deno.remove(file);
  }
}

for (const c of CASES) {
  backendTest(
    `gen round-trips: ${c.name}`,
    { requires: c.requires ?? [], ...(c.embedded ? { embedded: c.embedded } : {}) },
    async (t) => {
      const index = t.index("gen");
      const created = await t.call("PUT", `/${index}`, {
        mappings: c.mappings,
        ...(c.settings ? { settings: c.settings } : {}),
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const live = (await t.call("GET", `/${index}/_mapping`)).body[index].mappings;
      const { source, entity } = await generated(t, index);
      // On a real server the live mapping is in normal form already: it equals mappingOf as is.
      assert.deepEqual(
        mappingOf(entity).mappings,
        t.info.kind === "real" ? live : canonicalMapping(live),
        source,
      );
      const ops = new Configuration().newSession(t.dataSource()).indexOps(entity);
      assert.deepEqual(await ops.drift({ strict: true }), []);
      if (c.settings?.["index.knn"]) {
        assert.deepEqual(mappingOf(entity).settings?.["index.knn"], true);
      }
      if (c.settings?.analysis) {
        // The generated entity creates an index like the first one.
        const copy = new Configuration().newSession(t.dataSource()).indexOps(
          entity,
          t.index("gen-copy"),
        );
        await copy.create();
        assert.deepEqual(await copy.drift({ strict: true }), []);
        assert.deepEqual(await copy.settingsDrift(), []);
        const s = (await t.call("GET", `/${copy.index}/_settings`)).body[copy.index].settings.index;
        assert.deepEqual(
          [s.number_of_shards, s.number_of_replicas, s.refresh_interval, s.analysis],
          ["2", "0", "5s", { analyzer: { plain: { type: "custom", tokenizer: "standard" } } }],
        );
      }
    },
  );
}
