import assert from "node:assert/strict";
import { entitySourceFromMapping } from "./entity_source.ts";
import { mappingOf } from "./index_mapping.ts";
import { canonicalMapping } from "./mapping_drift.ts";
import { type EntityClass, getEntityMeta } from "./entity.ts";

const MOD = new URL("./mod.ts", import.meta.url).href;

/** Generates, writes the module to a temporary file, imports it and returns its root class. */
async function generate(mapping: unknown, index = "things", settings?: unknown) {
  const source = entitySourceFromMapping(mapping, { index, importFrom: MOD, settings });
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, source);
    const mod = await import(`file://${file}`) as Record<string, EntityClass>;
    const root = Object.values(mod).find((c) => getEntityMeta(c).index === index)!;
    return { source, root, mod };
  } finally {
    await Deno.remove(file);
  }
}

/** Every type and option the generator knows, plus some it does not type. */
export const WIDE_MAPPING = {
  dynamic: "strict",
  _source: { excludes: ["blob"] },
  properties: {
    "first-name": {
      type: "text",
      analyzer: "standard",
      fields: { raw: { type: "keyword", ignore_above: 256 } },
    },
    "@timestamp": { type: "date", format: "strict_date_optional_time||epoch_millis" },
    nanos: { type: "date_nanos" },
    tag: {
      type: "keyword",
      normalizer: "lowercase",
      doc_values: false,
      null_value: "none",
      copy_to: ["all"],
    },
    all: { type: "text", search_analyzer: "simple", index_options: "freqs", norms: false },
    l: { type: "long", null_value: 0 },
    i: { type: "integer", coerce: false },
    s: { type: "short" },
    b: { type: "byte" },
    d: { type: "double", index: false },
    f: { type: "float", store: true },
    h: { type: "half_float" },
    sf: { type: "scaled_float", scaling_factor: 100 },
    ul: { type: "unsigned_long" },
    ok: { type: "boolean", null_value: false },
    ip: { type: "ip" },
    geo: { type: "geo_point", ignore_malformed: true },
    v: {
      type: "dense_vector",
      dims: 3,
      similarity: "l2_norm",
      index: true,
      index_options: { type: "hnsw", m: 16, ef_construction: 100 },
    },
    blob: { type: "object", enabled: false },
    address: {
      dynamic: "false",
      properties: {
        city: { type: "keyword" },
        "zip code": { type: "keyword", time_series_dimension: true },
        geo: { properties: { lat: { type: "double" } } },
      },
    },
    lines: {
      type: "nested",
      include_in_parent: true,
      properties: { sku: { type: "keyword" }, qty: { type: "integer" } },
    },
    hash: { type: "murmur3" },
    "1st": { type: "wildcard" },
    class: { type: "keyword", meta: { unit: "none" } },
    id: { type: "keyword" },
  },
};

Deno.test("gen: mappingOf(generated) equals the mapping, every type and option", async () => {
  const { source, root } = await generate({ things: { mappings: WIDE_MAPPING } });
  assert.deepEqual(mappingOf(root).mappings, canonicalMapping(WIDE_MAPPING), source);
  // Names made identifiers, originals kept; object and nested as their own classes; notes.
  assert.match(source, /name: "first-name", mapping: [^@]*\n {2}firstName: string \| null = null;/);
  assert.match(source, /name: "@timestamp",[^@]*\n {2}timestamp: string \| null = null;/);
  assert.match(source, /name: "1st", mapping: "wildcard" \}\)\n {2}_1st: string \| null = null;/);
  assert.match(source, /export class ThingsAddressGeo \{/);
  assert.match(source, /lines: ThingsLines\[\] = \[\];/);
  assert.match(
    source,
    /@Column\(\{ primary: true, name: "_id" \}\)\n {2}docId: string \| null = null;/,
  );
  assert.match(source, /\/\/ multi-fields: first-name\.raw \(keyword\)/);
  assert.match(source, /\/\/ {3}hash: murmur3 kept whole in raw/);
  assert.match(source, /\/\/ {3}address\.zip code: time_series_dimension of keyword kept in raw/);
  assert.match(source, /\/\/ {3}top level: _source kept in rawMappings/);
});

Deno.test("gen: the generated module type-checks under the project's strict settings", async () => {
  const source = entitySourceFromMapping({ things: { mappings: WIDE_MAPPING } }, {
    index: "things",
    importFrom: MOD,
  });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/things.ts`, source);
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({ compilerOptions: { strict: true, noUncheckedIndexedAccess: true } }),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", `${dir}/things.ts`],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("gen: names that collide get a suffix; an empty mapping gives a class with a key", async () => {
  const { source, root } = await generate({
    properties: { "a-b": { type: "long" }, aB: { type: "long" }, a_b: { type: "long" } },
  });
  assert.match(source, /@Column\(\{ name: "aB", mapping: "long" \}\)\n {2}aB2: number \| bigint/);
  assert.deepEqual(Object.keys(mappingOf(root).mappings.properties), ["a-b", "aB", "a_b"]);
  const empty = await generate({ properties: {} }, "my-index");
  assert.match(empty.source, /export class MyIndex \{/);
  assert.deepEqual(mappingOf(empty.root).mappings, { properties: {} });
});

Deno.test("gen: settings from GET /_settings become @Table settings", async () => {
  const settings = {
    things: {
      settings: {
        index: {
          number_of_shards: "2",
          number_of_replicas: "0",
          uuid: "x",
          creation_date: "1",
          analysis: { normalizer: { folded: { type: "custom", filter: ["lowercase"] } } },
        },
      },
    },
  };
  const { root } = await generate(
    { properties: { a: { type: "keyword", normalizer: "folded" } } },
    "things",
    settings,
  );
  assert.deepEqual(mappingOf(root).settings, {
    number_of_shards: 2,
    number_of_replicas: 0,
    analysis: { normalizer: { folded: { type: "custom", filter: ["lowercase"] } } },
  });
});

Deno.test("gen: dotted names under subobjects: false are kept whole", async () => {
  const mapping = {
    properties: {
      metrics: { type: "object", subobjects: false, properties: { "cpu.user": { type: "long" } } },
    },
  };
  const { source, root } = await generate(mapping);
  assert.deepEqual(mappingOf(root).mappings, canonicalMapping(mapping));
  assert.match(source, /metrics: dotted names inside/);
});
