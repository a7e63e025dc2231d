import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call } from "../../tests/support/engine_call.ts";

// The shapes below are those Elasticsearch 9.5.4 and OpenSearch 3.8.0 answered for the same
// requests on a one-shard and a three-shard index.
async function indices(flavour: "elasticsearch" | "opensearch"): Promise<Engine> {
  const engine = new Engine({ flavour });
  const mappings = { properties: { t: { type: "text" }, n: { type: "integer" } } };
  for (const [name, shards] of [["one", 1], ["multi", 3]] as const) {
    await call(engine, "PUT", `/${name}`, { settings: { number_of_shards: shards }, mappings });
    await call(engine, "PUT", `/${name}/_doc/1`, { t: "a", n: 1 });
    await call(engine, "PUT", `/${name}/_doc/2`, { t: "b", n: 200000 });
    await call(engine, "POST", `/${name}/_refresh`);
  }
  return engine;
}

const phase = (r: Record<string, { phase?: string }>) => r.error?.phase;

Deno.test("a primary sort that cannot be built: OpenSearch fails it in can_match on many shards", async () => {
  const os = await indices("opensearch");
  const text = { sort: [{ t: "asc" }] };
  assert.equal(phase(await call(os, "POST", "/multi/_search", text)), "can_match");
  assert.equal(phase(await call(os, "POST", "/one/_search", text)), "query");
  const unmapped = await call(os, "POST", "/multi/_search", { sort: [{ nope: "asc" }] });
  assert.deepEqual([unmapped.code, phase(unmapped)], [400, "can_match"]);
  assert.equal(unmapped.error.caused_by.type, "query_shard_exception");
  // Only the primary sort is built before the query phase.
  const second = await call(os, "POST", "/multi/_search", { sort: [{ n: "asc" }, { t: "asc" }] });
  assert.equal(phase(second), "query");
  const es = await indices("elasticsearch");
  assert.equal(phase(await call(es, "POST", "/multi/_search", text)), "query");
});

Deno.test("a _geo_distance primary sort that cannot be built fails in the query phase", async () => {
  // Real OpenSearch 3.8.0 and Elasticsearch 9.5.4 on a three-shard index: phase query, 400,
  // for a point off the globe and for an unmapped field alike.
  for (const flavour of ["opensearch", "elasticsearch"] as const) {
    const engine = new Engine({ flavour });
    await call(engine, "PUT", "/geo", {
      settings: { number_of_shards: 3 },
      mappings: { properties: { loc: { type: "geo_point" } } },
    });
    await call(engine, "PUT", "/geo/_doc/1?refresh=true", { loc: "-33.86,151.2" });
    for (const sort of [{ loc: "95,5" }, { nowhere: [0, 51.5] }, { loc: [5, 95], unit: "km" }]) {
      const r = await call(engine, "POST", "/geo/_search", { sort: [{ _geo_distance: sort }] });
      assert.deepEqual([r.code, phase(r)], [400, "query"]);
    }
    engine.close();
  }
});

Deno.test("too many buckets: a failure of the reduction, 400 in Elasticsearch, 503 in OpenSearch", async () => {
  const body = { size: 0, aggs: { h: { histogram: { field: "n", interval: 1 } } } };
  for (
    const [flavour, status, max] of [
      ["elasticsearch", 400, 65536],
      ["opensearch", 503, 65535],
    ] as const
  ) {
    const engine = await indices(flavour);
    for (const index of ["one", "multi"]) {
      const r = await call(engine, "POST", `/${index}/_search`, body);
      assert.equal(r.code, status, `${flavour} ${index}`);
      assert.deepEqual(
        [r.error.type, r.error.reason, r.error.phase, r.error.root_cause, r.error.failed_shards],
        ["search_phase_execution_exception", "", "fetch", [], []],
      );
      assert.deepEqual([r.error.caused_by.type, r.error.caused_by.max_buckets], [
        "too_many_buckets_exception",
        max,
      ]);
    }
  }
});

Deno.test("a Java exception on the shards is the cause of its own cause", async () => {
  // Elasticsearch 9.5.4 and OpenSearch 3.8.0 on a terms aggregation over a text field: the shard
  // failure once, the top-level caused_by twice over.
  for (const flavour of ["elasticsearch", "opensearch"] as const) {
    const engine = await indices(flavour);
    const r = await call(engine, "POST", "/one/_search", {
      size: 0,
      aggs: { a: { terms: { field: "t" } } },
    });
    const shard = r.error.failed_shards[0].reason;
    assert.equal(shard.type, "illegal_argument_exception");
    assert.equal(shard.caused_by, undefined);
    assert.deepEqual(r.error.caused_by, { ...shard, caused_by: shard });
    assert.deepEqual(r.error.root_cause, [shard]);
  }
});

Deno.test("a Java exception from the shards comes twice in the top caused_by", async () => {
  // Real OpenSearch 3.8.0 (and Elasticsearch 9.5.4), `terms` with `missing` the field cannot read.
  const engine = new Engine({ flavour: "opensearch" });
  const send = (method: string, path: string, body: unknown) =>
    engine.fetch(`http://e${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  await send("PUT", "/n", {
    mappings: { properties: { n: { type: "integer" }, ip: { type: "ip" } } },
  });
  await send("PUT", "/n/_doc/1?refresh=true", { n: 1 });
  const ip = await send("POST", "/n/_search", {
    aggs: { a: { terms: { field: "ip", missing: "x" } } },
  });
  assert.equal(ip.status, 400);
  const literal = {
    type: "illegal_argument_exception",
    reason: "'x' is not an IP string literal.",
  };
  assert.deepEqual(ip.body.error.root_cause, [literal]);
  assert.deepEqual(ip.body.error.caused_by, { ...literal, caused_by: literal });
  const n = await send("POST", "/n/_search", {
    aggs: { a: { terms: { field: "n", missing: "x" } } },
  });
  const format = { type: "number_format_exception", reason: 'For input string: "x"' };
  assert.deepEqual(n.body.error.caused_by, { ...format, caused_by: format });
  assert.deepEqual(n.body.error.failed_shards[0].reason, format);
  engine.close();
});
