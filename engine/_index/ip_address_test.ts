import assert from "node:assert/strict";
import { Engine } from "../engine.ts";
import { call, failure } from "../../tests/support/engine_call.ts";
import { bigIntToIp, ipSpan, ipToBigInt } from "./ip_address.ts";

Deno.test("ipToBigInt/bigIntToIp: IPv4 mapped, IPv6 compressed, IPv4 tails, bad text refused", () => {
  for (const ip of ["10.0.0.5", "0.0.0.0", "255.255.255.255", "::1", "2001:db8::ff00:42:8329"]) {
    assert.equal(bigIntToIp(ipToBigInt(ip)!), ip);
  }
  assert.equal(bigIntToIp(ipToBigInt("2001:0db8:0:0:0:0:0:1")!), "2001:db8::1");
  assert.equal(bigIntToIp(ipToBigInt("0:0::ffff:9.0.0.1")!), "9.0.0.1");
  assert.ok(ipToBigInt("10.0.0.1")! < ipToBigInt("10.0.0.2")!);
  assert.ok(ipToBigInt("::1")! < ipToBigInt("9.0.0.1")!);
  for (const bad of ["10.0.0.256", "1.2.3", "1::2::3", "x", "1:2:3:4:5:6:7", "::ffff:1.2.3.999"]) {
    assert.equal(ipToBigInt(bad), null, bad);
  }
});

Deno.test("ipSpan: one address, v4 and v6 CIDR blocks, the real engines' refusals", () => {
  const v4 = ipSpan("10.0.0.0/8");
  assert.deepEqual([bigIntToIp(v4.from), bigIntToIp(v4.to)], ["10.0.0.0", "10.255.255.255"]);
  const v6 = ipSpan("2001:db8::/32");
  assert.deepEqual([bigIntToIp(v6.from), bigIntToIp(v6.to)], [
    "2001:db8::",
    "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
  ]);
  assert.throws(() => ipSpan("nope"), { message: "'nope' is not an IP string literal." });
  assert.throws(() => ipSpan("::ffff:10.0.0.0/104"), /CIDR notation is not allowed/);
});

// Values and orders below are what Elasticsearch 9.5.4 and OpenSearch 3.8.0 answered for the same
// index (one shard).
async function ips(): Promise<Engine> {
  const engine = new Engine();
  await call(engine, "PUT", "/net", {
    settings: { number_of_shards: 1 },
    mappings: { properties: { a: { type: "ip" } } },
  });
  const docs = [["10.0.0.1", "::1"], "2001:db8::7", "0:0::ffff:9.0.0.1", "192.168.0.1"];
  for (const [i, a] of docs.entries()) await call(engine, "PUT", `/net/_doc/${i + 1}`, { a });
  await call(engine, "POST", "/net/_refresh");
  return engine;
}

const view = (r: Record<string, unknown>) =>
  (r.hits as { hits: Array<{ _id: string; sort?: unknown[]; _score?: number }> }).hits.map((h) =>
    h.sort ? [h._id, ...h.sort] : [h._id, h._score]
  );

Deno.test("ip sort: by address (IPv4 mapped into IPv6), min/max of many, written as addresses", async () => {
  const engine = await ips();
  const asc = await call(engine, "POST", "/net/_search", { sort: [{ a: "asc" }] });
  assert.deepEqual(view(asc), [
    ["1", "::1"],
    ["3", "9.0.0.1"],
    ["4", "192.168.0.1"],
    ["2", "2001:db8::7"],
  ]);
  const desc = await call(engine, "POST", "/net/_search", { sort: [{ a: "desc" }] });
  assert.deepEqual(view(desc), [
    ["2", "2001:db8::7"],
    ["4", "192.168.0.1"],
    ["1", "10.0.0.1"],
    ["3", "9.0.0.1"],
  ]);
  const after = await call(engine, "POST", "/net/_search", {
    sort: [{ a: "asc" }],
    search_after: ["9.0.0.1"],
  });
  assert.deepEqual(view(after), [["4", "192.168.0.1"], ["2", "2001:db8::7"]]);
});

Deno.test("ip term and range: constant score, CIDR blocks, by address, bad text refused", async () => {
  const engine = await ips();
  const one = await call(engine, "POST", "/net/_search", { query: { term: { a: "192.168.0.1" } } });
  assert.deepEqual(view(one), [["4", 1]]);
  const block = await call(engine, "POST", "/net/_search", {
    query: { term: { a: { value: "8.0.0.0/6", boost: 2 } } },
  });
  assert.deepEqual(view(block), [["1", 2], ["3", 2]]);
  const range = await call(engine, "POST", "/net/_search", {
    query: { range: { a: { gte: "::1", lt: "10.0.0.2" } } },
  });
  assert.deepEqual(view(range).map((h) => h[0]), ["1", "3"]);
  const bad = await call(engine, "POST", "/net/_search", { query: { term: { a: "nope" } } });
  assert.deepEqual(failure(bad), [400, "search_phase_execution_exception", "all shards failed"]);
  assert.equal(
    bad.error.root_cause[0].reason,
    "failed to create query: 'nope' is not an IP string literal.",
  );
});

Deno.test("ip terms aggregation: keys written as addresses, ordered by address", async () => {
  const engine = await ips();
  const r = await call(engine, "POST", "/net/_search", {
    size: 0,
    aggs: { t: { terms: { field: "a", order: { _key: "asc" } } } },
  });
  assert.deepEqual(
    r.aggregations.t.buckets.map((b: { key: string }) => b.key),
    ["::1", "9.0.0.1", "10.0.0.1", "192.168.0.1", "2001:db8::7"],
  );
});

Deno.test("ip fields under `*`: skipped when the text is no address, matched when it is one", async () => {
  const engine = new Engine();
  await call(engine, "PUT", "/o", {
    settings: { number_of_shards: 1 },
    mappings: { properties: { t: { type: "text" }, a: { type: "ip" } } },
  });
  await call(engine, "PUT", "/o/_doc/1?refresh=true", { t: "brown fox", a: "10.0.0.1" });
  // Scores Elasticsearch 9.5.4 gave for the same document.
  const scores = async (query: unknown) =>
    (await call(engine, "POST", "/o/_search", { query })).hits.hits.map((h: { _score: number }) =>
      h._score
    );
  assert.deepEqual(await scores({ simple_query_string: { query: '"brown fox"' } }), [0.5753642]);
  assert.deepEqual(await scores({ multi_match: { query: "brown", fields: ["*"] } }), [0.2876821]);
  assert.deepEqual(await scores({ query_string: { query: "brown" } }), [0.2876821]);
  assert.deepEqual(await scores({ simple_query_string: { query: "10.0.0.1" } }), [1]);
});
